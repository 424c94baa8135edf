import { createServer, type Server } from 'node:http';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { fixturePath, hasFixtures } from '../support/fixtures.ts';
import filingsRoutes from '../../api/filings/routes.ts';
import eventsRoutes from '../../api/events/routes.ts';
import companyFactsRoute from '../../api/financials/company-facts.ts';
import datasetFilings from '../../ingest/datasets/filings/dataset.ts';
import { tempDir } from '../support/temp-dir.ts';

/** A loopback stand-in for www.sec.gov serving real index files at their real paths; anything else → 403 (S3 style). */
async function fakeSec(routes: Record<string, string>): Promise<{ url: string; hits: string[]; close: () => Promise<void> }> {
  const hits: string[] = [];
  const server: Server = createServer(async (req, res) => {
    hits.push(req.url ?? '');
    const file = routes[req.url ?? ''];
    if (!file) {
      res.writeHead(403, { 'content-type': 'application/xml' });
      res.end('<Error><Code>AccessDenied</Code></Error>');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(await readFile(file));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}`, hits, close: () => new Promise((r) => server.close(() => r())) };
}

describe.skipIf(!hasFixtures)('filings lanes', () => {
  let app: TestApp;
  let sec: Awaited<ReturnType<typeof fakeSec>>;
  beforeAll(async () => {
    sec = await fakeSec({ '/Archives/edgar/daily-index/2018/QTR4/master.20181231.idx': fixturePath('index/daily-index_master.20181231_excerpt.idx') });
    app = await createTestApp({ routes: [...filingsRoutes, ...eventsRoutes, companyFactsRoute], env: { SEC_BASE_URL: sec.url, SEC_DATA_BASE_URL: sec.url } });
  });
  afterAll(async () => {
    await app?.close();
    await sec?.close();
  });

  it("--date downloads that day's daily master.idx and merges it into the quarter", async () => {
    const s = await app.ingest(datasetFilings, { date: '2018-12-31' });
    expect(s.badRows).toBe(0);
    expect(s.rowsWritten).toBe(10);
    expect(sec.hits).toContain('/Archives/edgar/daily-index/2018/QTR4/master.20181231.idx');
    const r = await app.get('/v1/filings?cik=1000694');
    expect(r.body.data).toEqual([
      expect.objectContaining({
        accession: '0001144204-18-066755',
        company: 'NOVAVAX INC',
        form: '8-K',
        filed_date: '2018-12-31',
        items: [],
        detail_source: 'index',
      }),
    ]);
  });

  it('a weekend day without a daily index (403) is no input, not a failure', async () => {
    const s = await app.ingest(datasetFilings, { date: '2018-12-29' });
    expect(s.rowsWritten).toBe(0);
  });

  it("the nightly submissions lane enriches the day's rows, and a re-run of the index keeps the enrichment", async () => {
    // Submissions JSON written in the real columnar shape for the Novavax 8-K of the index above.
    const dir = tempDir('ef-subs-');
    const recent = {
      accessionNumber: ['0001144204-18-066755'],
      filingDate: ['2018-12-31'],
      reportDate: ['2018-12-28'],
      acceptanceDateTime: ['2018-12-31T16:05:12.000Z'],
      act: ['34'],
      form: ['8-K'],
      fileNumber: ['000-26770'],
      filmNumber: ['181265301'],
      items: ['5.02,9.01'],
      size: [283421],
      isXBRL: [0],
      isInlineXBRL: [0],
      primaryDocument: ['tv510077_8k.htm'],
      primaryDocDescription: ['FORM 8-K'],
    };
    await writeFile(
      join(dir, 'CIK0001000694.json'),
      JSON.stringify({ cik: '1000694', name: 'Novavax Inc', tickers: ['NVAX'], exchanges: ['Nasdaq'], filings: { recent, files: [] } }),
    );
    await app.ingest(datasetFilings, { from: dir });
    const enriched = (await app.get('/v1/filings?cik=1000694')).body.data[0];
    expect(enriched).toMatchObject({
      company: 'NOVAVAX INC',
      items: ['5.02', '9.01'],
      report_date: '2018-12-28',
      acceptance_datetime: '2018-12-31T16:05:12',
      size: 283421,
      detail_source: 'index+submissions',
    });
    expect(enriched.urls.primary_document).toBe('https://www.sec.gov/Archives/edgar/data/1000694/000114420418066755/tv510077_8k.htm');

    await app.ingest(datasetFilings, { date: '2018-12-31' });
    const again = (await app.get('/v1/filings?cik=1000694')).body.data;
    expect(again).toHaveLength(1);
    expect(again[0]).toMatchObject({ items: ['5.02', '9.01'], detail_source: 'index+submissions' });
    // Other rows of the day are untouched by the merge.
    expect((await app.get('/v1/filings?filed_from=2018-12-31&filed_to=2018-12-31&limit=100')).body.data).toHaveLength(10);
  });

  it('the 8-K item event is drafted from the enriched row', async () => {
    const ev = await app.get('/v1/events?event_type=sec.8k.executive_change');
    expect(ev.status).toBe(200);
    expect(ev.body.data.map((e: { accession: string }) => e.accession)).toContain('0001144204-18-066755');
  });

  it('/v1/financials/{cik}: a well-formed CIK nobody knows → 404 entity_unresolved', async () => {
    const r = await app.get('/v1/financials/9999999');
    expect(r.status).toBe(404);
    expect(JSON.stringify(r.body)).toContain('entity_unresolved');
  });
});
