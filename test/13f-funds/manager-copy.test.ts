import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/harness.ts';
import holdings13fRoutes from '../../api/13f/routes.ts';
import dataset13f from '../../ingest/datasets/13f/dataset.ts';

/** `?manager=` pages read the manager-sorted copy: the same rows as holdings_13f, every one exactly once. */
describe('holdings_13f_by_manager', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ routes: holdings13fRoutes });
    // A fifth of the demo sample still has managers filing in several quarters; no test here reads events.
    await app.ingestSample(dataset13f, { scale: 0.2, skipDiff: true });
  });
  afterAll(() => app.close());

  it('holds exactly the rows of holdings_13f', async () => {
    const [a] = await app.services.lake.query(
      'SELECT count(*) AS n, sum(hash(accession_number, line_no, value_usd, shares, is_current)) AS h FROM holdings_13f',
    );
    const [b] = await app.services.lake.query(
      'SELECT count(*) AS n, sum(hash(accession_number, line_no, value_usd, shares, is_current)) AS h FROM holdings_13f_by_manager',
    );
    expect(Number(a.n)).toBeGreaterThan(0);
    expect(b).toEqual(a);
  });

  it('serves a manager page by page, newest quarter first then CUSIP order, every current line once', async () => {
    const [{ cik }] = await app.services.lake.query('SELECT manager_cik AS cik FROM holdings_13f WHERE is_current GROUP BY 1 ORDER BY count(*) DESC LIMIT 1');
    // The API record has no line number: compare the (accession, CUSIP, shares, value, discretion) multiset.
    const key = (r: any) => [r.accession_number, r.cusip, Number(r.shares), Number(r.value_usd), r.investment_discretion].join('|');
    const want = (
      await app.services.lake.query(
        'SELECT accession_number, cusip, shares, value_usd, investment_discretion FROM holdings_13f WHERE manager_cik = $1 AND is_current',
        [cik],
      )
    )
      .map(key)
      .sort();
    const got: string[] = [];
    const seq: string[] = [];
    let cursor: string | null = null;
    do {
      const r = await app.get(`/v1/holdings?manager=${Number(cik)}&limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(r.status).toBe(200);
      got.push(...r.body.data.map(key));
      seq.push(...r.body.data.map((d: any) => `${d.period}|${d.cusip}`));
      cursor = r.body.page.next_cursor;
    } while (cursor);
    expect(got.sort()).toEqual(want);
    // Quarters newest first across the pages, CUSIPs ascending inside a quarter.
    const byOrder = [...seq].sort((a, b) => {
      const [pa, ca] = a.split('|');
      const [pb, cb] = b.split('|');
      return pa !== pb ? (pa < pb ? 1 : -1) : ca < cb ? -1 : ca > cb ? 1 : 0;
    });
    expect(seq).toEqual(byOrder);
    expect(new Set(seq.map((x) => x.split('|')[0])).size).toBeGreaterThan(1);
  });
});
