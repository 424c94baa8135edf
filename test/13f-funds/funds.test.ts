import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { fixturePath, hasFixtures, readFixture } from '../support/fixtures.ts';
import { parseNportReport, type NportHolding } from '../../ingest/sources/edgar/funds/nport-xml.ts';
import { parseNcenReport } from '../../ingest/sources/edgar/funds/ncen-xml.ts';
import nportRoutes from '../../api/nport/routes.ts';
import ncenRoutes from '../../api/ncen/routes.ts';
import datasetNcen from '../../ingest/datasets/ncen/dataset.ts';
import datasetNport from '../../ingest/datasets/nport/dataset.ts';
import { tempDir } from '../support/temp-dir.ts';

describe.skipIf(!hasFixtures)('N-PORT XML (real fixtures)', () => {
  it('Dupree Kentucky Tax-Free: 55 municipal positions with identifiers', async () => {
    const rows: NportHolding[] = [];
    const ctx = await parseNportReport(await readFixture('nport/nport-p_dupree_kentucky_tax_free_2022-12-31.xml'), (h) => {
      rows.push(h);
    });
    expect(ctx).toMatchObject({
      registrant_cik: '0000311101',
      registrant_name: 'Dupree Mutual Funds',
      series_id: 'S000012000',
      report_date: '2022-12-31',
      report_period_end: '2023-06-30',
      net_assets: 41349926.01,
    });
    expect(rows).toHaveLength(55);
    expect(rows[0]).toMatchObject({
      issuer_name: 'KENTUCKY ST PPTY & BLDGS COMMN',
      issuer_lei: null,
      security_title: 'KY KYSFAC 5 08/01/2028',
      cusip: '49151FGH7',
      isin: 'US49151FGH73',
      ticker: 'KYSFAC',
      balance: 755000,
      units: 'PA',
      currency: 'USD',
      value_usd: 794207.15,
      asset_category: 'DBT',
      issuer_category: 'MUN',
      is_restricted: false,
      fair_value_level: '2',
    });
  });
  it('a liquidating fund with no positions still yields its context', async () => {
    let n = 0;
    const ctx = await parseNportReport(await readFixture('nport/nport-p_advanced_series_trust_ast_bond_2022_2022-12-30.xml'), () => {
      n++;
    });
    expect(n).toBe(0);
    expect(ctx).toMatchObject({ series_id: 'S000030880', report_date: '2022-12-30', total_assets: 1441198.96 });
  });
});

describe.skipIf(!hasFixtures)('N-CEN XML (real fixtures)', () => {
  it('AB Cap Fund: registrant auditor and per-series providers with lower-case roles', async () => {
    const r = await parseNcenReport(await readFixture('ncen/n-cen_ab_cap_fund_2025-11-30_full_submission.txt'));
    expect(r).toMatchObject({ accession_number: '0001410368-26-010921', filer_cik: '0000081443' });
    expect(r.report_period_end).toBe('2025-11-30');
    const auditor = r.providers.find((p) => p.role === 'auditor');
    expect(auditor).toMatchObject({ provider_name: 'Ernst & Young LLP', provider_lei: '254900Y3CIB1KF938C31', series_id: null });
    const adviser = r.providers.find((p) => p.role === 'adviser');
    expect(adviser).toMatchObject({
      provider_name: 'AllianceBernstein L.P.',
      provider_file_number: '801-56720',
      provider_crd: '000108477',
      state: 'US-TN',
      country: 'US',
    });
    expect(r.providers.filter((p) => p.role === 'custodian')).toHaveLength(19);
    expect(r.providers.filter((p) => p.role === 'pricing service')).toHaveLength(21);
    expect(new Set(r.providers.map((p) => p.role))).toContain('transfer agent');
  });
});

describe.skipIf(!hasFixtures)('funds end to end', () => {
  let app: TestApp;
  let ncenSample: Awaited<ReturnType<TestApp['ingestSample']>>;
  beforeAll(async () => {
    app = await createTestApp({ routes: [...nportRoutes, ...ncenRoutes] });
    const np = tempDir('np-');
    await copyFile(fixturePath('nport/nport-p_dupree_kentucky_tax_free_2022-12-31.xml'), join(np, '0000311101-23-000001.xml'));
    await app.ingest(datasetNport, { from: np }, { skipDiff: true });
    await app.ingestSample(datasetNport, { seed: 3, scale: 0.3 });
    await app.ingest(datasetNcen, { from: fixturePath('ncen') }, { skipDiff: true });
    ncenSample = await app.ingestSample(datasetNcen, { seed: 3, scale: 0.5 });
  });
  afterAll(async () => app?.close());

  it('/v1/funds/holdings: every filter', async () => {
    const byCusip = await app.get('/v1/funds/holdings?cusip=49151fgh7');
    expect(byCusip.status).toBe(200);
    expect(byCusip.body.data[0]).toMatchObject({ series_id: 'S000012000', value_usd: 794207.15, security: { isin: 'US49151FGH73' } });
    const checks: [string, (d: any) => boolean][] = [
      ['registrant_cik=311101', (d) => d.registrant_cik === '0000311101'],
      ['series_id=s000012000', (d) => d.series_id === 'S000012000'],
      ['accession_number=000031110123000001', (d) => d.accession_number === '0000311101-23-000001'],
      ['isin=US49151FGH73', (d) => d.security.isin === 'US49151FGH73'],
      ['security=kysfac', (d) => /kysfac/i.test(`${d.security.title} ${d.security.issuer_name}`)],
      ['fund_name=kentucky', (d) => /kentucky/i.test(d.fund_name)],
      ['asset_category=ec', (d) => d.asset_category === 'EC'],
      ['inv_country=de', (d) => d.inv_country === 'DE'],
      ['report_date=2024-12-31', (d) => d.report_date === '2024-12-31'],
      ['report_date_from=2024-01-01&report_date_to=2024-12-31', (d) => d.report_date >= '2024-01-01'],
      ['filed_date_from=2025-03-01&filed_date_to=2025-03-31', (d) => d.filing_date >= '2025-03-01' && d.form === 'NPORT-P/A'],
      ['min_value_usd=1000000', (d) => d.value_usd >= 1e6],
      ['restricted_only=true', (d) => d.is_restricted === true],
    ];
    for (const [q, ok] of checks) {
      const r = await app.get(`/v1/funds/holdings?${q}&limit=50`);
      expect(r.status, q).toBe(200);
      expect(r.body.data.length, q).toBeGreaterThan(0);
      for (const d of r.body.data) expect(ok(d), `${q}: ${JSON.stringify(d).slice(0, 200)}`).toBe(true);
    }
  });

  it('an NPORT-P/A replaces the report it amends', async () => {
    const cur = await app.get('/v1/funds/holdings?series_id=S000010010&limit=100');
    expect(new Set(cur.body.data.map((d: any) => d.form))).toEqual(new Set(['NPORT-P/A']));
    const all = await app.get('/v1/funds/holdings?series_id=S000010010&limit=100&include_superseded=true');
    expect(new Set(all.body.data.map((d: any) => d.form))).toEqual(new Set(['NPORT-P', 'NPORT-P/A']));
  });

  it('/v1/funds/holdings: 422s name the parameter', async () => {
    for (const [q, name] of [
      ['report_date=2024-13-01', 'report_date'],
      ['min_value_usd=-1', 'min_value_usd'],
      ['series_id=X1', 'series_id'],
      ['report_date_from=2025-01-01&report_date_to=2024-01-01', 'report_date_to'],
      ['restricted_only=maybe', 'restricted_only'],
    ]) {
      const r = await app.get(`/v1/funds/holdings?${q}`);
      expect(r.status, q).toBe(422);
      expect(r.body.detail[0].loc, q).toEqual(['query', name]);
    }
  });

  it('/v1/funds/providers: role (lower case), provider, is_affiliated, filer_cik, accession_number', async () => {
    const custodians = await app.get('/v1/funds/providers?filer_cik=81443&role=Custodian&limit=100');
    expect(custodians.status).toBe(200);
    expect(custodians.body.data).toHaveLength(19);
    expect(custodians.body.data.every((d: any) => d.role === 'custodian')).toBe(true);
    const ey = await app.get('/v1/funds/providers?provider=ernst&role=auditor');
    expect(ey.body.data.length).toBeGreaterThan(0);
    expect(ey.body.data[0].provider.name).toBe('Ernst & Young LLP');
    const aff = await app.get('/v1/funds/providers?is_affiliated=true&limit=100');
    expect(aff.body.data.length).toBeGreaterThan(0);
    expect(aff.body.data.every((d: any) => d.is_affiliated === true)).toBe(true);
    const acc = await app.get('/v1/funds/providers?accession_number=0001410368-26-010918&role=adviser');
    expect(acc.body.data.length).toBeGreaterThan(0);
    expect(acc.body.data.every((d: any) => d.accession_number === '0001410368-26-010918')).toBe(true);
    const sub = await app.get('/v1/funds/providers?role=sub-adviser');
    expect(sub.body.data.every((d: any) => d.role === 'sub-adviser')).toBe(true);
    const none = await app.get('/v1/funds/providers?provider_cik=1');
    expect(none.status).toBe(200);
    expect(none.body.warnings[0].code).toBe('empty_result');
    const bad = await app.get('/v1/funds/providers?role=janitor');
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['query', 'role']);
  });

  it('N-CEN data set zip: providers by FUND_ID, sub-adviser from ADVISER_TYPE, registrant-level auditor/underwriter', async () => {
    const r = await app.get('/v1/funds/providers?filer_cik=930200&limit=100');
    expect(r.status).toBe(200);
    const roles = r.body.data.map((d: any) => d.role);
    expect(new Set(roles)).toEqual(
      new Set(['adviser', 'sub-adviser', 'administrator', 'custodian', 'transfer agent', 'pricing service', 'underwriter', 'auditor']),
    );
    expect(r.body.data).toHaveLength(13);
    const sub = r.body.data.find((d: any) => d.role === 'sub-adviser');
    expect(sub).toMatchObject({
      accession_number: '0001193125-25-070000',
      filer_cik: '0000930200',
      series_id: 'S000030001',
      report_period_end: '2024-12-31',
      filing_date: '2025-02-14',
      provider: { name: 'Kestrel Fixed Income Partners LP', file_number: '801-99001', crd: '170001', state: 'US-IL', country: 'US' },
      is_affiliated: false,
      source_url: 'https://www.sec.gov/Archives/edgar/data/930200/000119312525070000/0001193125-25-070000-index.htm',
    });
    expect(sub.fund_name).toMatch(/ Bond Fund$/);
    expect(sub.registrant_name).toMatch(/ Funds Trust 1$/);
    const underwriter = r.body.data.find((d: any) => d.role === 'underwriter');
    expect(underwriter).toMatchObject({ series_id: null, fund_name: null, is_affiliated: true, provider: { file_number: '8-60000', crd: '8800' } });
    expect(r.body.data.find((d: any) => d.role === 'administrator').is_affiliated).toBe(true);
    // Re-ingesting the same zip keeps provider numbers (the merge key): no duplicates.
    await app.ingestSample(datasetNcen, { seed: 3, scale: 0.5 });
    expect((await app.get('/v1/funds/providers?filer_cik=930200&limit=100')).body.data).toHaveLength(13);
  });

  it('N-CEN data set: a filing without REPORT_ENDING_PERIOD is a bad row, its providers are skipped', async () => {
    expect(ncenSample.badRows).toBeGreaterThan(0);
    expect(ncenSample.badRowSamples.some((b) => /REPORT_ENDING_PERIOD/.test(b.reason))).toBe(true);
    const r = await app.get('/v1/funds/providers?filer_cik=930213');
    expect(r.body.data).toEqual([]);
  });

  it('N-CEN --period downloads nothing without a page to scrape: a clear error', async () => {
    await expect(app.ingest(datasetNcen, {})).rejects.toThrow(/--period 2025Q1 or --from/);
  });
});
