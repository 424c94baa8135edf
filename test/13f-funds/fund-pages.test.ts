import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import nportRoutes from '../../api/nport/routes.ts';
import datasetNport from '../../ingest/datasets/nport/dataset.ts';
import { fundHoldings } from '../../schemas/tables/nport.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { logQueries } from '../support/query-log.ts';
import { generateNportDataSet } from '../bench/nport-ingest.bench.ts';
import { pageAll as walk } from '../support/page-all.ts';

/**
 * `/v1/funds/holdings` pages each quarter in its file's own order (docs/layouts.md): by CUSIP, series, accession and
 * holding, the order the writer sorts a quarter's file in, so a page's top-N stops within the first row groups that
 * hold enough matches instead of sorting every match of the quarter. The pages must be exactly the rows, in the order,
 * of the one SQL query over the view, through every filter, page size and quarter boundary, positions without a CUSIP
 * (NULL, last) included.
 */
const ORDER = 'report_quarter DESC, cusip ASC NULLS LAST, series_id ASC NULLS LAST, accession_number, holding_id';

describe('fund holdings pages in the file order', () => {
  let app: TestApp;
  const sql: string[] = [];
  beforeAll(async () => {
    app = await createTestApp({ routes: nportRoutes, env: { METERING: 'off', RATE_LIMIT_RPS: '100000' } });
    // A generated data set (one CUSIP in 33 reported as N/A) whose reports are moved to 2023 in part: two quarters.
    const gen = join(app.dataDir, 'gen');
    await generateNportDataSet(gen, 3000);
    const submission = join(gen, 'SUBMISSION.tsv');
    const lines = (await readFile(submission, 'utf8')).split('\n');
    await writeFile(submission, lines.map((l, i) => (i > 0 && i % 2 ? l.replace(/-2024\t/, '-2023\t') : l)).join('\n'));
    await app.ingest(datasetNport, { from: gen }, { skipDiff: true });
    await app.ingestSample(datasetNport, { seed: 3, scale: 0.3, skipDiff: true });
    logQueries(app.services.lake, sql, (s) => s.includes('fund_holdings'));
  });
  afterAll(() => app.close());

  async function pageAll(qs: string, limit: number): Promise<string[]> {
    const records = await walk(app, '/v1/funds/holdings', { qs, limit });
    return records.map((d: { accession_number: string; security: { cusip: string | null } }) => `${d.accession_number}/${d.security.cusip}`);
  }

  async function want(where: string, params: unknown[] = []): Promise<string[]> {
    const rows = await app.services.lake.query(`SELECT accession_number, cusip FROM fund_holdings WHERE is_current AND ${where} ORDER BY ${ORDER}`, params);
    return rows.map((r) => `${r.accession_number}/${r.cusip}`);
  }

  it('the page order is the file order: the table sorts each quarter by the columns the page orders it by', () => {
    const order = nportRoutes[0].kind === 'list' ? nportRoutes[0].orderBy.map((o) => o.column) : [];
    expect(order).toEqual([fundHoldings.partitionBy, ...fundHoldings.sortBy]);
  });

  it.each([
    ['no filter', '', 'true', [50, 100]],
    ['a fund', 'series_id=S000010004', "series_id = 'S000010004'", [13, 100]],
    ['a registrant', 'registrant_cik=800004', "registrant_cik = '0000800004'", [13, 100]],
    ['debt positions over a value', 'asset_category=DBT&min_value_usd=9000000', "asset_category = 'DBT' AND value_usd >= 9000000", [7, 100]],
  ])('%s: every row once, in the SQL order, at every page size', async (_name, qs, where, limits) => {
    const expected = await want(where);
    expect(expected.length).toBeGreaterThan(3);
    for (const limit of limits) expect(await pageAll(qs, limit), `limit ${limit}`).toEqual(expected);
  });

  it('a CUSIP held in both quarters: every row once, in the SQL order, at every page size', async () => {
    const [{ cusip }] = await app.services.lake.query(
      'SELECT cusip FROM fund_holdings WHERE is_current AND cusip IS NOT NULL GROUP BY cusip ' +
        'HAVING count(DISTINCT report_quarter) = 2 ORDER BY count(*) DESC, cusip LIMIT 1',
    );
    const expected = await want('cusip = $1', [cusip]);
    expect(expected.length).toBeGreaterThan(3);
    for (const limit of [1, 2, 100]) expect(await pageAll(`cusip=${cusip}`, limit), `limit ${limit}`).toEqual(expected);
  });

  it('pages cross the CUSIP-less positions (NULL, last in the quarter) and the quarters', async () => {
    const expected = await want('true');
    const nulls = expected.filter((k) => k.endsWith('/null')).length;
    expect(nulls).toBeGreaterThan(10);
    // The 2024Q4 quarter's last CUSIP, its NULLs, then 2023Q4: one walk at a page size that straddles both boundaries.
    expect(await pageAll('', 37)).toEqual(expected);
  });

  it("a page reads its quarter's file alone, ordered by the file's own columns", async () => {
    sql.length = 0;
    const r = await app.get('/v1/funds/holdings?series_id=S000010004&limit=5');
    expect(r.body.data).toHaveLength(5);
    expect(sql).toHaveLength(1);
    expect(sql[0]).toContain('"report_quarter" = $');
    expect(sql[0]).toMatch(/ORDER BY "cusip" ASC, "series_id" ASC, "accession_number" ASC, "holding_id" ASC LIMIT 6$/);
  });
});
