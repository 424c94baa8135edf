import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/harness.ts';
import { hasFixtures } from '../support/fixtures.ts';
import filingParsersRoutes from '../../api/filing-parsers/routes.ts';
import { startAppOverArchive, type Upstream } from './upstream-server.ts';

describe.skipIf(!hasFixtures)('/v1/filings/{accession}/cover over real filings on the local archive', () => {
  let up: Upstream;
  let app: TestApp;

  beforeAll(async () => {
    ({ up, app } = await startAppOverArchive(filingParsersRoutes));
  });
  afterAll(async () => {
    await app?.close();
    await up?.close();
  });

  it('10-K inline XBRL (Apple FY2024): dei facts with their context dates', async () => {
    const r = await app.get('/v1/filings/0000320193-24-000123/cover');
    expect(r.status).toBe(200);
    expect(r.body.query_echo).toEqual({ accession: '0000320193-24-000123', form: '10-K' });
    const c = r.body.data[0];
    expect(c).toMatchObject({
      form: '10-K',
      method: 'ixbrl',
      fields_from_text: [],
      registrant_name: 'Apple Inc.',
      cik: '0000320193',
      file_number: '001-36743',
      period_of_report: '2024-09-28',
      date_of_report: null,
      fiscal_year_end: '09-28',
      fiscal_year_focus: '2024',
      fiscal_period_focus: 'FY',
      filer_category: 'Large accelerated filer',
      state_of_incorporation: 'California',
      irs_number: '94-2404110',
      phone: '(408) 996-1010',
      well_known_seasoned_issuer: true,
      shell_company: false,
      emerging_growth_company: false,
      document: 'aapl-20240928.htm',
    });
    expect(c.shares_outstanding).toEqual([{ shares: 15_115_823_000, as_of: '2024-10-18', security_class: null }]);
    expect(c.public_float).toEqual({ amount_usd: 2_628_553_000_000, as_of: '2024-03-29' });
    expect(c.address).toMatchObject({ street1: 'One Apple Park Way', city: 'Cupertino', state: 'California', zip: '95014' });
    expect(c.securities[0]).toEqual({ title: 'Common Stock, $0.00001 par value per share', trading_symbol: 'AAPL', exchange: 'The Nasdaq Stock Market LLC' });
    // The notes listed on Nasdaq carry NoTradingSymbolFlag instead of a symbol.
    expect(c.securities).toHaveLength(9);
    expect(c.securities.slice(1).every((s: any) => s.trading_symbol === null)).toBe(true);
    expect(Number(r.headers.get('x-credits-charged'))).toBeGreaterThan(10);
  });

  it('8-K inside a full submission (Meta): date of report and company name', async () => {
    const r = await app.get('/v1/filings/0001628280-25-058337/cover?cik=1326801');
    expect(r.status).toBe(200);
    expect(r.body.data[0]).toMatchObject({
      form: '8-K',
      method: 'ixbrl',
      registrant_name: 'Meta Platforms, Inc.',
      period_of_report: '2025-12-19',
      date_of_report: '2025-12-19',
      state_of_incorporation: 'Delaware',
      irs_number: '20-1665019',
      securities: [{ title: 'Class A Common Stock, $0.000006 par value', trading_symbol: 'META', exchange: 'The Nasdaq Stock Market LLC' }],
    });
  });

  it('8-K without inline XBRL (SanDisk 2010): read from the printed cover', async () => {
    const r = await app.get('/v1/filings/0001000180-10-000003/cover');
    expect(r.status).toBe(200);
    expect(r.body.data[0]).toMatchObject({
      form: '8-K',
      method: 'text',
      registrant_name: 'SanDisk Corporation',
      cik: null,
      file_number: '000-26734',
      date_of_report: '2010-01-28',
      state_of_incorporation: 'Delaware',
      irs_number: '77-0191793',
      phone: '(408) 801-1000',
      address: { street1: '601 McCarthy Boulevard', street2: null, city: 'Milpitas', state: 'California', zip: '95035', country: null },
    });
  });

  it('422 for a form without an Exchange Act cover (Form 4), 404 for an unknown filing', async () => {
    const r = await app.get('/v1/filings/0000320193-22-000061/cover?cik=1462356');
    expect(r.status).toBe(422);
    expect(r.body.detail[0].loc).toEqual(['path', 'accession']);
    const missing = await app.get('/v1/filings/0000320193-99-999998/cover');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('not_found');
  });
});
