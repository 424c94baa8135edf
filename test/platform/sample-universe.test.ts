import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ISSUER_COUNT } from '../../ingest/samples/universe.ts';
import { buildDemoLake } from '../support/demo-lake.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';

/**
 * The demo lake is one coherent universe (ingest/samples/universe.ts): cross-dataset joins behave like real data.
 * Ratios are measured on the demo lake itself (buildDemoLake: the samples, seed and scale of `make demo`), and the
 * README's analyst queries (the ```sql blocks of its "Analyst SQL" section) each return rows on it.
 */

const README = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'README.md');
const MIN_RESOLVED = 0.9;

let app: TestApp;
const one = async (sql: string) => (await app.services.lake.query(sql))[0];

beforeAll(async () => {
  app = await createTestApp({ routes: [] });
  await buildDemoLake(app.settings);
  // The app opened on an empty lake: its views take the demo lake in now rather than at the next catalog check.
  await app.services.lake.refresh();
}, 600_000);

afterAll(async () => {
  await app?.close();
});

describe('the demo sample universe', () => {
  it('the entity directory holds every listed issuer of the universe, with its ticker', async () => {
    const r = await one(`SELECT count(DISTINCT e.cik) AS n FROM entities e JOIN entity_tickers t ON t.cik = e.cik AND t.ticker = e.ticker`);
    expect(Number(r.n)).toBeGreaterThanOrEqual(ISSUER_COUNT);
  });

  it(`at least ${MIN_RESOLVED * 100}% of 13F holdings resolve to an entity of the directory`, async () => {
    const r = await one(`SELECT count(*) AS n, count(*) FILTER (WHERE issuer_cik IN (SELECT cik FROM entities)) AS resolved FROM holdings_13f`);
    expect(Number(r.n)).toBeGreaterThan(10_000);
    expect(Number(r.resolved) / Number(r.n)).toBeGreaterThanOrEqual(MIN_RESOLVED);
  });

  it(`at least ${MIN_RESOLVED * 100}% of N-PORT holdings resolve to an entity (ticker, or the CUSIP's 13F issuer)`, async () => {
    const r = await one(`
      SELECT count(*) AS n,
             count(*) FILTER (WHERE ticker IN (SELECT ticker FROM entity_tickers)
                              OR cusip IN (SELECT cusip FROM holdings_13f WHERE issuer_cik IS NOT NULL)) AS resolved
      FROM fund_holdings`);
    expect(Number(r.n)).toBeGreaterThan(1_000);
    expect(Number(r.resolved) / Number(r.n)).toBeGreaterThanOrEqual(MIN_RESOLVED);
  });

  it('every insider, Form 144 and 13D/G issuer and every event company is in the entity directory', async () => {
    const named = await app.services.lake.query(`
      SELECT 'insider' AS source, issuer_cik AS cik FROM insider_transactions
      UNION SELECT 'form144', issuer_cik FROM form144_notices
      UNION SELECT 'event ' || event_type, entity_cik FROM events WHERE entity_cik IS NOT NULL
      ORDER BY 1, 2`);
    expect(new Set(named.map((r) => String(r.source).split(' ')[0]))).toEqual(new Set(['insider', 'form144', 'event']));
    const directory = new Set((await app.services.lake.query('SELECT cik FROM entities')).map((r) => String(r.cik)));
    expect(named.filter((r) => !directory.has(String(r.cik))).map((r) => `${r.source}: ${r.cik}`)).toEqual([]);
  });

  it("the README's analyst queries return rows on the demo lake", async () => {
    const readme = readFileSync(README, 'utf8');
    const section = readme.slice(readme.indexOf('## Analyst SQL'), readme.indexOf('\n## ', readme.indexOf('## Analyst SQL') + 1));
    const queries = [...section.matchAll(/```sql\n([\s\S]*?)```/g)].map((m) => m[1]);
    expect(queries.length).toBeGreaterThanOrEqual(3);
    for (const q of queries) expect((await app.services.lake.query(q)).length, q).toBeGreaterThan(0);
  });
});
