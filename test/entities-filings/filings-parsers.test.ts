import { describe, expect, it } from 'vitest';
import { fixturePath, hasFixtures } from '../support/fixtures.ts';
import { parseIndexLine, readIndexFile, type IndexLine } from '../../ingest/sources/edgar/bulk/idx.ts';
import { buildFilingRow } from '../../ingest/datasets/filings/rows.ts';
import { lateForForm, ntRow } from '../../schemas/tables/nt-late.ts';

async function readAll(rel: string) {
  const rows: IndexLine[] = [];
  const errors: { error: string; lineNo: number }[] = [];
  for await (const r of readIndexFile(fixturePath(rel))) 'error' in r ? errors.push(r) : rows.push(r.row);
  return { rows, errors };
}

describe.skipIf(!hasFixtures)('EDGAR index files (real samples)', () => {
  it('daily form.idx 2020-03-18: fixed width, YYYYMMDD dates, every line parsed', async () => {
    const { rows, errors } = await readAll('index/daily-index_form.20200318.idx');
    expect(errors).toEqual([]);
    expect(rows[0]).toEqual({
      cik: '0001806014',
      company: 'DLP Positive Note Fund LLC',
      form: '1-A',
      filedDate: '2020-03-18',
      accession: '0001140361-20-006155',
      filename: 'edgar/data/1806014/0001140361-20-006155.txt',
    });
    expect(rows.find((r) => r.accession === '0001010549-20-000033')).toMatchObject({ form: '1-A POS', company: 'Belpointe REIT, Inc.' });
    const nt = rows.filter((r) => r.form.startsWith('NT '));
    expect(nt.map((r) => r.form)).toEqual(expect.arrayContaining(['NT 10-K', 'NT 10-K/A', 'NT 10-Q', 'NT 10-Q/A']));
    expect(nt.find((r) => r.form === 'NT 10-K')).toMatchObject({ cik: '0001376339', company: 'MIMEDX GROUP, INC.', accession: '0001376339-20-000010' });
  });

  it('daily company.idx 2022-10-03: the title row wrapped across two lines is skipped', async () => {
    const { rows, errors } = await readAll('index/daily-index_company.20221003.idx');
    expect(errors).toEqual([]);
    expect(rows[0]).toEqual({
      cik: '0001700461',
      company: '1st stREIT Office Inc.',
      form: '1-A POS',
      filedDate: '2022-10-03',
      accession: '0001104659-22-105357',
      filename: 'edgar/data/1700461/0001104659-22-105357.txt',
    });
    expect(rows.find((r) => r.cik === '0001779476')).toMatchObject({ form: 'SC 13D/A', company: '36Kr Holdings Inc.' });
  });

  it('daily master.idx excerpt: pipe-delimited, YYYYMMDD normalized, no trailing newline', async () => {
    const { rows } = await readAll('index/daily-index_master.20181231_excerpt.idx');
    expect(rows).toHaveLength(10);
    expect(rows.at(-1)).toEqual({
      cik: '0000010048',
      company: 'BARNWELL INDUSTRIES INC',
      form: '4',
      filedDate: '2018-12-31',
      accession: '0000899681-18-000091',
      filename: 'edgar/data/10048/0000899681-18-000091.txt',
    });
  });

  it('quarterly form.idx 2021Q1: a name that fills its column still splits (X-17A-5 UNITED PLANNERS…)', async () => {
    const { rows, errors } = await readAll('index/full-index_form_2021QTR1_excerpt.idx');
    expect(errors).toEqual([]);
    expect(rows.find((r) => r.cik === '0000820694')).toEqual({
      cik: '0000820694',
      company: "UNITED PLANNERS' FINANCIAL SERVICES OF AMERICA A LIMITED PARTNER",
      form: 'X-17A-5',
      filedDate: '2021-02-24',
      accession: '9999999997-21-003146',
      filename: 'edgar/data/820694/9999999997-21-003146.txt',
    });
    // Quirk kept by the source: one accession listed under two form types (1-A and 1-A POS).
    expect(rows.filter((r) => r.accession === '0001477932-21-001700').map((r) => r.form)).toEqual(['1-A', '1-A POS']);
  });

  it('quarterly master.idx 1993Q4: accession year differs from the filing year', async () => {
    const { rows } = await readAll('index/full-index_master_1993QTR4_excerpt.idx');
    expect(rows.find((r) => r.cik === '0000029082')).toMatchObject({
      company: 'DISNEY WALT CO',
      form: '10-K',
      filedDate: '1993-12-22',
      accession: '0000950131-94-000021',
    });
  });

  it('header-only form.idx gives no rows and no errors', async () => {
    expect(await readAll('index/full-index_form_empty.idx')).toEqual({ rows: [], errors: [] });
  });
});

describe('index line edge cases', () => {
  it('a pipe inside a company name is re-joined', () => {
    expect(parseIndexLine('123|A|B CORP|10-K|2024-02-14|edgar/data/123/0000000123-24-000001.txt', 'master')).toMatchObject({
      company: 'A|B CORP',
      form: '10-K',
    });
  });
  it('bad date and bad CIK are reported, not guessed', () => {
    expect(parseIndexLine('123|X|10-K|2024-13-01|edgar/data/123/0000000123-24-000001.txt', 'master')).toEqual({ error: 'Date Filed is not a valid date' });
    expect(parseIndexLine('12a|X|10-K|2024-01-01|edgar/data/123/0000000123-24-000001.txt', 'master')).toEqual({ error: 'CIK is not numeric' });
  });
});

describe('filing rows', () => {
  const idx: IndexLine = {
    cik: '0000320193',
    company: 'APPLE INC',
    form: '8-K',
    filedDate: '2024-02-01',
    accession: '0000320193-24-000006',
    filename: 'edgar/data/320193/0000320193-24-000006.txt',
  };
  const sub = {
    accession: '0000320193-24-000006',
    cik: '0000320193',
    form: '8-K',
    filed_date: '2024-02-01',
    report_date: '2024-02-01',
    acceptance_datetime: '2024-02-01T16:30:33',
    act: '34',
    file_number: '001-36743',
    film_number: '24588888',
    items: '2.02,9.01',
    size: 12345,
    is_xbrl: true,
    is_inline_xbrl: true,
    primary_document: 'aapl-20240201.htm',
    primary_doc_description: '8-K',
    entityName: 'Apple Inc.',
  };
  it('index + submissions: conformed name from the index, items and URLs from submissions', () => {
    const r = buildFilingRow(idx, sub, null);
    expect(r).toMatchObject({
      company: 'APPLE INC',
      items: '2.02,9.01',
      filed_quarter: '2024Q1',
      base_form: '8-K',
      is_amendment: false,
      detail_source: 'index+submissions',
    });
    expect(r.primary_document_url).toBe('https://www.sec.gov/Archives/edgar/data/320193/000032019324000006/aapl-20240201.htm');
    expect(r.index_url).toBe('https://www.sec.gov/Archives/edgar/data/320193/000032019324000006/0000320193-24-000006-index.htm');
  });
  it('a later index-only run keeps the enrichment already in the lake', () => {
    const prev = buildFilingRow(null, sub, null);
    expect(prev.detail_source).toBe('submissions');
    const r = buildFilingRow(idx, null, prev);
    expect(r).toMatchObject({ company: 'APPLE INC', items: '2.02,9.01', acceptance_datetime: '2024-02-01T16:30:33', detail_source: 'index+submissions' });
  });
  it('NT forms map to the late report form', () => {
    expect(lateForForm('NT 10-K')).toBe('10-K');
    expect(lateForForm('NT 10-Q/A')).toBe('10-Q');
    expect(lateForForm('NT NCSR')).toBe('N-CSR');
    expect(lateForForm('10-K')).toBeNull();
    const nt = ntRow(buildFilingRow({ ...idx, form: 'NT 10-K/A' }, null, null))!;
    expect(nt).toMatchObject({ form_type: 'NT 10-K/A', late_for_form: '10-K', is_amendment: true, filer_cik: '0000320193', filing_date: '2024-02-01' });
  });
});
