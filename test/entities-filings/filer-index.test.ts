import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import datasetEntities from '../../ingest/datasets/entities/dataset.ts';
import datasetFilings from '../../ingest/datasets/filings/dataset.ts';
import { openDuck, sqlString } from '../../ingest/lake/duck.ts';
import { keyIndexFile } from '../../ingest/lake/key-index.ts';
import { filingsTable } from '../../schemas/tables/filings.ts';
import { addEarlierPartitions } from '../support/earlier-partitions.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { plainFilings } from '../support/plain-filings.ts';
import { logQueries } from '../support/query-log.ts';
import { pageAll } from '../support/page-all.ts';

/**
 * `/v1/filings?cik=` looks the filer up in each quarter's key index (TableSpec.keyIndexes, docs/layouts.md): the quarters
 * it did not file in are never opened, and the pages are the rows of the plain filter over every quarter, in order.
 */
const ONLY_OLDEST = '0009000001';

describe('a filer’s pages located by the key index', () => {
  let app: TestApp;
  let quarters: string[];
  let renamed: string;
  const sql: string[] = [];

  beforeAll(async () => {
    app = await createTestApp({ env: { METERING: 'off', RATE_LIMIT_RPS: '100000' } });
    await app.ingestSample(datasetEntities, { skipDiff: true });
    await app.ingestSample(datasetFilings, { skipDiff: true });
    [{ c: renamed }] = (await app.services.lake.query('SELECT min(cik) AS c FROM filings')) as { c: string }[];
    // The sample's quarter again one and two years earlier: about half of the filers left out of the middle one, and
    // the first filer of the oldest renamed to a CIK found nowhere else.
    quarters = await addEarlierPartitions(join(app.settings.lakeDir, 'filings'), filingsTable, 'filed_date', [
      { years: 1, where: 'hash(cik) % 2 = 0' },
      { years: 2, replace: { cik: `CASE WHEN cik = '${renamed}' THEN '${ONLY_OLDEST}' ELSE cik END` } },
    ]);
    await app.services.lake.refresh();
    logQueries(app.services.lake, sql);
  });
  afterAll(() => app?.close());

  const expected = (cik: string) => plainFilings(app.services.lake, 'cik = $1', [cik]);
  const ids = async (cik: string, limit: number, qs = `cik=${cik}`) => (await pageAll(app, '/v1/filings', { qs, limit })).map((d) => `${d.accession}/${d.cik}`);
  /** The filings of the CIKs that held a ticker, as the plain filter over every quarter finds them. */
  const ofTicker = (ticker: string) =>
    plainFilings(
      app.services.lake,
      `cik IN (SELECT cik FROM entity_tickers WHERE ticker = $1 UNION SELECT cik FROM entities WHERE list_contains(from_json(tickers, '["VARCHAR"]'), $1))`,
      [ticker],
    );
  const filingFiles = () => sql.filter((s) => s.includes('/filings/') && s.includes('data.parquet')).join('\n');

  it('every filer’s pages hold the plain filter’s rows in its order, at any page size', async () => {
    const ciks = (await app.services.lake.query('SELECT DISTINCT cik FROM filings ORDER BY cik')).map((r) => String(r.cik));
    expect(ciks).toContain(ONLY_OLDEST);
    for (const cik of ciks) {
      const want = await expected(cik);
      for (const limit of [2, 100]) expect(await ids(cik, limit), `${cik} limit ${limit}`).toEqual(want);
    }
  });

  it('a page opens only the quarters the filer filed in; an unknown filer opens none', async () => {
    sql.length = 0;
    const r = await app.get(`/v1/filings?cik=${ONLY_OLDEST}`);
    expect(r.status).toBe(200);
    expect(r.body.data.length).toBeGreaterThan(0);
    const reads = sql.filter((s) => s.includes('data.parquet'));
    expect(reads).toHaveLength(1);
    expect(reads[0]).toContain(`/${quarters.at(-1)}/`);
    for (const q of quarters.slice(0, -1)) expect(reads[0]).not.toContain(`/${q}/`);
    // A filer left out of the middle quarter: its page reads the newest and the oldest only.
    const [{ c: skipped }] = await app.services.lake.query(`SELECT min(cik) AS c FROM filings WHERE cik <> '${renamed}' AND hash(cik) % 2 = 1`);
    sql.length = 0;
    expect(await ids(String(skipped), 100)).toEqual(await expected(String(skipped)));
    const opened = sql.filter((s) => s.includes('data.parquet')).join('\n');
    expect(opened).not.toContain(`/${quarters[1]}/`);
    expect(opened).toContain(`/${quarters[0]}/`);
    expect(opened).toContain(`/${quarters[2]}/`);
    sql.length = 0;
    const none = await app.get('/v1/filings?cik=0000000001');
    expect(none.status).toBe(200);
    expect(none.body.data).toEqual([]);
    expect(sql.filter((s) => s.includes('data.parquet'))).toEqual([]);
    expect(sql.some((s) => s.includes(keyIndexFile('cik')))).toBe(true);
  });

  it('a ticker’s page looks its filers’ CIKs up in the index: the plain filter’s rows, only the quarters they filed in', async () => {
    const tickers = (await app.services.lake.query('SELECT DISTINCT ticker FROM entity_tickers WHERE cik IN (SELECT cik FROM filings) ORDER BY 1')).map((r) =>
      String(r.ticker),
    );
    expect(tickers.length).toBeGreaterThan(5);
    for (const t of tickers) for (const limit of [2, 100]) expect(await ids('', limit, `ticker=${t}`), `${t} limit ${limit}`).toEqual(await ofTicker(t));
    // A ticker whose filer is left out of the middle quarter: its page never opens that quarter's file.
    const [{ t: skipping }] = await app.services.lake.query(
      `SELECT min(ticker) AS t FROM entity_tickers WHERE cik IN (SELECT cik FROM filings) AND cik <> '${renamed}' AND hash(cik) % 2 = 1`,
    );
    sql.length = 0;
    expect(await ids('', 100, `ticker=${skipping}`)).toEqual(await ofTicker(String(skipping)));
    expect(filingFiles()).not.toContain(`/${quarters[1]}/`);
    expect(filingFiles()).toContain(`/${quarters[0]}/`);
    expect(sql.some((s) => s.includes(keyIndexFile('cik')))).toBe(true);
    // The filers are looked up once a request and bound: no read of a quarter runs the lookup again.
    sql.length = 0;
    expect((await app.get(`/v1/filings?ticker=${skipping}&limit=100`)).status).toBe(200);
    expect(sql.filter((s) => s.includes('entity_tickers'))).toHaveLength(1);
    expect(filingFiles()).toContain(`/${quarters[0]}/`);
    // An unknown ticker: an empty page, no file of the filing index opened.
    sql.length = 0;
    const none = await app.get('/v1/filings?ticker=ZZZZQ');
    expect(none.status).toBe(200);
    expect(none.body.data).toEqual([]);
    expect(filingFiles()).toBe('');
  });

  it('a ticker held by two filers over time finds both: every key of the ticker is looked up', async () => {
    const [a, b] = (await app.services.lake.query('SELECT DISTINCT cik FROM entity_tickers WHERE cik IN (SELECT cik FROM filings) ORDER BY 1 LIMIT 2')).map(
      (r) => String(r.cik),
    );
    const [{ t }] = await app.services.lake.query('SELECT min(ticker) AS t FROM entity_tickers WHERE cik = $1', [a]);
    const folder = (await readdir(join(app.settings.lakeDir, 'entity_tickers'))).find((f) => f === `ticker_initial=${String(t)[0]}`)!;
    const dir = join(app.settings.lakeDir, 'entity_tickers', folder);
    const { instance, conn } = await openDuck();
    try {
      // The live lane's kind of file: the ticker once held by the second filer, until 2020.
      await conn.run(
        `COPY (SELECT * REPLACE ('${b}' AS cik, DATE '2015-01-01' AS valid_from, DATE '2020-01-01' AS valid_to) ` +
          `FROM read_parquet(${sqlString(join(dir, 'data.parquet'))}) WHERE ticker = '${t}' LIMIT 1) ` +
          `TO ${sqlString(join(dir, 'part-live-000000000000001-test.parquet'))} (FORMAT parquet)`,
      );
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
    await app.services.lake.refresh();
    const want = await ofTicker(String(t));
    expect(new Set(want.map((id) => id.split('/')[1]))).toEqual(new Set([a, b]));
    for (const limit of [3, 100]) expect(await ids('', limit, `ticker=${t}`)).toEqual(want);
  });

  it('a ticker held by more filers than a page looks up walks without the index, to the same rows', async () => {
    const ciks = (await app.services.lake.query('SELECT DISTINCT cik FROM filings ORDER BY cik LIMIT 21')).map((r) => String(r.cik));
    expect(ciks).toHaveLength(21);
    const dir = join(app.settings.lakeDir, 'entity_tickers', 'ticker_initial=W');
    await mkdir(dir, { recursive: true });
    const { instance, conn } = await openDuck();
    try {
      await conn.run(
        `COPY (SELECT 'WIDE' AS ticker, cik, DATE '2001-01-01' + i::INTEGER AS valid_from, DATE '2025-01-01' AS last_seen ` +
          `FROM (SELECT unnest([${ciks.map(sqlString).join(', ')}]) AS cik, unnest(range(${ciks.length})) AS i)) ` +
          `TO ${sqlString(join(dir, 'part-live-000000000000001-test.parquet'))} (FORMAT parquet)`,
      );
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
    await app.services.lake.refresh();
    const want = await ofTicker('WIDE');
    expect(new Set(want.map((id) => id.split('/')[1]))).toEqual(new Set(ciks));
    sql.length = 0;
    expect(await ids('', 100, 'ticker=WIDE')).toEqual(want);
    expect(sql.some((s) => s.includes(keyIndexFile('cik')))).toBe(false);
  });
});
