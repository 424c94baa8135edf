import { symlink, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { fixturePath, hasFixtures } from '../support/fixtures.ts';
import { resolveEntity, suggestEntity } from '../../api/entities/resolve.ts';
import entitiesRoutes from '../../api/entities/routes.ts';
import resolveEntityRoute from '../../api/entities/resolve-entity.ts';
import filingsRoutes from '../../api/filings/routes.ts';
import ntLateRoutes from '../../api/nt-late/routes.ts';
import datasetEntities from '../../ingest/datasets/entities/dataset.ts';
import datasetFilings from '../../ingest/datasets/filings/dataset.ts';
import { tempDir } from '../support/temp-dir.ts';

/** A folder of links to real fixtures (never copies in the repo). */
async function linkFolder(files: string[]): Promise<string> {
  const dir = tempDir('ef-fixtures-');
  for (const f of files) await symlink(fixturePath(f), join(dir, f.split('/').pop()!));
  return dir;
}

async function tickerSnapshot(pairs: [number, string, string][]): Promise<string> {
  const dir = tempDir('ef-tickers-');
  const doc: Record<string, unknown> = {};
  pairs.forEach(([cik, ticker, title], i) => {
    doc[String(i)] = { cik_str: cik, ticker, title };
  });
  await writeFile(join(dir, 'company_tickers.json'), JSON.stringify(doc));
  return dir;
}

describe.skipIf(!hasFixtures)('entities + filings over HTTP (real fixtures)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ routes: [...entitiesRoutes, resolveEntityRoute, ...filingsRoutes, ...ntLateRoutes] });
    const s = await app.ingest(datasetEntities, { from: fixturePath('xbrl-api'), date: '2024-01-02' }, { skipDiff: true });
    expect(s.badRows).toBe(0);
    const idx = await linkFolder([
      'index/daily-index_form.20200318.idx',
      'index/daily-index_master.20181231_excerpt.idx',
      'index/full-index_form_2021QTR1_excerpt.idx',
      'xbrl-api/submissions_CIK0000320193.json',
    ]);
    const f = await app.ingest(datasetFilings, { from: idx }, { skipDiff: true });
    expect(f.badRows).toBe(0);
  }, 120_000);
  afterAll(async () => {
    await app?.close();
  });

  it('GET /v1/entities?ticker=AAPL → Apple with history-bearing fields', async () => {
    const r = await app.get('/v1/entities?ticker=aapl');
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveLength(1);
    expect(r.body.data[0]).toMatchObject({
      cik: '0000320193',
      name: 'Apple Inc.',
      ticker: 'AAPL',
      tickers: ['AAPL'],
      exchanges: ['Nasdaq'],
      sic: '3571',
      sic_description: 'Electronic Computers',
      state_of_incorp: 'CA',
      fiscal_year_end: '0930',
      entity_type: 'operating',
      detail_source: 'submissions',
    });
    expect(r.body.data[0].former_names).toContainEqual({ name: 'APPLE COMPUTER INC', from: '1994-01-26', to: '2007-01-04' });
  });

  it('filters: cik without zeros, q over former names, sic, state_of_incorp, entity_type', async () => {
    expect((await app.get('/v1/entities?cik=320193')).body.data[0].cik).toBe('0000320193');
    expect((await app.get('/v1/entities?q=apple%20computer')).body.data.map((e: { cik: string }) => e.cik)).toContain('0000320193');
    const sic = await app.get('/v1/entities?sic=3571&state_of_incorp=ca');
    expect(sic.body.data.map((e: { cik: string }) => e.cik)).toEqual(['0000320193']);
    const ind = await app.get('/v1/entities?entity_type=other&cik=1462356');
    expect(ind.body.data[0]).toMatchObject({ cik: '0001462356', tickers: [] });
  });

  it('ticker-only CIKs come from the ticker files (MSFT)', async () => {
    const r = await app.get('/v1/entities?ticker=MSFT');
    expect(r.body.data[0]).toMatchObject({ cik: '0000789019', name: 'MICROSOFT CORP', detail_source: 'company_tickers', exchanges: ['Nasdaq'] });
  });

  it('422 on malformed parameters', async () => {
    const r = await app.get('/v1/entities?cik=12ab');
    expect(r.status).toBe(422);
    expect(r.body.detail[0].loc).toEqual(['query', 'cik']);
    expect((await app.get('/v1/entities?sic=abc')).status).toBe(422);
  });

  it('resolve: ticker, padded/unpadded CIK, current and former names, share-class dot form', async () => {
    const s = app.services;
    expect(await resolveEntity(s, 'AAPL')).toEqual({ cik: '0000320193', name: 'Apple Inc.', ticker: 'AAPL', confidence: 1 });
    expect((await resolveEntity(s, '320193'))?.cik).toBe('0000320193');
    expect((await resolveEntity(s, 'CIK0000320193'))?.cik).toBe('0000320193');
    expect(await resolveEntity(s, 'apple inc')).toMatchObject({ cik: '0000320193', confidence: 1 });
    expect(await resolveEntity(s, 'Apple Computer, Inc.')).toMatchObject({ cik: '0000320193', confidence: 0.95 });
    expect((await resolveEntity(s, 'BRK.B'))?.cik).toBe('0001067983');
    expect(await resolveEntity(s, 'ZZZZZZ-NOT-A-COMPANY')).toBeNull();
  });

  it('unresolvable identifier → 404 entity_unresolved with a suggestion', async () => {
    const r = await app.get('/v1/entities/APPL');
    expect(r.status).toBe(404);
    expect(JSON.stringify(r.body)).toContain('entity_unresolved');
    expect(JSON.stringify(r.body)).toMatch(/Did you mean/);
    expect(await suggestEntity(app.services, 'APPL')).toMatchObject({ ticker: expect.stringMatching(/^(AAPL|APP|APPN|APPF|APPS)$/) });
  });

  it('GET /v1/entities/{identifier} returns name and ticker history', async () => {
    const r = await app.get('/v1/entities/0000320193');
    expect(r.status).toBe(200);
    expect(r.body.data[0]).toMatchObject({ cik: '0000320193', match_confidence: 1 });
    expect(r.body.data[0].name_history[0]).toEqual({ name: 'Apple Inc.', valid_from: '2019-08-05', valid_to: null, is_current: true });
    expect(r.body.data[0].ticker_history).toContainEqual({ ticker: 'AAPL', exchange: 'Nasdaq', valid_from: '2024-01-02', valid_to: null });
  });

  it('GET /v1/filings: index + submissions merged for Apple, items split', async () => {
    const r = await app.get('/v1/filings?cik=320193&form_type=8-k&limit=3');
    expect(r.status).toBe(200);
    expect(r.body.data.length).toBeGreaterThan(0);
    const f = r.body.data[0];
    expect(f).toMatchObject({ cik: '0000320193', form: '8-K', detail_source: 'submissions' });
    expect(f.items.length).toBeGreaterThan(0);
    expect(f.urls.index).toMatch(/^https:\/\/www\.sec\.gov\/Archives\/edgar\/data\/320193\/\d{18}\/\d{10}-\d{2}-\d{6}-index\.htm$/);
  });

  it('GET /v1/filings by accession (undashed), date range, newest first', async () => {
    const r = await app.get('/v1/filings?accession=000137633920000010');
    expect(r.body.data).toEqual([
      expect.objectContaining({
        accession: '0001376339-20-000010',
        cik: '0001376339',
        company: 'MIMEDX GROUP, INC.',
        form: 'NT 10-K',
        filed_date: '2020-03-18',
        detail_source: 'index',
      }),
    ]);
    const d = await app.get('/v1/filings?filed_from=2018-12-31&filed_to=2018-12-31&limit=100');
    expect(d.body.data).toHaveLength(10);
    const days = (await app.get('/v1/filings?filed_from=2018-01-01&limit=50')).body.data.map((x: { filed_date: string }) => x.filed_date);
    expect([...days].sort().reverse()).toEqual(days);
  });

  it('GET /v1/filings: 422 on 2024-13-01 and on filed_from > filed_to', async () => {
    const bad = await app.get('/v1/filings?filed_from=2024-13-01');
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['query', 'filed_from']);
    const range = await app.get('/v1/filings?filed_from=2024-02-01&filed_to=2024-01-01');
    expect(range.status).toBe(422);
    expect(range.body.detail[0].loc).toEqual(['query', 'filed_to']);
  });

  it('GET /v1/filings: paging with cursor reaches every 2018-12-31 row exactly once', async () => {
    const seen: string[] = [];
    let url = '/v1/filings?filed_from=2018-12-31&filed_to=2018-12-31&limit=3';
    for (let i = 0; i < 10; i++) {
      const r = await app.get(url);
      seen.push(...r.body.data.map((x: { accession: string; cik: string }) => `${x.accession}|${x.cik}`));
      if (!r.body.page.next_cursor) break;
      url = `/v1/filings?filed_from=2018-12-31&filed_to=2018-12-31&limit=3&cursor=${encodeURIComponent(r.body.page.next_cursor)}`;
    }
    expect(seen).toHaveLength(10);
    expect(new Set(seen).size).toBe(10);
  });

  it('GET /v1/filings: sic / state_of_incorp / is_xbrl / ticker / items filters', async () => {
    const sic = await app.get('/v1/filings?sic=3571&limit=100');
    expect(sic.body.data.every((x: { cik: string }) => x.cik === '0000320193')).toBe(true);
    expect(sic.body.data.length).toBeGreaterThan(0);
    const x = await app.get('/v1/filings?ticker=AAPL&is_xbrl=true&limit=100');
    expect(x.body.data.every((f: { is_xbrl: boolean }) => f.is_xbrl)).toBe(true);
    const items = await app.get('/v1/filings?items=2.02&limit=100');
    expect(items.body.data.every((f: { items: string[] }) => f.items.includes('2.02'))).toBe(true);
    const empty = await app.get('/v1/filings?state_of_incorp=ZZ');
    expect(empty.body.data).toEqual([]);
    expect(empty.body.warnings[0].code).toBe('empty_result');
  });

  it('GET /v1/nt-late from the index: late_for_form and form_type filters', async () => {
    const r = await app.get('/v1/nt-late?late_for_form=10-k&filing_date_from=2020-03-18&filing_date_to=2020-03-18');
    expect(r.status).toBe(200);
    const forms = r.body.data.map((x: { form_type: string }) => x.form_type).sort();
    expect(forms).toEqual(['NT 10-K', 'NT 10-K/A']);
    expect(r.body.data.find((x: { form_type: string }) => x.form_type === 'NT 10-K')).toMatchObject({
      filer_cik: '0001376339',
      filer_name: 'MIMEDX GROUP, INC.',
      late_for_form: '10-K',
      is_amendment: false,
      filing_date: '2020-03-18',
    });
    const q = await app.get('/v1/nt-late?form_type=NT%2010-Q/A&filer_cik=1190370');
    expect(q.body.data).toEqual([expect.objectContaining({ accession: '0001731122-20-000278', late_for_form: '10-Q', is_amendment: true })]);
    expect((await app.get('/v1/nt-late?filing_date_from=2020-02-30')).status).toBe(422);
  });
});

describe('ticker history over HTTP (snapshots written by the test)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ routes: [...entitiesRoutes, resolveEntityRoute, ...filingsRoutes, ...ntLateRoutes] });
    await app.ingest(
      datasetEntities,
      {
        from: await tickerSnapshot([
          [1001, 'OLDT', 'Old Holder Corp'],
          [1002, 'KEEP', 'Keeper Inc'],
        ]),
        date: '2022-01-03',
      },
      { skipDiff: true },
    );
    await app.ingest(
      datasetEntities,
      {
        from: await tickerSnapshot([
          [1003, 'OLDT', 'New Holder Inc'],
          [1002, 'KEEP', 'Keeper Inc'],
        ]),
        date: '2023-06-01',
      },
      { skipDiff: true },
    );
  }, 60_000);
  afterAll(async () => {
    await app?.close();
  });

  it('a ticker that moved resolves by date; without a date to its current holder', async () => {
    expect(await resolveEntity(app.services, 'OLDT', { date: '2022-05-01' })).toMatchObject({ cik: '0000001001', name: 'Old Holder Corp', confidence: 0.95 });
    expect(await resolveEntity(app.services, 'OLDT')).toMatchObject({ cik: '0000001003', name: 'New Holder Inc', confidence: 1 });
    const r = await app.get('/v1/entities/OLDT?date=2022-05-01');
    expect(r.body.data[0].cik).toBe('0000001001');
    expect(r.body.data[0].ticker_history).toEqual([{ ticker: 'OLDT', exchange: null, valid_from: '2022-01-03', valid_to: '2023-06-01' }]);
    expect((await app.get('/v1/entities/OLDT?date=2022-13-01')).status).toBe(422);
  });

  it('entities?ticker= finds both holders (history)', async () => {
    const r = await app.get('/v1/entities?ticker=OLDT');
    expect(r.body.data.map((e: { cik: string }) => e.cik)).toEqual(['0000001001', '0000001003']);
  });
});
void mkdir;
