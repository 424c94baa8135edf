import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it, beforeAll } from 'vitest';
import advisers from '../../ingest/datasets/advisers/dataset.ts';
import { writeFirmFeedSample, writeRosterSample } from '../../ingest/datasets/advisers/sample.ts';
import { localInputs } from '../../ingest/sources/iapd/inputs.ts';
import { encodeCp1252 } from '../../ingest/sources/common/text.ts';
import { writeZip } from '../../ingest/sources/common/zip.ts';
import { runLoad, type Captured } from './load-harness.ts';
import { fixturePath, hasFixtures } from '../support/fixtures.ts';
import { tempDir } from '../support/temp-dir.ts';

const tmp = () => tempDir('advisers-');

/** Writes a roster CSV (Windows-1252 unless raw bytes are given) and loads it through the ingester. */
async function loadCsv(name: string, content: string | Buffer, args = {}): Promise<Captured> {
  const dir = tmp();
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? encodeCp1252(content) : content);
  return runLoad(advisers, [{ path, url: null }], args);
}

const HEAD = '"Organization CRD#","SEC#","Primary Business Name","Legal Name","Main Office City","Main Office State","5F(2)(c)","7B","11"\r\n';

describe('advisers: demo roster (zip of a Windows-1252 CSV, as published)', () => {
  let c: Captured;
  beforeAll(async () => {
    const dir = tmp();
    await writeRosterSample(dir, { seed: 42, scale: 1 });
    c = await runLoad(advisers, await localInputs(dir, /./));
  });

  it('reads every adviser of both files, no bad or invalid rows', () => {
    expect(c.rows.advisers).toHaveLength(400);
    expect(c.bad).toEqual([]);
    expect(c.invalid).toEqual([]);
    expect(c.rows.advisers!.filter((r) => r.registration_type === 'exempt_reporting')).toHaveLength(80);
  });

  it('parses a registered adviser exactly (money with commas → integer USD, MM/DD/YYYY → ISO, Y/N → boolean)', () => {
    const r = c.rows.advisers!.find((x) => x.crd === '100012')!;
    expect(r).toMatchObject({
      snapshot_date: '2026-07-01',
      crd_int: 100012,
      sec_number: '801-60001',
      registration_type: 'registered',
      cik: '0001645695',
      business_name: 'SUMMIT ASSET MANAGEMENT',
      legal_name: 'SUMMIT ASSET MANAGEMENT L.P.',
      street1: '4877 STATE STREET',
      street2: 'SUITE 1855',
      city: 'CHARLOTTE',
      state: 'NC',
      postal_code: '13369',
      sec_status: '120-Day Approval',
      sec_status_date: '2023-08-15',
      latest_filing_date: '2026-02-06',
      employees: 760,
      raum_discretionary: 4459038468,
      raum_non_discretionary: 2061890327,
      regulatory_aum_total: 6520928795,
      regulatory_aum_total_raw: '6,520,928,795.00',
      aum_rank: 6520928795,
      accounts_total: 789,
      has_private_funds: true,
      private_fund_count: 9,
      private_fund_gross_assets: 21164212237,
      disciplinary: false,
      source_line: 3,
      source_url: 'https://adviserinfo.sec.gov/firm/summary/100012',
    });
    expect(r.client_types).toEqual([
      'banking_or_thrift_institutions',
      'investment_companies',
      'pooled_investment_vehicles',
      'state_or_municipal_government_entities',
    ]);
  });

  it('decodes Windows-1252 bytes (0x92 curly apostrophe, 0xC9 É) in names', () => {
    const r = c.rows.advisers!.find((x) => x.crd === '100025')!;
    expect(r.business_name).toBe('L’ÉTOILE BLUE RIDGE PARTNERS COUNSEL');
  });

  it('exempt-reporting file: "Organization CRD #" header spelling, no AUM → null and aum_rank -1', () => {
    const r = c.rows.advisers!.find((x) => x.crd === '100033')!;
    expect(r).toMatchObject({
      registration_type: 'exempt_reporting',
      sec_number: '802-60004',
      sec_status: 'ERA - Active',
      regulatory_aum_total: null,
      aum_rank: -1,
      has_private_funds: true,
      private_fund_count: 3,
    });
    expect(String(r.source_file)).toMatch(/^ia07012026-exempt\.zip!IA_SEC_-_ERA_FIRM_ROSTER/);
  });
});

describe('advisers: odd but real roster cases', () => {
  it('maps renamed headers: "CRD#", item code followed by a label, extra unknown columns', async () => {
    const c = await loadCsv(
      'ia060126.csv',
      '"CRD#","Primary Business Name","Unknown New Column","5F(2)(c) Total Regulatory Assets","11 - ' +
        'Disciplinary"\r\n"123","ACME ADVISERS","x","1,000.49","Y"\r\n',
    );
    expect(c.rows.advisers![0]).toMatchObject({
      crd: '123',
      snapshot_date: '2026-06-01',
      business_name: 'ACME ADVISERS',
      regulatory_aum_total: 1000,
      disciplinary: true,
    });
  });

  it('missing optional columns (an 88-column era file without 7B/11) give nulls, not errors', async () => {
    const c = await loadCsv('ia010112.csv', '"Organization CRD#","Primary Business Name","Main Office State"\r\n"5","OLD FIRM","ny"\r\n');
    expect(c.rows.advisers![0]).toMatchObject({
      crd: '5',
      snapshot_date: '2012-01-01',
      state: 'NY',
      has_private_funds: null,
      disciplinary: null,
      regulatory_aum_total: null,
    });
  });

  it('a file without any CRD column is refused with a message naming the column', async () => {
    await expect(loadCsv('ia070126.csv', '"Firm","State"\r\n"A","NY"\r\n')).rejects.toThrow(/no crd column/);
  });

  it('counts wrong column counts, bad CRDs and unparsable numbers with their line numbers, keeps going', async () => {
    const body = [
      HEAD,
      '"1","801-1","GOOD ONE","GOOD ONE LLC","BOSTON","MA","5,000.00","Y","N"\r\n', // line 2
      '"2","801-2","SHORT ROW","BOSTON","MA"\r\n', // line 3: 5 of 9 columns
      '"3","801-3","MULTI\r\nLINE NAME","X","NYC","NY","7","N","N"\r\n', // lines 4-5
      '"ABC","801-4","BAD CRD","X","NYC","NY","7","N","N"\r\n', // line 6
      '"7","801-7","BAD AUM","X","NYC","NY","seven","N","maybe"\r\n', // line 7
      '"1","801-1","DUPLICATE","X","NYC","NY","1","N","N"\r\n', // line 8
    ].join('');
    const c = await loadCsv('ia070126.csv', body);
    expect(c.rows.advisers!.map((r) => r.crd)).toEqual(['1', '3', '7']);
    expect(c.rows.advisers![1].business_name).toBe('MULTI LINE NAME');
    expect(c.bad.map((b) => [b.line, b.reason.split(':')[0]])).toEqual([
      [3, 'expected 9 columns, found 5'],
      [6, "invalid CRD 'ABC'"],
      [7, 'regulatory_aum_total'],
      [7, 'disciplinary'],
      [8, 'duplicate CRD 1 in snapshot 2026-07-01 (kept ia070126.csv'],
    ]);
    expect(c.rows.advisers![2]).toMatchObject({ crd: '7', regulatory_aum_total: null, regulatory_aum_total_raw: 'seven', disciplinary: null });
  });

  it('an unclosed quote is a counted bad record, not an abort', async () => {
    const c = await loadCsv('ia070126.csv', `${HEAD}"1","801-1","OK","OK","B","MA","1","N","N"\r\n"2","801-2","BROKEN "QUOTE,"X"\r\n`);
    expect(c.rows.advisers!.map((r) => r.crd)).toContain('1');
    expect(c.bad.length).toBeGreaterThanOrEqual(1);
  });

  it('tolerates one trailing empty cell per row (Excel re-saves) and a UTF-8 BOM', async () => {
    const text = '"Organization CRD#","Primary Business Name",\r\n"9","CAFÉ CAPITAL",\r\n';
    const c = await loadCsv('ia070126.csv', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]));
    expect(c.bad).toEqual([]);
    expect(c.rows.advisers![0]).toMatchObject({ crd: '9', business_name: 'CAFÉ CAPITAL' });
  });

  it('a name-less file gets its snapshot from --date; none at all is a clear error', async () => {
    const c = await loadCsv('roster.csv', '"CRD#","Legal Name"\r\n"0044","ONLY LEGAL NAME LLC"\r\n', { date: '2026-05-01' });
    expect(c.rows.advisers![0]).toMatchObject({
      crd: '44',
      snapshot_date: '2026-05-01',
      business_name: 'ONLY LEGAL NAME LLC',
      legal_name: 'ONLY LEGAL NAME LLC',
    });
    await expect(loadCsv('roster.csv', '"CRD#","Legal Name"\r\n"1","X"\r\n')).rejects.toThrow(/--date/);
  });

  it('reads the CSV member of a zip whose member name carries no date (date from the zip name, 6-digit form)', async () => {
    const dir = tmp();
    const path = join(dir, 'ia020125-exempt.zip');
    await writeZip(path, [
      {
        name: 'IA_SEC_-_FIRM_ROSTER_FOIA_DOWNLOAD_-_99.CSV',
        data: encodeCp1252('"Organization CRD #","Primary Business Name","SEC#"\r\n"77","ERA ONE","802-1"\r\n'),
      },
    ]);
    const c = await runLoad(advisers, [{ path, url: 'https://www.sec.gov/files/ia020125-exempt.zip' }]);
    expect(c.rows.advisers![0]).toMatchObject({
      crd: '77',
      snapshot_date: '2025-02-01',
      registration_type: 'exempt_reporting',
      source_file_url: 'https://www.sec.gov/files/ia020125-exempt.zip',
    });
  });
});

describe('advisers: IAPD firm compilation feed (ISO-8859-1 XML, gzipped)', () => {
  it('demo feed: GenOn is the snapshot, all websites kept, Item 11 and 5.F read from attributes', async () => {
    const dir = tmp();
    const path = join(dir, 'IA_FIRM_SEC_Feed_07_21_2026.xml.gz');
    await writeFirmFeedSample(path, { seed: 42, scale: 1 });
    const c = await runLoad(advisers, [{ path, url: null }]);
    expect(c.bad).toEqual([]);
    expect(c.rows.advisers).toHaveLength(400);
    const r = c.rows.advisers!.find((x) => x.crd === '100012')!;
    expect(r).toMatchObject({
      snapshot_date: '2026-07-21',
      regulatory_aum_total: 6520928795,
      raum_discretionary: 4459038468,
      employees: 760,
      has_private_funds: true,
      disciplinary: false,
      state: 'NC',
    });
    expect(r.websites).toEqual(['https://www.summitassetmanagement.com', 'https://www.linkedin.com/company/100012']);
    expect(c.rows.advisers!.find((x) => x.crd === '100025')!.business_name).toBe('L’ÉTOILE BLUE RIDGE PARTNERS COUNSEL');
    expect(c.rows.advisers!.find((x) => x.crd === '100033')!.registration_type).toBe('exempt_reporting');
  });

  it('Latin-1 bytes, a bare & inside an attribute, a firm without CRD reported at its line', async () => {
    const xml = Buffer.concat([
      Buffer.from(
        '<?xml version="1.0" encoding="ISO-8859-1"?>\n<IAPDFirmSECReport GenOn="2026-07-22">\n<Firms>\n<Firm>\n<Info FirmCrdNb="555" BusNm="M',
        'latin1',
      ),
      Buffer.from([0xdc]), // Ü in ISO-8859-1
      Buffer.from(
        'LLER & SONS" LegalNm="MULLER AND SONS LLC"/>\n<Rgstn FirmType="Registered" St="APPROVED" ' +
          'Dt="2020-01-02"/>\n<Item11A Q11A1="N" Q11A2="Y"/>\n</Firm>\n<Firm>\n<Info BusNm="NO ' +
          'CRD"/>\n</Firm>\n</Firms></IAPDFirmSECReport>\n',
        'latin1',
      ),
    ]);
    const dir = tmp();
    const path = join(dir, 'IA_FIRM_SEC_Feed_07_22_2026.xml.gz');
    writeFileSync(path, gzipSync(xml));
    const c = await runLoad(advisers, [{ path, url: null }]);
    expect(c.rows.advisers).toHaveLength(1);
    expect(c.rows.advisers![0]).toMatchObject({
      crd: '555',
      business_name: 'MÜLLER & SONS',
      disciplinary: true,
      sec_status_date: '2020-01-02',
      snapshot_date: '2026-07-22',
    });
    expect(c.bad).toEqual([{ file: 'IA_FIRM_SEC_Feed_07_22_2026.xml.gz', line: 9, reason: 'missing CRD' }]);
  });
});

describe.skipIf(!hasFixtures)('advisers: real IAPD firm-search JSON (Citadel, 2026-07-21)', () => {
  it('keeps the 3 active SEC-registered advisers, with address from the escaped JSON and the disclosure flag', async () => {
    const c = await runLoad(advisers, [{ path: fixturePath('adv/iapd_api_firm_search_citadel_2026-07-21.json'), url: null }]);
    expect(c.bad).toEqual([]);
    expect(c.invalid).toEqual([]);
    const rows = c.rows.advisers!;
    expect(rows.map((r) => r.crd)).toEqual(['148826', '110540', '171898']);
    expect(rows[0]).toMatchObject({
      snapshot_date: '2026-07-21',
      business_name: 'CITADEL ADVISORS LLC',
      sec_number: '801-70860',
      registration_type: 'registered',
      sec_status: 'ACTIVE',
      street1: '830 BRICKELL PLAZA',
      street2: 'FLOOR 15',
      city: 'MIAMI',
      state: 'FL',
      postal_code: '33131',
      country: 'United States',
      disciplinary: false,
      regulatory_aum_total: null,
      aum_rank: -1,
      source_line: 1,
      source_url: 'https://adviserinfo.sec.gov/firm/summary/148826',
    });
    expect(rows[1]).toMatchObject({ business_name: 'CITADEL INVESTMENT ADVISORY INC', city: 'CHESTERLAND', state: 'OH', street1: null });
    expect(rows[2]).toMatchObject({ business_name: 'GOOD LIFE ADVISORS, LLC', disciplinary: true, postal_code: '34747' });
  });
});
