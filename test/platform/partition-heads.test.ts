import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import filingsRoutes from '../../api/filings/routes.ts';
import { openDuck, sqlString } from '../../ingest/lake/duck.ts';
import { HEAD_ROWS } from '../../ingest/lake/heads.ts';
import { partitionDir } from '../../ingest/lake/layout.ts';
import { filingsTable } from '../../schemas/tables/filings.ts';
import { generatedColumns } from '../support/generated-columns.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { logQueries } from '../support/query-log.ts';

/**
 * Partition heads (ingest/lake/heads.ts, `TableSpec.head`): the API's reader keeps the first rows of the newest two
 * quarters of the filing index in page order, and a page the head fills (or a page of a quarter it holds whole) reads
 * it instead of the quarter's file. Every page must still be the one SQL query's rows in its order, whether it was
 * read from a head, from the file after a head fell short, or past the head's last row.
 */
const NEWEST = '2025Q4';
const SECOND = '2025Q3';
const OLDEST = '2025Q2';
/** Rows per quarter: the newest holds more than a head, the others fewer. */
const ROWS: Record<string, number> = { [NEWEST]: HEAD_ROWS + 1_800, [SECOND]: 1_500, [OLDEST]: 1_500 };
const START: Record<string, string> = { [NEWEST]: '2025-10-01', [SECOND]: '2025-07-01', [OLDEST]: '2025-04-01' };
/** A form filed 5 times a quarter, early in it: the newest quarter's head (its newest days) holds none of them. */
const RARE = 'S-4';
const ORDER = 'filed_quarter DESC, filed_date DESC, accession DESC, cik';
/** The same within a quarter: a head's order. */
const HEAD_ORDER = 'filed_date DESC, accession DESC, cik';

describe('partition heads of the filing index', () => {
  let app: TestApp;
  const sql: string[] = [];
  /** Each head made after the first refresh: `partition:built` or `partition:grown`. */
  const made: string[] = [];
  const id = (r: any) => `${r.accession}|${r.cik}`;
  /** The reads of filing rows of the last request: a quarter's files, or a head's table. */
  const reads = () => sql.filter((s) => s.includes('/filings/') || s.includes('head_filings_'));
  const expected = async (where = 'true') => (await app.services.lake.query(`SELECT accession, cik FROM filings WHERE ${where} ORDER BY ${ORDER}`)).map(id);

  /** Writes a quarter's `data.parquet` (or a live append file) of `rows` filings over `days` from `start`, numbered by `from`. */
  async function writeQuarter(quarter: string, rows: number, start: string, from: number, file = 'data.parquet', days = 88, lakeDir = app.settings.lakeDir) {
    const path = join(partitionDir(lakeDir, filingsTable, quarter), file);
    await mkdir(dirname(path), { recursive: true });
    const expr = {
      accession: `'00000${from}-25-' || lpad(CAST(i AS VARCHAR), 6, '0')`,
      cik: `lpad(CAST(hash(i + ${from}) % 5000 AS VARCHAR), 10, '0')`,
      company: `'COMPANY ' || (hash(i + ${from}) % 5000)`,
      // The rare form on 5 rows of the quarter's first days; the others in turn.
      form: `CASE WHEN i % 300 = 7 AND i < 1500 THEN '${RARE}' ELSE ['8-K', '4', '10-Q', 'SC 13G'][1 + i % 4] END`,
      base_form: `CASE WHEN i % 300 = 7 AND i < 1500 THEN '${RARE}' ELSE ['8-K', '4', '10-Q', 'SC 13G'][1 + i % 4] END`,
      is_amendment: 'false',
      // Several filings a day, so rows tie on the date and the accession orders them.
      filed_date: `DATE '${start}' + CAST(i * ${days} // ${rows} AS INTEGER)`,
      filing_url: `'https://www.sec.gov/Archives/edgar/data/' || i || '.txt'`,
      index_url: `'https://www.sec.gov/Archives/edgar/data/' || i || '-index.htm'`,
      detail_source: `'index'`,
      parser_version: '1',
    };
    const { instance, conn } = await openDuck();
    try {
      await conn.run(
        `COPY (SELECT ${generatedColumns(filingsTable, expr, ['filed_quarter'])} FROM range(${rows}) t(i) ORDER BY ${filingsTable.sortBy.join(', ')}) ` +
          `TO ${sqlString(path)} (FORMAT parquet)`,
      );
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
  }

  beforeAll(async () => {
    app = await createTestApp({
      routes: filingsRoutes,
      env: { METERING: 'off', RATE_LIMIT_RPS: '100000' },
      lake: { hooks: { onHead: (_table, partition, how) => made.push(`${partition}:${how}`) } },
    });
    for (const [i, q] of [NEWEST, SECOND, OLDEST].entries()) await writeQuarter(q, ROWS[q], START[q], i + 1);
    await app.services.lake.refresh();
    made.length = 0;
    logQueries(app.services.lake, sql);
  });
  afterAll(() => app?.close());

  it('the reader keeps the newest two quarters’ heads: the newest’s first rows, the second whole; none for older quarters', () => {
    const lake = app.services.lake;
    expect(lake.head('filings', NEWEST)?.whole).toBe(false);
    expect(lake.head('filings', SECOND)?.whole).toBe(true);
    expect(lake.head('filings', OLDEST)).toBeNull();
  });

  it('a first page, and a page of a form the head holds, read the newest quarter’s head alone', async () => {
    for (const [qs, where] of [
      ['', 'true'],
      ['&form_type=10-Q', `form = '10-Q'`],
    ]) {
      sql.length = 0;
      const r = await app.get(`/v1/filings?limit=25${qs}`);
      expect(r.status).toBe(200);
      expect(r.body.data.map(id)).toEqual((await expected(where)).slice(0, 25));
      expect(reads()).toEqual([expect.stringContaining(app.services.lake.head('filings', NEWEST)!.sql)]);
    }
  });

  it('a form the head holds too few of reads the head, then the quarter’s file; the pages are the query’s rows', async () => {
    sql.length = 0;
    const r = await app.get(`/v1/filings?limit=5&form_type=${RARE}`);
    expect(r.body.data.map(id)).toEqual((await expected(`form = '${RARE}'`)).slice(0, 5));
    const [first, second] = reads();
    expect(first).toContain(app.services.lake.head('filings', NEWEST)!.sql);
    expect(second).toContain(`filed_quarter=${NEWEST}/`);
    const all: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await app.get(`/v1/filings?limit=5&form_type=${RARE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      all.push(...page.body.data.map(id));
      cursor = page.body.page.next_cursor;
    } while (cursor);
    expect(all).toEqual(await expected(`form = '${RARE}'`));
  });

  it('pages of 100 walk every row in order: from the head, past its last row from the file alone, then the second quarter’s whole head', async () => {
    const want = await expected();
    const got: string[] = [];
    const readFrom: string[] = [];
    let cursor: string | null = null;
    do {
      sql.length = 0;
      const page: any = await app.get(`/v1/filings?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(page.status).toBe(200);
      got.push(...page.body.data.map(id));
      cursor = page.body.page.next_cursor;
      readFrom.push(
        reads()
          .map((s) => (s.includes('head_filings_') ? 'head' : 'file'))
          .join('+'),
      );
    } while (cursor);
    expect(got).toEqual(want);
    const headPages = Math.floor(HEAD_ROWS / 100);
    // Pages within the head read it alone; the page crossing its last row tries the head, then reads the file; a page
    // whose cursor lies past the head's last row reads the file without asking the head.
    expect(readFrom.slice(0, headPages).every((r) => r === 'head')).toBe(true);
    expect(readFrom[headPages]).toBe('head+file');
    expect(readFrom[headPages + 1]).toBe('file');
    // The last pages are the second quarter's (its whole head) and the oldest's (no head: its file).
    expect(readFrom.at(-1)).toBe('file');
  });

  it('LAKE_HEADS=off: the app keeps no head, and its pages (read from the quarters) are the same rows', async () => {
    const off = await createTestApp({ routes: filingsRoutes, env: { METERING: 'off', RATE_LIMIT_RPS: '100000', LAKE_HEADS: 'off' } });
    try {
      for (const [i, q] of [NEWEST, SECOND, OLDEST].entries()) await writeQuarter(q, ROWS[q], START[q], i + 1, 'data.parquet', 88, off.settings.lakeDir);
      await off.services.lake.refresh();
      expect(off.services.lake.head('filings', NEWEST)).toBeNull();
      for (const qs of ['', `&form_type=${RARE}`]) {
        const [a, b] = await Promise.all([off.get(`/v1/filings?limit=50${qs}`), app.get(`/v1/filings?limit=50${qs}`)]);
        expect(a.status).toBe(200);
        expect(a.body.data.map(id)).toEqual(b.body.data.map(id));
      }
    } finally {
      await off.close();
    }
  });

  it('a head dropped under a page (a page spanning two refreshes) is passed over: the page reads the quarter', async () => {
    const head = app.services.lake.head('filings', SECOND)!;
    // The second quarter's head, dropped behind the reader's back: the page still finds it and its read fails.
    await app.services.lake.query(`DROP TABLE ${head.sql}`, [], { cache: false });
    expect(app.services.lake.head('filings', SECOND)?.sql).toBe(head.sql);
    sql.length = 0;
    const r = await app.get(`/v1/filings?limit=50&filed_from=${START[SECOND]}&filed_to=2025-09-30`);
    expect(r.status).toBe(200);
    expect(r.body.data.map(id)).toEqual((await expected(`filed_quarter = '${SECOND}'`)).slice(0, 50));
    expect(reads().map((s) => (s.includes(head.sql) ? 'head' : 'file'))).toEqual(['head', 'file']);
  });

  /** Every page of `limit` rows of `/v1/filings?<qs>`, walked by cursor: the ids in order. */
  async function walk(limit: number, qs = ''): Promise<string[]> {
    const got: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await app.get(`/v1/filings?limit=${limit}${qs}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(page.status).toBe(200);
      got.push(...page.body.data.map(id));
      cursor = page.body.page.next_cursor;
    } while (cursor);
    return got;
  }

  it('a live append file beside the newest quarter: the head grows by its rows, the new newest filings first', async () => {
    const before = app.services.lake.head('filings', NEWEST)!.sql;
    // Filings of the quarter's last day, after every other row (the live lane's kind of file).
    await writeQuarter(NEWEST, 3, '2025-12-31', 9, 'part-live-00000000000001-test.parquet', 0);
    await app.services.lake.refresh();
    expect(made).toEqual([`${NEWEST}:grown`]);
    const after = app.services.lake.head('filings', NEWEST);
    expect(after?.sql).not.toBe(before);
    expect(after?.whole).toBe(false);
    sql.length = 0;
    const r = await app.get('/v1/filings?limit=4');
    expect(r.body.data.map(id)).toEqual((await expected()).slice(0, 4));
    expect(r.body.data.slice(0, 3).every((d: any) => d.accession.startsWith('000009-'))).toBe(true);
    expect(reads()).toEqual([expect.stringContaining(after!.sql)]);
  });

  it('a grown head stays exact when appended rows replace head rows and move them past its last row', async () => {
    made.length = 0;
    const lake = app.services.lake;
    // The newest quarter's first 10 rows filed again under the same keys, dated its first day: out of the head's reach.
    const first = await lake.query(`SELECT accession, cik FROM ${lake.head('filings', NEWEST)!.sql} ORDER BY ${HEAD_ORDER} LIMIT 10`);
    const path = join(partitionDir(app.settings.lakeDir, filingsTable, NEWEST), 'part-live-00000000000002-test.parquet');
    await lake.query(
      // An accession is one row of this quarter (one filer each).
      `COPY (SELECT f.* EXCLUDE (filed_quarter) REPLACE (DATE '${START[NEWEST]}' AS filed_date) FROM filings f
        WHERE filed_quarter = '${NEWEST}' AND accession IN (${first.map((r) => `'${r.accession}'`).join(', ')}))
        TO ${sqlString(path)} (FORMAT parquet)`,
      [],
      { cache: false },
    );
    // And a new filing dated within the head's days (before its last row), in a file of its own.
    await writeQuarter(NEWEST, 1, '2025-12-30', 8, 'part-live-00000000000003-test.parquet', 0);
    await lake.refresh();
    expect(made).toEqual([`${NEWEST}:grown`]);
    const head = lake.head('filings', NEWEST)!;
    const inHead = (await lake.query(`SELECT accession, cik FROM ${head.sql} ORDER BY ${HEAD_ORDER}`)).map(id);
    const want = await expected(`filed_quarter = '${NEWEST}'`);
    // The head is still a prefix of the quarter in page order, without the moved rows.
    expect(inHead).toEqual(want.slice(0, inHead.length));
    expect(inHead.length).toBeGreaterThan(HEAD_ROWS - 20);
    expect(inHead).not.toContain(id(first[0]));
    expect(await walk(100)).toEqual(await expected());
    expect(await walk(25, `&form_type=${RARE}`)).toEqual(await expected(`form = '${RARE}'`));
  });

  it('an append file that sorts before one the head was grown with, or a head gone, builds the head anew; a whole head grows whole', async () => {
    made.length = 0;
    await writeQuarter(NEWEST, 2, '2025-12-31', 7, 'part-live-00000000000000-test.parquet', 0);
    await app.services.lake.refresh();
    expect(made).toEqual([`${NEWEST}:built`]);
    expect(await walk(100)).toEqual(await expected());
    made.length = 0;
    // The second quarter gains a filing. Its head was dropped by the test above, so it cannot grow: it is built again.
    await writeQuarter(SECOND, 1, '2025-09-30', 6, 'part-live-00000000000001-test.parquet', 0);
    await app.services.lake.refresh();
    expect(made).toEqual([`${SECOND}:built`]);
    made.length = 0;
    // Another: the head (held whole) grows by it and stays whole.
    await writeQuarter(SECOND, 1, '2025-09-30', 5, 'part-live-00000000000002-test.parquet', 0);
    await app.services.lake.refresh();
    expect(made).toEqual([`${SECOND}:grown`]);
    expect(app.services.lake.head('filings', SECOND)?.whole).toBe(true);
    expect(await walk(100, `&filed_from=${START[SECOND]}&filed_to=2025-09-30`)).toEqual(await expected(`filed_quarter = '${SECOND}'`));
  });
});
