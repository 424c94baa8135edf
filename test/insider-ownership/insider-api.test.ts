import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixturePath, hasFixtures } from '../support/fixtures.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import insiderRoutes from '../../api/insider/routes.ts';
import datasetInsider from '../../ingest/datasets/insider/dataset.ts';
import { tempDir } from '../support/temp-dir.ts';

const FILINGS = [
  'form4_2seventybio_snow_2025-01-06_dissemination.nc',
  'form4_arrow_electronics_2025-02-12_dissemination.nc',
  'form4_apple_adams_2022-05-04_full_submission.txt',
  'form4_better_home_softbank_2024-12-09_multi_owner_C.xml',
  'form4_ziprecruiter_travers_2025-03-15_RSU_M_F.xml',
  'form4_nicholas_applegate_lemesevski_2007-08-17_P_purchase_full_submission.txt',
  'form4_productivity_technologies_2000_pre_xml_text.txt',
];

describe.skipIf(!hasFixtures)('/v1/insider over the real data set subset and real ownership filings', () => {
  let app: TestApp;
  let dsSummary: Awaited<ReturnType<TestApp['ingest']>>;
  let xmlSummary: Awaited<ReturnType<TestApp['ingest']>>;
  beforeAll(async () => {
    app = await createTestApp({ routes: insiderRoutes });
    dsSummary = await app.ingest(datasetInsider, { from: fixturePath('datasets/insider_transactions_form345') }, { skipDiff: true });
    const dir = tempDir('insider-filings-');
    for (const f of FILINGS) await symlink(fixturePath(`ownership/${f}`), join(dir, f));
    xmlSummary = await app.ingest(datasetInsider, { from: dir }, { skipDiff: true });
  });
  afterAll(async () => app?.close());

  it('ingest: data set rows (580 derivative transactions, 323 holdings) and XML rows; the pre-XML text filing is a bad row', () => {
    expect(dsSummary.tables.map((t) => [t.table, t.partitions])).toEqual([
      ['insider_transactions', [{ value: '2024Q3', rows: 580 }]],
      ['insider_holdings', [{ value: '2024Q3', rows: 323 }]],
    ]);
    expect(dsSummary.badRows).toBe(0);
    expect(xmlSummary.badRows).toBe(1);
    expect(xmlSummary.badRowSamples[0]).toMatchObject({
      file: 'form4_productivity_technologies_2000_pre_xml_text.txt',
      reason: 'no ownershipDocument XML in the input',
    });
    // 1 (2007) + 7 (Adams) + 2 + 2 + 2 + 9 (2025)
    expect(xmlSummary.rowsWritten).toBe(23);
  });

  it('data set row: derivative grant with footnoted exercise date, DD-MON-YYYY dates parsed', async () => {
    const r = await app.get('/v1/insider?issuer_cik=1836754');
    expect(r.status).toBe(200);
    const row = r.body.data.find((x: any) => x.accession === '0001493152-24-038908');
    expect(row).toMatchObject({
      form_type: '4',
      filed_date: '2024-09-30',
      period_of_report: '2024-09-27',
      issuer: { cik: '0001836754', name: 'Legacy Education Inc.', ticker: 'LGCY' },
      derivative: true,
      security_title: 'Option (Right to Buy)',
      transaction_date: '2024-09-27',
      trans_code: 'A',
      shares: 250000,
      price_per_share: 0,
      acquired_disposed: 'A',
      shares_owned_after: 250000,
      direct_indirect: 'D',
      conversion_or_exercise_price: 4,
      expiration_date: '2034-09-27',
      underlying_security_title: 'Common Stock',
      source_kind: 'data_set',
      source_url: 'https://www.sec.gov/Archives/edgar/data/1836754/000149315224038908/0001493152-24-038908-index.htm',
    });
    expect(row.footnotes).toEqual([{ field: 'exerciseDate', id: 'F1', text: null }]);
    // OWNER_SIGNATURE.tsv: DD-MON-YYYY date as ISO.
    expect(row.signatures).toEqual([{ name: '/s/ LeeAnn Rohmann', date: '2024-09-30' }]);
  });

  it('XML rows: owners, relationship, price footnotes, 10b5-1 flag; ticker and code filters', async () => {
    const r = await app.get('/v1/insider?ticker=aapl&trans_code=S');
    expect(r.status).toBe(200);
    expect(r.body.data.map((x: any) => [x.row_seq, x.shares, x.price_per_share, x.shares_owned_after])).toEqual([
      [1, 9136, 159.94, 468198],
      [2, 5316, 160.82, 462882],
      [3, 4006, 161.93, 458876],
      [4, 900, 162.77, 457976],
      [5, 1550, 163.94, 456426],
      [6, 1800, 165.06, 454626],
      [7, 2292, 165.95, 452334],
    ]);
    const first = r.body.data[0];
    expect(first).toMatchObject({
      accession: '0000320193-22-000061',
      filed_date: '2022-05-06',
      form_type: '4',
      relationship: 'Officer',
      officer_title: 'SVP, GC and Secretary',
      owners: [{ cik: '0001462356', name: 'Adams Katherine L.', relationships: ['Officer'], officer_title: 'SVP, GC and Secretary', other_text: null }],
      value_usd: 1461211.84,
      aff10b5one: null,
      signatures: [{ name: '/s/ Sam Whittington, Attorney-in-Fact for Katherine L. Adams', date: '2022-05-06' }],
      source_kind: 'xml',
    });
    expect(first.price_footnote).toMatch(/^This transaction was executed in multiple trades/);
    expect(r.body.query_echo).toMatchObject({ ticker: 'AAPL', trans_code: ['S'] });
  });

  it('owner_cik matches any of the joint owners; price given only in a footnote stays null', async () => {
    const r = await app.get('/v1/insider?owner_cik=1990707&derivative=false');
    expect(r.body.data).toHaveLength(1);
    const row = r.body.data[0];
    expect(row.owners).toHaveLength(8);
    expect(row).toMatchObject({ trans_code: 'C', shares: 628553, price_per_share: null, value_usd: null, relationship: 'TenPercentOwner', aff10b5one: false });
    expect(row.price_footnote).toMatch(/^Each outstanding share of Class B Common Stock/);
  });

  it('purchase filters: acquired_disposed, min_value_usd, date range, owner and issuer substrings', async () => {
    const r = await app.get(
      '/v1/insider?trans_code=P&acquired_disposed=a&min_value_usd=3000&date_from=2007-01-01&date_to=2007-12-31&owner=lemesev&issuer=applegate',
    );
    expect(r.body.data.map((x: any) => [x.accession, x.shares, x.price_per_share, x.value_usd, x.relationship])).toEqual([
      ['0001240812-07-000005', 300, 11.75, 3525, 'Other'],
    ]);
    expect((await app.get('/v1/insider?trans_code=P&issuer=applegate&min_value_usd=3526')).body.data).toEqual([]);
  });

  it('empty result is a 200 with a warning', async () => {
    const r = await app.get('/v1/insider?issuer_cik=1');
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual([]);
    expect(r.body.warnings[0].code).toBe('empty_result');
  });

  it('keyset pages cover the whole result without repeats', async () => {
    const seen = new Set<string>();
    let cursor: string | null = null;
    let pages = 0;
    do {
      const q: string = `/v1/insider?derivative=true&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const r = await app.get(q);
      expect(r.status).toBe(200);
      for (const x of r.body.data) seen.add(`${x.accession}/${x.row_seq}`);
      cursor = r.body.page.next_cursor;
      pages++;
    } while (cursor && pages < 20);
    // 580 data-set rows (DERIV_TRANS subset) + Table II rows of the XML filings: 1 (2seventy) + 1 (SoftBank) + 4 (ZipRecruiter).
    expect(seen.size).toBe(586);
  });

  it('422 on bad parameters, naming each one', async () => {
    const r = await app.get('/v1/insider?issuer_cik=abc&trans_code=Q&acquired_disposed=X&derivative=maybe&date_from=2024-13-01&min_value_usd=-1');
    expect(r.status).toBe(422);
    expect(r.body.detail.map((d: any) => d.loc[1]).sort()).toEqual([
      'acquired_disposed',
      'date_from',
      'derivative',
      'issuer_cik',
      'min_value_usd',
      'trans_code',
    ]);
    const range = await app.get('/v1/insider?date_from=2024-02-01&date_to=2024-01-01');
    expect(range.status).toBe(422);
    expect(range.body.detail[0].loc).toEqual(['query', 'date_to']);
  });
});
