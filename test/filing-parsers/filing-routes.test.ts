import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/harness.ts';
import { hasFixtures } from '../support/fixtures.ts';
import filingParsersRoutes from '../../api/filing-parsers/routes.ts';
import { startAppOverArchive, type Upstream } from './upstream-server.ts';

describe.skipIf(!hasFixtures)('per-filing endpoints over real HTTP against the local archive', () => {
  let up: Upstream;
  let app: TestApp;

  beforeAll(async () => {
    ({ up, app } = await startAppOverArchive(filingParsersRoutes));
  });
  afterAll(async () => {
    await app?.close();
    await up?.close();
  });

  it('documents: from the filing index page (Nordstrom 8-K), direct URLs, sizes, types', async () => {
    const r = await app.get('/v1/filings/0000072333-23-000015/documents');
    expect(r.status).toBe(200);
    expect(r.body.query_echo).toMatchObject({ accession: '0000072333-23-000015', form: '8-K', manifest_source: 'index' });
    // as_of is the acceptance time in ISO 8601 UTC (the index page prints it in US Eastern time).
    expect(r.body.as_of).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    const byName = Object.fromEntries(r.body.data.map((d: any) => [d.file_name, d]));
    expect(byName['jwn-20230301.htm']).toEqual({
      sequence: 1,
      type: '8-K',
      description: 'FORM 8-K',
      file_name: 'jwn-20230301.htm',
      size: 42796,
      url: `${up.url}/Archives/edgar/data/72333/000007233323000015/jwn-20230301.htm`,
    });
    expect(byName['jwn-20230301_g1.jpg']).toMatchObject({ sequence: 7, type: 'GRAPHIC', size: 47121 });
    expect(byName['0000072333-23-000015.txt']).toMatchObject({ sequence: null, description: 'Complete submission text file', size: 375003 });
    expect(r.headers.get('x-credits-charged')).toBe('10');
  });

  it('documents: from the full submission when the index page is missing (BlackRock, agent-filed: cik hint)', async () => {
    const r = await app.get('/v1/filings/000119312523048785/documents?cik=1364742');
    expect(r.status).toBe(200);
    expect(r.body.query_echo.manifest_source).toBe('submission');
    expect(r.body.data[0]).toMatchObject({ sequence: 1, type: '8-K', file_name: 'd435686d8k.htm' });
    expect(r.body.data.map((d: any) => d.type)).toContain('EX-101.SCH');
  });

  it('documents: agent-filed accession without a cik and no filing index in the lake is 404 with a hint', async () => {
    const r = await app.get('/v1/filings/0000950137-05-004969/documents');
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe('not_found');
    expect(r.body.error.message).toMatch(/pass `cik`/);
  });

  it('documents: uuencoded graphics and .nc dissemination files (Acorn Energy)', async () => {
    const r = await app.get('/v1/filings/0001493152-25-001317/documents?cik=880984');
    expect(r.status).toBe(200);
    const zip = r.body.data.find((d: any) => d.type === 'ZIP');
    expect(zip).toMatchObject({ file_name: '0001493152-25-001317-xbrl.zip', sequence: 15 });
    expect(zip.size).toBeGreaterThan(10_000);
  });

  it('second request for a filing does no network I/O (disk cache by accession)', async () => {
    await app.get('/v1/filings/0001628280-25-058337/events?cik=1326801');
    const before = up.stats.requests;
    const again = await app.get('/v1/filings/0001628280-25-058337/events?cik=1326801');
    const docs = await app.get('/v1/filings/0001628280-25-058337/documents?cik=1326801');
    expect(again.status).toBe(200);
    expect(docs.status).toBe(200);
    expect(up.stats.requests).toBe(before);
  });

  it('extract: 10-K Item 1A from a directory-only filing (form read from the cover page)', async () => {
    const r = await app.get('/v1/filings/0000320193-24-000123/extract?item=1A');
    expect(r.status).toBe(200);
    const rec = r.body.data[0];
    expect(rec).toMatchObject({ form: '10-K', item: '1A', part: 'I', title: 'Risk Factors', heading: 'Item 1A. Risk Factors', document: 'aapl-20240928.htm' });
    expect(rec.text.startsWith('The Company’s business, reputation, results of operations')).toBe(true);
    expect(rec.text.endsWith('on investor confidence and employee retention.')).toBe(true);
    expect(Number(r.headers.get('x-credits-charged'))).toBeGreaterThan(10);
  });

  it('extract: variants of the item parameter and the 422/404 split', async () => {
    expect((await app.get('/v1/filings/0000320193-24-000123/extract?item=item%207A')).body.data[0].item).toBe('7A');
    const bad = await app.get('/v1/filings/0000320193-24-000123/extract?item=5.02');
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['query', 'item']);
    const missing = await app.get('/v1/filings/0000320193-24-000123/extract?item=II-1A');
    expect(missing.status).toBe(422);
    const absent = await app.get('/v1/filings/0000066740-24-000023/extract?item=5.02');
    expect(absent.status).toBe(404);
    expect(absent.body.error.code).toBe('not_found');
    const noItem = await app.get('/v1/filings/0000320193-24-000123/extract');
    expect(noItem.status).toBe(422);
  });

  it('extract: 8-K item from a full submission (3M Item 8.01)', async () => {
    const r = await app.get('/v1/filings/0000066740-24-000023/extract?item=8.01');
    expect(r.status).toBe(200);
    expect(r.body.data[0]).toMatchObject({ form: '8-K', item: '8.01', title: 'Other Events' });
  });

  it('extract: legacy 10-Q whose documents live only in the .txt (Apple 2000)', async () => {
    const r = await app.get('/v1/filings/0000912057-00-023442/extract?item=2&cik=320193');
    expect(r.status).toBe(200);
    expect(r.body.data[0]).toMatchObject({ form: '10-Q', item: 'I-2', part: 'I' });
    expect(r.body.data[0].word_count).toBeGreaterThan(1000);
  });

  it('events: items of an 8-K with canonical titles and excerpts (Nordstrom)', async () => {
    const r = await app.get('/v1/filings/0000072333-23-000015/events');
    expect(r.status).toBe(200);
    expect(r.body.data.map((e: any) => e.item)).toEqual(['5.02', '9.01']);
    expect(r.body.data[1]).toMatchObject({ title: 'Financial Statements and Exhibits', detected_from: 'document' });
    expect(r.body.data[0].excerpt).toMatch(/^e\) Compensatory Arrangements of Certain Officers/);
  });

  it('events: 422 for a filing that is not an 8-K', async () => {
    const r = await app.get('/v1/filings/0000320193-22-000061/events?cik=1462356');
    expect(r.status).toBe(422);
    expect(r.body.detail[0].loc).toEqual(['path', 'accession']);
  });

  it('insiders: Form 4 full submission through the shared ownership parser (Apple / Adams)', async () => {
    const r = await app.get('/v1/filings/0000320193-22-000061/insiders?cik=1462356');
    expect(r.status).toBe(200);
    const rec = r.body.data[0];
    expect(rec.issuer).toEqual({ cik: '0000320193', name: 'Apple Inc.', ticker: 'AAPL' });
    expect(rec.owners[0]).toMatchObject({ cik: '0001462356', name: 'Adams Katherine L.', relationships: ['Officer'] });
    expect(rec.transactions.filter((t: any) => t.trans_code === 'S')).toHaveLength(7);
    expect(rec.signatures).toEqual([{ name: '/s/ Sam Whittington, Attorney-in-Fact for Katherine L. Adams', date: '2022-05-06' }]);
    // The submission header's ACCEPTANCE-DATETIME 20220506183057 is US Eastern (daylight) time.
    expect(r.body.as_of).toBe('2022-05-06T22:30:57Z');
  });

  it('insiders: .nc dissemination Form 4 (2seventy bio)', async () => {
    const r = await app.get('/v1/filings/0001562180-25-000280/insiders?cik=1860782');
    expect(r.status).toBe(200);
    expect(r.body.data[0].issuer.cik).toBe('0001860782');
    expect(r.body.data[0].transactions.length).toBeGreaterThan(0);
  });

  it('subsidiaries: Exhibit 21.1 inside a submission (Tesla, "Name (Jurisdiction)" lines)', async () => {
    const r = await app.get('/v1/filings/0001564590-20-004475/subsidiaries?cik=1318605');
    expect(r.status).toBe(200);
    expect(r.body.data[0]).toMatchObject({ exhibit: 'EX-21.1', subsidiary_count: 2 });
    expect(r.body.data[0].subsidiaries[1]).toEqual({
      name: 'Tesla Motors Netherlands B.V.',
      jurisdiction: 'Netherlands',
      ownership_percent: null,
      level: 0,
      parent: null,
    });
    expect(r.body.data[0].raw_text).toContain('Subsidiaries of Tesla, Inc.');
  });

  it('subsidiaries: 404 when the filing has no Exhibit 21', async () => {
    const r = await app.get('/v1/filings/0000066740-24-000023/subsidiaries');
    expect(r.status).toBe(404);
  });

  it('wrong accession format is 422 naming the parameter', async () => {
    const r = await app.get('/v1/filings/12345/documents');
    expect(r.status).toBe(422);
    expect(r.body.detail[0].loc).toEqual(['path', 'accession']);
  });

  it('unknown accession is 404 not_found', async () => {
    const r = await app.get('/v1/filings/0000320193-99-999999/documents');
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe('not_found');
  });

  it('upstream outage is 502 and a hung upstream is 504, both quickly', async () => {
    up.mode = 'down';
    try {
      const r = await app.get('/v1/filings/0000320193-24-000124/documents');
      expect(r.status).toBe(502);
      expect(r.body.error.code).toBe('upstream_unavailable');
      expect(r.headers.get('x-credits-charged')).toBe('0');
      up.mode = 'slow';
      const before = up.stats.requests;
      const s = await app.get('/v1/filings/0000320193-24-000125/documents');
      expect(s.status).toBe(504);
      expect(s.body.error.code).toBe('upstream_timeout');
      // Quickly: the attempt and its one live retry, each cut off by the 1 s timeout, then the answer (no waiting out
      // the upstream, no further fallbacks). Counted, not timed, so a loaded machine cannot fail it.
      expect(up.stats.paths.slice(before)).toEqual(Array(2).fill('/Archives/edgar/data/320193/000032019324000125/0000320193-24-000125-index.htm'));
    } finally {
      up.mode = 'ok';
    }
  });
});
