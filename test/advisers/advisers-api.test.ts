import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { pageAll } from '../support/page-all.ts';
import { fixturePath, hasFixtures } from '../support/fixtures.ts';
import { writeRosterSample } from '../../ingest/datasets/advisers/sample.ts';
import { sampleFirms } from '../../ingest/samples/firms.ts';
import advisersRoutes from '../../api/advisers/routes.ts';
import datasetAdvisers from '../../ingest/datasets/advisers/dataset.ts';

/** End to end: demo roster zips → ingest → lake → HTTP. Expected values come from the generator's firms. */
describe('GET /v1/advisers and /v1/advisers/{crd}', () => {
  let app: TestApp;
  const firms = sampleFirms(7, 1);
  beforeAll(async () => {
    app = await createTestApp({ routes: advisersRoutes });
    // An older month first: the list must serve only the newest snapshot.
    const old = join(app.dataDir, 'old');
    await writeRosterSample(old, { seed: 99, scale: 0.1 }, '2026-06-01');
    await app.ingest(datasetAdvisers, { from: old }, { skipDiff: true });
    const summary = await app.ingestSample(datasetAdvisers, { seed: 7, skipDiff: true });
    expect(summary.badRows).toBe(0);
    expect(summary.rowsWritten).toBe(400);
  });
  afterAll(() => app?.close());

  const all = (qs: string) => pageAll(app, '/v1/advisers', { qs });

  it('serves the newest snapshot, AUM desc then CRD, with the envelope and as_of = snapshot date', async () => {
    const r = await app.get('/v1/advisers?limit=5');
    expect(r.status).toBe(200);
    expect(r.body.as_of).toBe('2026-07-01T00:00:00Z');
    expect(r.body.source).toBe('sec_form_adv');
    expect(r.body.page).toMatchObject({ limit: 5, has_more: true });
    const top = [...firms].filter((f) => f.aum != null).sort((a, b) => b.aum! - a.aum! || a.crd - b.crd)[0];
    expect(r.body.data[0]).toMatchObject({
      crd: String(top.crd),
      business_name: top.business,
      legal_name: top.legal,
      regulatory_aum_total: top.aum,
      snapshot_date: '2026-07-01',
      source_url: `https://adviserinfo.sec.gov/firm/summary/${top.crd}`,
      address: { street1: top.street1, city: top.city, state: top.state, postal_code: top.postal, country: top.country },
    });
    const every = await all('');
    expect(every).toHaveLength(400);
    for (let i = 1; i < every.length; i++) {
      const a = every[i - 1].regulatory_aum_total ?? -1;
      const b = every[i].regulatory_aum_total ?? -1;
      expect(a > b || (a === b && Number(every[i - 1].crd) < Number(every[i].crd))).toBe(true);
    }
    // Exempt-reporting advisers (no AUM) page last.
    expect(every.at(-1).regulatory_aum_total).toBeNull();
  });

  it('filters: aum range, state (lower case accepted), has_private_funds, disciplinary, q', async () => {
    const want = firms.filter((f) => f.aum != null && f.aum >= 1e9 && f.aum <= 5e10 && f.state === 'NY' && f.hasPrivateFunds && !f.disciplinary);
    const got = await all('aum_min=1000000000&aum_max=50000000000&state=ny&has_private_funds=true&disciplinary=false');
    expect(got.map((d) => d.crd).sort()).toEqual(want.map((f) => String(f.crd)).sort());
    expect(got.length).toBeGreaterThan(0);
    const disc = await all('disciplinary=true');
    expect(disc.map((d) => d.crd).sort()).toEqual(
      firms
        .filter((f) => f.disciplinary)
        .map((f) => String(f.crd))
        .sort(),
    );
    const q = await all('q=%C3%A9toile'); // "étoile", case-insensitive, matches L’ÉTOILE names
    expect(q.length).toBe(firms.filter((f) => f.business.includes('ÉTOILE')).length);
    expect(q.length).toBeGreaterThan(0);
  });

  it('no match is 200 with an empty_result warning', async () => {
    const r = await app.get('/v1/advisers?q=zzzz-no-such-firm');
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual([]);
    expect(r.body.warnings[0].code).toBe('empty_result');
  });

  it.each([
    ['aum_min=5&aum_max=4', 'aum_max', 'value_error'],
    ['aum_min=-1', 'aum_min', 'greater_than_equal'],
    ['aum_max=1.5', 'aum_max', 'int_parsing'],
    ['state=NYC', 'state', 'string_pattern_mismatch'],
    ['has_private_funds=maybe', 'has_private_funds', 'bool_parsing'],
    ['limit=101', 'limit', 'less_than_equal'],
  ])('422 on %s', async (qs, param, type) => {
    const r = await app.get(`/v1/advisers?${qs}`);
    expect(r.status).toBe(422);
    expect(r.body.detail[0]).toMatchObject({ loc: ['query', param], type });
  });

  it('profile: the fuller record, page.limit 1, query_echo with the crd, leading zeros ignored', async () => {
    const f = firms.find((x) => !x.exempt && x.website && x.cik)!;
    const r = await app.get(`/v1/advisers/00${f.crd}`);
    expect(r.status).toBe(200);
    expect(r.body.page).toEqual({ limit: 1, next_cursor: null, has_more: false });
    expect(r.body.query_echo.crd).toBe(`00${f.crd}`);
    const d = r.body.data[0];
    expect(d).toMatchObject({
      crd: String(f.crd),
      legal_name: f.legal,
      sec_number: f.secNumber,
      registration_type: 'registered',
      disciplinary: f.disciplinary,
      regulatory_aum_total: f.aum,
      raum_discretionary: f.discretionary,
      employees: f.employees,
      cik: f.cik!.padStart(10, '0'),
      websites: [f.website],
      latest_filing_date: f.filed,
      has_private_funds: f.hasPrivateFunds,
    });
    expect(d.address.street2 ?? '').toBe(f.street2);
    expect(Array.isArray(d.client_types)).toBe(true);
  });

  it('unknown CRD → 404 not_found; malformed CRD → 422', async () => {
    const r = await app.get('/v1/advisers/999999999');
    expect(r.status).toBe(404);
    expect(JSON.stringify(r.body)).toContain('not_found');
    const bad = await app.get('/v1/advisers/ABC');
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['path', 'crd']);
  });
});

describe.skipIf(!hasFixtures)('GET /v1/advisers over the real IAPD firm-search fixture', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ routes: advisersRoutes });
    const s = await app.ingest(datasetAdvisers, { from: fixturePath('adv/iapd_api_firm_search_citadel_2026-07-21.json') }, { skipDiff: true });
    expect(s.rowsWritten).toBe(3);
  });
  afterAll(() => app?.close());

  it('state, q and disciplinary filters and the profile serve the real values', async () => {
    const fl = await app.get('/v1/advisers?state=fl');
    expect(fl.body.as_of).toBe('2026-07-21T00:00:00Z');
    expect(fl.body.data.map((d: any) => d.crd)).toEqual(['148826', '171898']);
    const q = await app.get('/v1/advisers?q=citadel&disciplinary=false');
    // no AUM in search results: CRD order
    expect(q.body.data.map((d: any) => d.business_name)).toEqual(['CITADEL INVESTMENT ADVISORY INC', 'CITADEL ADVISORS LLC']);
    const p = await app.get('/v1/advisers/148826');
    expect(p.body.data[0]).toMatchObject({
      crd: '148826',
      business_name: 'CITADEL ADVISORS LLC',
      sec_number: '801-70860',
      disciplinary: false,
      sec_status: 'ACTIVE',
      address: { street1: '830 BRICKELL PLAZA', street2: 'FLOOR 15', city: 'MIAMI', state: 'FL', postal_code: '33131', country: 'United States' },
      source_url: 'https://adviserinfo.sec.gov/firm/summary/148826',
    });
  });
});
