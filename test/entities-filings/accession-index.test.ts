import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import datasetEntities from '../../ingest/datasets/entities/dataset.ts';
import datasetFilings from '../../ingest/datasets/filings/dataset.ts';
import { openDuck, queryRows, sqlString } from '../../ingest/lake/duck.ts';
import { keyIndexFile } from '../../ingest/lake/key-index.ts';
import { accessionYear } from '../../schemas/key-buckets.ts';
import { filingsTable } from '../../schemas/tables/filings.ts';
import { addEarlierPartitions } from '../support/earlier-partitions.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { plainFilings } from '../support/plain-filings.ts';
import { logQueries } from '../support/query-log.ts';

/**
 * `/v1/filings?accession=` looks the filing up in the key index over accessions (TableSpec.keyIndexes,
 * docs/layouts.md) of the quarters that hold accessions of its year only: the others' indexes are not read, and of the
 * data only the quarter (and row group) holding it. The page must be the plain filter's rows over every quarter,
 * whatever quarter an accession's year points at.
 */
const ODD = '9999999997-24-000001';
const ACCESSION_INDEX = keyIndexFile('accession');

describe('a filing’s page located by the accession index', () => {
  let app: TestApp;
  let quarters: string[];
  const sql: string[] = [];

  beforeAll(async () => {
    app = await createTestApp({ env: { METERING: 'off', RATE_LIMIT_RPS: '100000' } });
    await app.ingestSample(datasetEntities, { skipDiff: true });
    await app.ingestSample(datasetFilings, { skipDiff: true });
    const [{ a: first }] = (await app.services.lake.query('SELECT min(accession) AS a FROM filings')) as { a: string }[];
    // The sample's quarter (accessions of 2024) again one and two years earlier, each accession's year moved with
    // its filing date; one filing of the oldest quarter keeps an accession of 2024, as a paper filing numbered late.
    const shifted = (years: number) =>
      `substr(accession, 1, 11) || lpad(CAST(CAST(substr(accession, 12, 2) AS INTEGER) - ${years} AS VARCHAR), 2, '0') || substr(accession, 14)`;
    quarters = await addEarlierPartitions(join(app.settings.lakeDir, 'filings'), filingsTable, 'filed_date', [
      { years: 1, replace: { accession: shifted(1) } },
      { years: 2, replace: { accession: `CASE WHEN accession = '${first}' THEN '${ODD}' ELSE ${shifted(2)} END` } },
    ]);
    await app.services.lake.refresh();
    logQueries(app.services.lake, sql);
  });
  afterAll(() => app?.close());

  const expected = (accession: string) => plainFilings(app.services.lake, 'accession = $1', [accession]);
  async function page(accession: string): Promise<string[]> {
    const r = await app.get(`/v1/filings?accession=${accession.replaceAll('-', '')}`);
    expect(r.status).toBe(200);
    return r.body.data.map((d: { accession: string; cik: string }) => `${d.accession}/${d.cik}`);
  }
  const quarterOf = (folder: string) => folder.split('=')[1];
  /** The index files and data files a request's queries named, by quarter folder. */
  const named = (file: string) => quarters.filter((q) => sql.some((s) => s.includes(`/${q}/${file}`)));

  it('every filing’s page holds the plain filter’s rows, filers in order', async () => {
    const accessions = (await app.services.lake.query('SELECT DISTINCT accession FROM filings ORDER BY accession')).map((r) => String(r.accession));
    expect(accessions).toContain(ODD);
    expect(accessions.length).toBeGreaterThan(300);
    for (const a of accessions) expect(await page(a), a).toEqual(await expected(a));
    // Filed under two CIKs: both rows, on one page.
    const [{ a: shared }] = await app.services.lake.query('SELECT accession AS a FROM filings GROUP BY 1 HAVING count(*) > 1 ORDER BY 1 LIMIT 1');
    expect(await page(String(shared))).toHaveLength(2);
  });

  it('reads the indexes of the quarters holding its year only, and the data of the one holding it', async () => {
    const [newest, middle, oldest] = quarters;
    const [{ a: ofMiddle }] = await app.services.lake.query('SELECT min(accession) AS a FROM filings WHERE filed_quarter = $1', [quarterOf(middle)]);
    sql.length = 0;
    expect(await page(String(ofMiddle))).toEqual(await expected(String(ofMiddle)));
    expect(named(ACCESSION_INDEX)).toEqual([middle]);
    expect(named('data.parquet')).toEqual([middle]);

    // An accession of 2024 may be in the oldest quarter too (it holds one): both indexes are read, one quarter's data.
    const [{ a: ofNewest }] = await app.services.lake.query('SELECT min(accession) AS a FROM filings WHERE filed_quarter = $1', [quarterOf(newest)]);
    sql.length = 0;
    expect(await page(String(ofNewest))).toEqual(await expected(String(ofNewest)));
    expect(named(ACCESSION_INDEX)).toEqual([newest, oldest]);
    expect(named('data.parquet')).toEqual([newest]);
    sql.length = 0;
    expect(await page(ODD)).toHaveLength(1);
    expect(named('data.parquet')).toEqual([oldest]);

    // A year no quarter holds: no file is opened at all.
    sql.length = 0;
    expect(await page('0000320193-99-000001')).toEqual([]);
    expect(sql.filter((s) => s.includes('/filings/'))).toEqual([]);
  });

  it('a live append file’s filing is found whatever its year: no index covers the file', async () => {
    const middle = join(app.settings.lakeDir, 'filings', quarters[1]);
    const { instance, conn } = await openDuck();
    try {
      // A filing of a year no index holds (2021), appended to the middle quarter by the live lane.
      await conn.run(
        `COPY (SELECT * REPLACE ('0000000021-21-000001' AS accession) FROM read_parquet(${sqlString(join(middle, 'data.parquet'))}) LIMIT 1) ` +
          `TO ${sqlString(join(middle, 'part-live-000000000000001-test.parquet'))} (FORMAT parquet)`,
      );
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
    await app.services.lake.refresh();
    sql.length = 0;
    expect(await page('0000000021-21-000001')).toEqual(await expected('0000000021-21-000001'));
    expect(await expected('0000000021-21-000001')).toHaveLength(1);
    expect(named(ACCESSION_INDEX)).toEqual([quarters[1]]);
  });

  it('the year is the same in SQL, where each index’s years are read, and in JS, where a page’s is', async () => {
    const keys = ['0000320193-24-000123', '9999999997-05-000001', '000032019324000123', '0000320193-2-0001234', 'x0000320193-24-000123', ''];
    const { instance, conn } = await openDuck();
    try {
      for (const k of keys) {
        const [{ b }] = await queryRows(conn, `SELECT ${accessionYear.sql('$1::VARCHAR')} AS b`, [k]);
        expect(b ?? null, k).toBe(accessionYear.of(k));
      }
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
    expect(accessionYear.of('0000320193-24-000123')).toBe('24');
  });
});
