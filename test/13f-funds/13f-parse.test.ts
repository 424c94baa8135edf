import { describe, expect, it } from 'vitest';
import { hasFixtures, readFixture } from '../support/fixtures.ts';
import { decideValueUnit } from '../../ingest/datasets/13f/value-unit.ts';
import { resolveAmendments, type FilingOrderKey } from '../../ingest/datasets/13f/amendments.ts';
import { isValidCusip, normalizeCusip } from '../../ingest/sources/common/cusip.ts';
import { parse13fFiling } from '../../ingest/sources/edgar/funds/13f-xml.ts';
import { pickZipForPeriod } from '../../ingest/datasets/13f/windows.ts';

const base = { hasFigi: false, schemaVersion: 'X0202', filingDate: '2024-02-10', periodOfReport: '2023-12-31' };

describe('13F VALUE unit decision', () => {
  it('thousands era: median implied price of a few cents per share', () => {
    const d = decideValueUnit({ ...base, medianPrice: 0.0467, priceRows: 136, filingDate: '2013-05-21' });
    expect(d).toMatchObject({ unit: 'thousands', multiplier: 1000, basis: 'implied_price' });
    expect(d.reason).toContain('136 share rows');
  });
  it('dollars era: implied price in dollars', () => {
    expect(decideValueUnit({ ...base, medianPrice: 46.17, priceRows: 7 })).toMatchObject({ unit: 'dollars', multiplier: 1, basis: 'implied_price' });
  });
  it('a 2013 filer reporting dollars is read as dollars (price evidence beats the date)', () => {
    expect(decideValueUnit({ ...base, medianPrice: 39.17, priceRows: 28, filingDate: '2013-05-22' }).unit).toBe('dollars');
  });
  it('a 2025 filer still reporting thousands is read as thousands (mixed period)', () => {
    expect(decideValueUnit({ ...base, medianPrice: 0.052, priceRows: 80, filingDate: '2025-02-01' }).unit).toBe('thousands');
  });
  it('ambiguous price falls back to FIGI (schema), then to the filing date', () => {
    expect(decideValueUnit({ ...base, medianPrice: 1.2, priceRows: 3, hasFigi: true })).toMatchObject({ unit: 'dollars', basis: 'schema' });
    expect(decideValueUnit({ ...base, medianPrice: 1.2, priceRows: 3, filingDate: '2022-11-14' })).toMatchObject({ unit: 'thousands', basis: 'filing_date' });
    expect(decideValueUnit({ ...base, medianPrice: null, priceRows: 0, filingDate: '2023-03-23' })).toMatchObject({ unit: 'dollars', basis: 'filing_date' });
  });
  it('no filing date: the period decides', () => {
    expect(decideValueUnit({ ...base, medianPrice: null, priceRows: 0, filingDate: null, periodOfReport: '2021-12-31' })).toMatchObject({
      unit: 'thousands',
      basis: 'period',
    });
  });
});

const f = (accession: string, type: string, amendmentType: string | null, filingDate: string, acceptedAt: string | null = null): FilingOrderKey => ({
  accession,
  cik: '0000000001',
  periodOfReport: '2024-12-31',
  submissionType: type,
  amendmentType,
  isAmendment: type.endsWith('/A'),
  acceptedAt,
  filingDate,
});

describe('13F amendments', () => {
  it('RESTATEMENT replaces the original', () => {
    const s = resolveAmendments([f('0000000001-25-000001', '13F-HR', null, '2025-02-01'), f('0000000001-25-000002', '13F-HR/A', 'RESTATEMENT', '2025-02-10')]);
    expect(s.get('0000000001-25-000001')).toMatchObject({ isCurrent: false, supersededBy: '0000000001-25-000002', effect: 'original' });
    expect(s.get('0000000001-25-000002')).toMatchObject({ isCurrent: true, effect: 'restatement' });
  });
  it('NEW HOLDINGS adds to the original', () => {
    const s = resolveAmendments([f('0000000001-25-000001', '13F-HR', null, '2025-02-01'), f('0000000001-25-000002', '13F-HR/A', 'NEW HOLDINGS', '2025-02-10')]);
    expect([...s.values()].every((x) => x.isCurrent)).toBe(true);
  });
  it('a restatement also drops earlier NEW HOLDINGS amendments', () => {
    const s = resolveAmendments([
      f('0000000001-25-000001', '13F-HR', null, '2025-02-01'),
      f('0000000001-25-000002', '13F-HR/A', 'NEW HOLDINGS', '2025-02-02'),
      f('0000000001-25-000003', '13F-HR/A', 'RESTATEMENT', '2025-02-03'),
    ]);
    expect([...s.values()].filter((x) => x.isCurrent).map((x) => x.accession)).toEqual(['0000000001-25-000003']);
  });
  it('same filing date: acceptance time decides, then accession', () => {
    const byTime = resolveAmendments([
      f('0000000001-25-000009', '13F-HR/A', 'RESTATEMENT', '2025-02-01', '2025-02-01T09:00:00'),
      f('0000000001-25-000005', '13F-HR/A', 'RESTATEMENT', '2025-02-01', '2025-02-01T16:00:00'),
    ]);
    expect(byTime.get('0000000001-25-000005')!.isCurrent).toBe(true);
    const byAccession = resolveAmendments([
      f('0000000001-25-000009', '13F-HR/A', 'RESTATEMENT', '2025-02-01'),
      f('0000000001-25-000005', '13F-HR/A', 'RESTATEMENT', '2025-02-01'),
    ]);
    expect(byAccession.get('0000000001-25-000009')!.isCurrent).toBe(true);
    expect(byAccession.get('0000000001-25-000005')!.supersededBy).toBe('0000000001-25-000009');
  });
  it('notices carry no rows and replace nothing', () => {
    const s = resolveAmendments([f('0000000001-25-000001', '13F-HR', null, '2025-02-01'), f('0000000001-25-000002', '13F-NT', null, '2025-02-05')]);
    expect(s.get('0000000001-25-000001')!.isCurrent).toBe(true);
    expect(s.get('0000000001-25-000002')!.effect).toBe('notice');
  });
});

describe('CUSIP normalization', () => {
  it('validates the check digit', () => {
    expect(isValidCusip('037833100')).toBe(true);
    expect(isValidCusip('037833101')).toBe(false);
  });
  it('restores a lost leading zero only when the check digit agrees (real 2013 INFOTABLE value "53015103 ")', () => {
    expect(normalizeCusip('53015103 ')).toBe('053015103');
    expect(normalizeCusip('18538Q10 ')).toBe('18538Q10');
    expect(normalizeCusip(' 88579y101')).toBe('88579Y101');
  });
});

describe('data set window choice', () => {
  const urls = ['https://x/files/2023q4_form13f.zip', 'https://x/files/01dec2024-28feb2025_form13f.zip', 'https://x/files/01mar2025-31may2025_form13f.zip'];
  it('picks the zip whose filing window holds the 45-day deadline', () => {
    expect(pickZipForPeriod(urls, '2023Q3')).toBe(urls[0]);
    expect(pickZipForPeriod(urls, '2024Q4')).toBe(urls[1]);
    expect(pickZipForPeriod(urls, '2025Q1')).toBe(urls[2]);
    expect(pickZipForPeriod(urls, '2019Q1')).toBeNull();
  });
});

describe.skipIf(!hasFixtures)('13F-HR XML filings (real fixtures)', () => {
  it('dissemination .nc with ns1: prefixes: Acorn Creek 2024Q4, 77 lines', async () => {
    const p = await parse13fFiling(await readFixture('13f/13f-hr_acorn_creek_capital_2024Q4_dissemination.nc'));
    expect(p.filing).toMatchObject({
      accession_number: '0001951757-25-000093',
      cik: '0001994827',
      manager_name: 'ACORN CREEK CAPITAL LLC',
      period_of_report: '2024-12-31',
      filing_date: '2025-01-22',
      submission_type: '13F-HR',
      table_entry_total: 77,
      table_value_total_reported: 194611845,
      city: 'FORT COLLINS',
    });
    expect(p.rows).toHaveLength(77);
    expect(p.rows[0]).toMatchObject({
      issuer_name: 'ABBVIE INC',
      cusip_raw: '00287Y109',
      value_reported: 406755,
      shares: 2289,
      shares_type: 'SH',
      voting_none: 2289,
      line_no: 1,
    });
  });
  it('full submission .txt filed 2023 for period 2021: MetLife, dollars by implied price', async () => {
    const p = await parse13fFiling(await readFixture('13f/13f-hr_metlife_2021Q4_full_submission.txt'));
    expect(p.filing).toMatchObject({
      accession_number: '0001140361-23-013281',
      cik: '0001099219',
      filing_date: '2023-03-23',
      accepted_at: '2023-03-23T11:27:45',
      report_type: '13F COMBINATION REPORT',
      table_value_total_reported: 11019796,
      previous_accession: null,
      signature_name: 'Steven Goulart',
      signature_title: 'EVP & Chief Investment Officer',
      signature_phone: '973-355-4814',
      signature: '/s/ Steven Goulart',
      signature_city: 'WHIPPANY',
      signature_state_or_country: 'NJ',
      signature_date: '2023-03-22',
      other_included_managers: null,
    });
    // The cover page's otherManagersInfo: the other managers reporting for MetLife.
    expect(JSON.parse(p.filing!.other_managers!)).toEqual([
      { cik: '0000931588', form13f_file_number: '028-16107', crd_number: null, sec_file_number: null, name: 'PROVIDA PENSION FUND ADMINISTRATOR' },
      { cik: '0000728618', form13f_file_number: '028-00491', crd_number: null, sec_file_number: null, name: 'METROPOLITAN LIFE INSURANCE CO/NY' },
      {
        cik: '0001529735',
        form13f_file_number: '028-18628',
        crd_number: '000142463',
        sec_file_number: '801-67314',
        name: 'MetLife Investment Management, LLC',
      },
    ]);
    expect(p.rows[0]).toMatchObject({
      issuer_name: 'ISHARES MSCI CHILE ETF',
      cusip_raw: '464286640',
      value_reported: 2049983,
      shares: 98000,
      investment_discretion: 'DFND',
      voting_shared: 98000,
    });
    const d = decideValueUnit({
      medianPrice: 2049983 / 98000,
      priceRows: 1,
      hasFigi: false,
      schemaVersion: 'X0202',
      filingDate: '2023-03-23',
      periodOfReport: '2021-12-31',
    });
    expect(d.unit).toBe('dollars');
  });
  it('LTS One 2023Q3 full submission: 14 lines summing to the summary page', async () => {
    const p = await parse13fFiling(await readFixture('13f/13f-hr_lts_one_management_2023Q3_full_submission.txt'));
    expect(p.filing!.table_value_total_reported).toBe(454926000);
    expect(p.rows).toHaveLength(14);
    expect(p.rows.reduce((a, r) => a + (r.value_reported ?? 0), 0)).toBe(454926000);
  });
  it('bare information table: 255 lines, sum 350,153,407', async () => {
    const p = await parse13fFiling(await readFixture('13f/13f-hr_information_table_255_rows.xml'));
    expect(p.filing).toBeNull();
    expect(p.rows).toHaveLength(255);
    expect(p.rows.reduce((a, r) => a + (r.value_reported ?? 0), 0)).toBe(350153407);
  });
  it('otherManager sequence lists are kept as filed', async () => {
    const p = await parse13fFiling(await readFixture('13f/13f-hr_information_table_large_manager_otherManager.xml'));
    expect(p.rows).toHaveLength(172);
    expect(p.rows.some((r) => r.other_manager === '4,8,11')).toBe(true);
    expect(p.rows.reduce((a, r) => a + (r.value_reported ?? 0), 0)).toBe(299007622119);
  });
  it('cover page only: Abacus 2020Q4', async () => {
    const p = await parse13fFiling(await readFixture('13f/13f-hr_abacus_wealth_2020Q4_primary_doc.xml'), { accession: '0000000000-21-000001' });
    expect(p.filing).toMatchObject({ table_entry_total: 92, table_value_total_reported: 114663960, period_of_report: '2020-12-31', schema_version: 'X0202' });
  });
});
