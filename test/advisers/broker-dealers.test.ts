import { writeFileSync, copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import brokerDealers from '../../ingest/datasets/broker-dealers/dataset.ts';
import { bdSecNumber, countryOfCode } from '../../ingest/sources/iapd/bd-list.ts';
import { sampleBrokerDealers } from '../../ingest/datasets/broker-dealers/sample.ts';
import { parseFirmSearch } from '../../ingest/sources/iapd/search.ts';
import { fixturePath, hasFixtures, readFixture } from '../support/fixtures.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { runLoad } from './load-harness.ts';
import brokerDealersRoutes from '../../api/broker-dealers/routes.ts';
import { tempDir } from '../support/temp-dir.ts';

const FIXTURE = 'adv/iapd_api_firm_search_citadel_2026-07-21.json';
const tmp = () => tempDir('bd-');

describe('broker-dealers: SEC bd*.txt list', () => {
  it('file numbers: 00821897 → 8-21897, 8-021897 and 008-21897 accepted, others null', () => {
    expect(bdSecNumber('00821897')).toBe('8-21897');
    expect(bdSecNumber('008-21897')).toBe('8-21897');
    expect(bdSecNumber('8-021897')).toBe('8-21897');
    expect(bdSecNumber('801-12345')).toBeNull();
    expect(countryOfCode('A6')).toBe('Canada');
    expect(countryOfCode('NY')).toBe('United States');
    expect(countryOfCode('Q9')).toBeNull();
  });

  it('headerless tabs, trailing tab, \\r\\r\\n endings, Latin-1, UTF-16 with BOM, bad lines by number', async () => {
    const dir = tmp();
    const text = [
      '1234567\tEXAMPLE SECURITIES LLC\t00812345\t100 MAIN STREET\t\tNEW YORK\tNY\t10001\t\r\r\n', // 1
      'ABC\tBAD CIK INC\t00800001\t1 X ST\t\tBOSTON\tMA\t02110\t\r\n', // 2
      '7654321\tTOO FEW FIELDS\t00800002\r\n', // 3
      '\r\n', // 4: blank
      '42\tCAF\u00c9 TRADING CORP\t00899\t9 RUE\t\tTORONTO\tA6\tM5H 2Y4\t\n', // 5
      '43\tODD NUMBER LLC\t12345\t1 ST\t\tDALLAS\ttx\t75201\t', // 6: no final newline
    ].join('');
    writeFileSync(join(dir, 'bd070126.txt'), Buffer.from(text, 'latin1'));
    const c = await runLoad(brokerDealers, [{ path: join(dir, 'bd070126.txt'), url: null }]);
    const rows = c.rows.broker_dealers!;
    expect(rows.map((r) => r.name)).toEqual(['EXAMPLE SECURITIES LLC', 'CAFÉ TRADING CORP', 'ODD NUMBER LLC']);
    expect(rows[0]).toMatchObject({
      snapshot_date: '2026-07-01',
      bd_key: '8-12345',
      sec_number: '8-12345',
      sec_file_number_raw: '00812345',
      cik: '0001234567',
      city: 'NEW YORK',
      state: 'NY',
      country: 'United States',
      postal_code: '10001',
      status: 'ACTIVE',
      on_sec_active_list: true,
      street2: null,
      source_line: 1,
    });
    expect(rows[1]).toMatchObject({ sec_number: '8-99', state: 'A6', country: 'Canada', source_line: 5 });
    expect(rows[2]).toMatchObject({ bd_key: 'cik:0000000043', sec_number: null, state: 'TX' });
    expect(c.bad.map((b) => [b.line, b.reason])).toEqual([
      [2, "invalid CIK 'ABC'"],
      [3, 'expected 8 tab-separated fields, found 3'],
      [6, "CIK 0000000043: unrecognized file number '12345' (row kept)"],
    ]);

    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('99\tUTF SIXTEEN SECURITIES\t00877777\t1 A ST\t\tMIAMI\tFL\t33131\t\r\n', 'utf16le')]);
    writeFileSync(join(dir, 'bd-080126.txt'), utf16);
    const u = await runLoad(brokerDealers, [{ path: join(dir, 'bd-080126.txt'), url: null }]);
    expect(u.rows.broker_dealers![0]).toMatchObject({ name: 'UTF SIXTEEN SECURITIES', sec_number: '8-77777', snapshot_date: '2026-08-01' });
  });
});

describe.skipIf(!hasFixtures)('broker-dealers: real IAPD firm-search JSON (Citadel, 2026-07-21)', () => {
  it('parses all 24 hits: CRD, full SEC numbers, escaped-JSON addresses, scopes and flags', async () => {
    const p = parseFirmSearch(await readFixture(FIXTURE));
    expect(p.total).toBe(24);
    expect(p.firms).toHaveLength(24);
    expect(p.problems).toEqual([]);
    const adv = p.firms.find((f) => f.crd === '148826')!;
    expect(adv).toMatchObject({
      name: 'CITADEL ADVISORS LLC',
      iaSecNumber: '801-70860',
      bdSecNumber: null,
      iaScope: 'ACTIVE',
      iaDisclosure: false,
      branches: 1,
    });
    expect(adv.office).toEqual({
      street1: '830 BRICKELL PLAZA',
      street2: 'FLOOR 15',
      city: 'MIAMI',
      state: 'FL',
      country: 'United States',
      postalCode: '33131',
    });
    const fsc = p.firms.find((f) => f.crd === '7461')!;
    expect(fsc).toMatchObject({ bdSecNumber: '8-21770', iaSecNumber: '801-42017', bdScope: 'INACTIVE', iaScope: 'INACTIVE', bdDisclosure: true });
    expect(fsc.otherNames).toHaveLength(151);
    expect(p.firms.find((f) => f.crd === '12976')!.expelledDate).toBe('1988-12-09');
  });

  it('ingests the broker-dealer hits (advisers-only hits skipped), snapshot date from the file name', async () => {
    const c = await runLoad(brokerDealers, [{ path: fixturePath(FIXTURE), url: null }]);
    expect(c.bad).toEqual([]);
    const rows = c.rows.broker_dealers!;
    expect(rows).toHaveLength(15); // 24 hits, 9 of them advisers without a broker-dealer number
    const sec = rows.find((r) => r.bd_crd === '116797')!;
    expect(sec).toMatchObject({
      snapshot_date: '2026-07-21',
      name: 'CITADEL SECURITIES LLC',
      sec_number: '8-53574',
      bd_key: '8-53574',
      status: 'ACTIVE',
      on_sec_active_list: false,
      street1: '830 BRICKELL PLAZA',
      street2: 'FLOOR 15',
      city: 'MIAMI',
      state: 'FL',
      country: 'UNITED STATES',
      postal_code: '33131',
      phone: '305-929-6851',
      has_disclosure: true,
      branches_count: 7,
      finra_last_approval_date: '2005-02-25',
      source_url: 'https://brokercheck.finra.org/firm/summary/116797',
    });
    expect(rows.find((r) => r.bd_crd === '12976')).toMatchObject({ status: 'INACTIVE', expelled_date: '1988-12-09', city: null });
  });

  it('joins the real IAPD records to an SEC list line by file number (8-53574 ↔ 00853574)', async () => {
    const dir = tmp();
    copyFileSync(fixturePath(FIXTURE), join(dir, 'iapd_api_firm_search_citadel_2026-07-21.json'));
    writeFileSync(join(dir, 'bd072126.txt'), '1146184\tCITADEL SECURITIES LLC\t00853574\t830 BRICKELL PLAZA\tFLOOR 15\tMIAMI\tFL\t33131\t\r\n');
    const c = await runLoad(brokerDealers, [
      { path: join(dir, 'bd072126.txt'), url: null },
      { path: join(dir, 'iapd_api_firm_search_citadel_2026-07-21.json'), url: null },
    ]);
    const rows = c.rows.broker_dealers!.filter((r) => r.sec_number === '8-53574');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      cik: '0001146184',
      bd_crd: '116797',
      status: 'ACTIVE',
      on_sec_active_list: true,
      country: 'United States',
      has_disclosure: true,
      source_line: 1,
    });
    expect(rows[0].sources).toEqual(['bd072126.txt', 'iapd_api_firm_search_citadel_2026-07-21.json']);
  });
});

describe('GET /v1/broker-dealers', () => {
  let app: TestApp;
  const bds = sampleBrokerDealers(3, 1);
  beforeAll(async () => {
    app = await createTestApp({ routes: brokerDealersRoutes });
    const s = await app.ingestSample(brokerDealers, { seed: 3, skipDiff: true });
    expect(s.badRows).toBe(0);
  });
  afterAll(() => app?.close());

  it('serves the merged list ordered by name, with every filter', async () => {
    const first = await app.get('/v1/broker-dealers?limit=3');
    expect(first.status).toBe(200);
    expect(first.body.as_of).toBe('2026-07-01T00:00:00Z');
    const names = first.body.data.map((d: any) => d.name);
    expect(names).toEqual([...names].sort());
    const b = bds[4]; // every other firm has an IAPD record: index 4 does
    const byCrd = await app.get(`/v1/broker-dealers?bd_crd=${b.crd}`);
    expect(byCrd.body.data).toHaveLength(1);
    expect(byCrd.body.data[0]).toMatchObject({
      name: b.name,
      sec_number: `8-${b.fileNo}`,
      cik: String(b.cik).padStart(10, '0'),
      status: 'ACTIVE',
      on_sec_active_list: true,
      main_office: { city: b.city, state: b.state },
    });
    for (const form of [`8-${b.fileNo}`, `008${String(b.fileNo).padStart(5, '0')}`, `008-${b.fileNo}`]) {
      const r = await app.get(`/v1/broker-dealers?sec_number=${form}`);
      expect(r.body.data.map((d: any) => d.bd_crd)).toEqual([String(b.crd)]);
    }
    const inactive = await app.get('/v1/broker-dealers?status=inactive');
    expect(inactive.body.data.map((d: any) => d.name)).toEqual(['GONE SECURITIES CORP.']);
    const canada = await app.get('/v1/broker-dealers?main_office_country=canada&limit=100');
    expect(canada.body.data.length).toBe(bds.filter((x) => x.state === 'A6').length);
    const ont = await app.get('/v1/broker-dealers?main_office_state=a6&main_office_city=toronto&limit=100');
    expect(ont.body.data.length).toBe(canada.body.data.length);
    const soc = await app.get('/v1/broker-dealers?name=soci%C3%A9t%C3%A9&limit=100');
    expect(soc.body.data.length).toBe(bds.filter((x) => x.name.startsWith('SOCIÉTÉ')).length);
    expect(soc.body.data.length).toBeGreaterThan(0);
  });

  it('422 on a malformed sec_number, state or crd', async () => {
    for (const [qs, param] of [
      ['sec_number=801-123', 'sec_number'],
      ['main_office_state=NEW', 'main_office_state'],
      ['bd_crd=x1', 'bd_crd'],
    ]) {
      const r = await app.get(`/v1/broker-dealers?${qs}`);
      expect(r.status).toBe(422);
      expect(r.body.detail[0].loc).toEqual(['query', param]);
    }
  });
});
