import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { fixturePath, hasFixtures } from '../support/fixtures.ts';
import { classify8kItems, itemNumbersFromTitles } from '../../ingest/sources/edgar/archive/classify-8k.ts';
import { parseExhibit21 } from '../../ingest/sources/edgar/archive/ex21.ts';
import { extractItem } from '../../ingest/sources/edgar/archive/extract.ts';
import { parseFilingIndexHtml } from '../../ingest/sources/edgar/archive/filing-index.ts';
import { decodeBody } from '../../ingest/sources/edgar/archive/filing-store.ts';
import { parseSubmission } from '../../ingest/sources/edgar/sgml.ts';

/**
 * The parser quality table: every parser over every real filing of its kind in the fixtures, against
 * hand-checked expectations (item boundaries by first and last words, checked against the neighbouring
 * headings in the source; 8-K item lists read off the documents; Exhibit 21 counts and sample rows counted in the
 * HTML). The pass rate is printed at the end.
 */

const results: boolean[] = [];
afterAll(() => {
  if (results.length)
    console.log(
      `[parser-quality] ${results.filter(Boolean).length}/${results.length} cases pass ` +
        `(${((100 * results.filter(Boolean).length) / results.length).toFixed(1)}%)`,
    );
});
function check(fn: () => void): void {
  try {
    fn();
    results.push(true);
  } catch (err) {
    results.push(false);
    throw err;
  }
}

/** The main document of a fixture: the file itself, or document 1 of a submission. */
function mainDoc(rel: string): { body: string; headerItems: string[]; filed: string | null } {
  const raw = decodeBody(readFileSync(fixturePath(rel)));
  if (/\.(txt|nc)$/.test(rel) && raw.includes('<DOCUMENT>')) {
    const s = parseSubmission(raw);
    const legacy = (s.header.filed ?? '9999') < '2004-08-23';
    const items = s.header.items.every((i) => /^\d/.test(i)) ? s.header.items : itemNumbersFromTitles(s.header.items, legacy);
    return { body: s.documents[0]!.body, headerItems: items, filed: s.header.filed };
  }
  return { body: raw, headerItems: [], filed: null };
}

const words = (t: string) => t.split(/\s+/).filter(Boolean);

// [fixture, form, item, first words, last words] — null words: the item must be absent.
const EXTRACT: [string, string, string, string | null, string | null][] = [
  [
    '10k/10k_apple_fy2024_2024-11-01_primary.htm',
    '10-K',
    '1A',
    'The Company’s business, reputation, results of',
    'on investor confidence and employee retention.',
  ],
  ['10k/10k_apple_fy2024_2024-11-01_primary.htm', '10-K', '1C', 'The Company’s management, led by its', '10-K under the heading “Risk Factors.”'],
  [
    '10k/10k_apple_fy2024_2024-11-01_primary.htm',
    '10-K',
    '7',
    'The following discussion should be read',
    'Company’s financial condition and operating results.',
  ],
  ['10k/10k_apple_fy2024_2024-11-01_primary.htm', '10-K', '7A', 'The Company is exposed to economic', 'of the Company’s foreign currency derivatives.'],
  ['10k/10k_apple_fy2024_2024-11-01_primary.htm', '10-K', '16', 'None.', 'None.'],
  ['10k/10k_ibm_fy2024_2025-02-25_primary.htm', '10-K', '1A', 'Risks Related to Our Business Downturn', 'liquidity or value of such securities.'],
  ['10k/10k_ibm_fy2024_2025-02-25_primary.htm', '10-K', '7', 'Refer to pages 6 through 42', 'which are incorporated herein by reference.'],
  ['10k/10k_ibm_fy2024_2025-02-25_primary.htm', '10-K', '7A', 'Refer to the section titled “Market', 'which is incorporated herein by reference.'],
  [
    '10k/10k_union_pacific_fy2024_2025-02-07_primary.htm',
    '10-K',
    '1A',
    'The following discussion addresses significant factors,',
    'to the transportation services we offer.',
  ],
  [
    '10k/10k_union_pacific_fy2024_2025-02-07_primary.htm',
    '10-K',
    '7',
    'The following discussion should be read',
    'with respect to other forward-looking statements.',
  ],
  ['10k/10k_union_pacific_fy2024_2025-02-07_primary.htm', '10-K', '1C', 'Risk Management and Strategy The Company', 'updates on cybersecurity from the CISO.'],
  [
    '10k/10k_medicis_pharmaceutical_fy1999_0000950153-99-001234_primary.htm',
    '10-K',
    '1',
    'The Company Medicis is the leading',
    'or development could be substantially diminished.',
  ],
  ['10k/10k_medicis_pharmaceutical_fy1999_0000950153-99-001234_primary.htm', '10-K', '1A', null, null],
  [
    '10k/10k_medicis_pharmaceutical_fy1999_0000950153-99-001234_primary.htm',
    '10-K',
    '7',
    'Information required by this item is',
    'the 1999 Annual Report to Shareholders.',
  ],
  [
    '10k/10k_commonwealth_income_growth_fund_v_fy2015_0001376474-16-000635_primary.htm',
    '10-K',
    '7',
    'The following is a discussion of',
    'revenue and expenses as discussed above.',
  ],
  ['10k/10k_commonwealth_income_growth_fund_v_fy2015_0001376474-16-000635_primary.htm', '10-K', '1A', 'NOT APPLICABLE', 'NOT APPLICABLE'],
  ['10k/10k_roanoke_electric_steel_legacy.htm', '10-K', '1', '(a) General Development of Business. Roanoke', 'information pertaining to the United States.'],
  ['10k/10k_roanoke_electric_steel_legacy.htm', '10-K', '7A', 'The specific information required by this', 'derivative contracts at October 31, 2003.'],
  ['10k/10k_tgfin_holdings_fy2009_full_submission.txt', '10-K', '1A', 'As a smaller reporting company, we', 'not required to provide risk factors.'],
  ['10k/10k_tgfin_holdings_fy2009_full_submission.txt', '10-K', '7', 'The following discussion should be read', "volatility of the Company's common stock."],
  [
    '10k/10k_carmax_auto_owner_trust_2019-3_fy2023_abs_full_submission.txt',
    '10-K',
    '15',
    '(a)(1) Not applicable. (a)(2) Not applicable.',
    'the Exhibit Index. (c) Not applicable.',
  ],
  ['10q/10q_apple_q3fy2025_2025-08-01_primary.htm', '10-Q', 'I-2', 'This Item and other sections of', 'estimates since the 2024 Form 10-K.'],
  ['10q/10q_apple_q3fy2025_2025-08-01_primary.htm', '10-Q', 'II-1A', 'The Company’s business, reputation, results of', 'factors since the 2024 Form 10-K.'],
  [
    '10q/10q_apple_q3fy2025_2025-08-01_primary.htm',
    '10-Q',
    'I-4',
    'Evaluation of Disclosure Controls and Procedures',
    'Company’s internal control over financial reporting.',
  ],
  ['10q/10q_apple_q3fy2025_2025-08-01_primary.htm', '10-Q', 'II-3', 'None.', 'None.'],
  ['10q/10q_apple_computer_2000-04-01_full_submission.txt', '10-Q', '2', 'THIS SECTION AND OTHER PARTS OF', "in the Company's 1999 Form 10-K."],
  [
    '10q/10q_apple_computer_2000-04-01_full_submission.txt',
    '10-Q',
    'II-1',
    'The Company is subject to various',
    'financial condition or results of operations.',
  ],
  [
    '8k/8k_nordstrom_2023-03-01_item5.02_9.01_primary.htm',
    '8-K',
    '5.02',
    'e) Compensatory Arrangements of Certain Officers',
    'this Current Report on Form 8-K.',
  ],
  ['8k/8k_oracle_item5.07_primary.htm', '8-K', '5.07', 'On November 14, 2024, Oracle Corporation', 'shares abstaining and 250,464,124 broker non-votes.'],
  ['8k/8k_nextpoint_item8.01_primary.htm', '8-K', '8.01', 'Effective December 19, 2023 the board', 'new information, future events or otherwise.'],
  ['8k/8k_meta_2025-12-19_item5.02_full_submission.txt', '8-K', '5.02', '(b) On December 19, 2025, Dina', 'Directors of the Company, effective immediately.'],
  ['8k/8k_exelon_2005-04-26_item5.02_full_submission.txt', '8-K', '5.02', 'On April 26, 2005, the board', null],
  ['8k/8k_abvc_biopharma_2025-04-15_items2.02_4.02_7.01_9.01_full_submission.txt', '8-K', '7.01', 'Item 2.02 of this Current Report', null],
];

// Items each 8-K reports, read off the documents (headings), legacy numbering before 2004-08-23.
const CLASSIFY: [string, string[]][] = [
  ['8k/8k_0000887919-21-000012_items8.01_9.01_primary.htm', ['8.01', '9.01']],
  ['8k/8k_0001104659-03-004925_2003_pre2004_item_numbering.htm', ['9']],
  ['8k/8k_0001437749-16-028287_items2.02_9.01_primary.htm', ['2.02', '9.01']],
  ['8k/8k_1800flowers_item5.07_primary.htm', ['5.07']],
  ['8k/8k_1895_bancorp_wisconsin_2024-12-20_item5.02_full_submission.txt', ['5.02']],
  ['8k/8k_3m_2024-03-08_item8.01_full_submission.txt', ['8.01', '9.01']],
  ['8k/8k_aames_capital_1998-12-15_full_submission.txt', ['7']],
  ['8k/8k_abvc_biopharma_2025-04-15_items2.02_4.02_7.01_9.01_full_submission.txt', ['2.02', '4.02', '7.01', '9.01']],
  ['8k/8k_acorn_energy_2025-01-06_items5.02_9.01_dissemination.nc', ['5.02', '9.01']],
  ['8k/8k_adobe_2023-03-15_items2.02_9.01_full_submission.txt', ['2.02', '9.01']],
  ['8k/8k_adobe_2023-03-15_primary.htm', ['2.02', '9.01']],
  ['8k/8k_afc_gamma_items5.02_7.01_9.01_primary.htm', ['5.02', '7.01', '9.01']],
  ['8k/8k_blackrock_2023-02-24_item5.02_full_submission.txt', ['5.02']],
  ['8k/8k_blackrock_2023-02-24_primary.htm', ['5.02']],
  ['8k/8k_buckle_ex99.1_press_release.htm', []],
  ['8k/8k_buckle_items2.02_9.01_primary.htm', ['2.02', '9.01']],
  ['8k/8k_exelon_2005-04-26_item5.02_full_submission.txt', ['5.02']],
  ['8k/8k_home_health_corp_america_1997-01-10_items2_7_plain_text.txt', ['2', '7']],
  ['8k/8k_marygold_2022-03-09_items1.01_7.01_9.01_primary.htm', ['1.01', '7.01', '9.01']],
  ['8k/8k_marygold_2022-04-18_items5.02_9.01_primary.htm', ['5.02', '9.01']],
  ['8k/8k_meta_2025-12-19_item5.02_full_submission.txt', ['5.02']],
  ['8k/8k_meta_2025-12-19_primary.htm', ['5.02']],
  ['8k/8k_nextpoint_item8.01_primary.htm', ['8.01']],
  ['8k/8k_nordstrom_2023-03-01_item5.02_9.01_primary.htm', ['5.02', '9.01']],
  ['8k/8k_oracle_item5.07_primary.htm', ['5.07']],
  ['8k/8k_sandisk_2010-01-28_items2.02_9.01_primary.htm', ['2.02', '9.01']],
];

// [fixture, accession, form, filed, documents (= <DOCUMENT> blocks), header items]
const SUBMISSIONS: [string, string, string, string, number, string[]][] = [
  ['10k/10k_carmax_auto_owner_trust_2019-3_fy2023_abs_full_submission.txt', '0001779026-23-000027', '10-K', '2023-05-26', 7, []],
  ['10k/10k_tesla_fy2019_header_minimal.txt', '0001564590-20-004475', '10-K', '2020-02-13', 2, []],
  ['10k/10k_tgfin_holdings_fy2009_full_submission.txt', '0001010412-10-000078', '10-K', '2010-04-06', 4, []],
  ['10q/10q_apple_computer_2000-04-01_full_submission.txt', '0000912057-00-023442', '10-Q', '2000-05-11', 5, []],
  [
    '8k/8k_1895_bancorp_wisconsin_2024-12-20_item5.02_full_submission.txt',
    '0000943374-24-000509',
    '8-K',
    '2024-12-27',
    12,
    ['Departure of Directors or Certain Officers; Election of Directors; Appointment of Certain Officers: Compensatory Arrangements of Certain Officers'],
  ],
  ['8k/8k_3m_2024-03-08_item8.01_full_submission.txt', '0000066740-24-000023', '8-K', '2024-03-08', 14, ['Other Events']],
  ['8k/8k_aames_capital_1998-12-15_full_submission.txt', '0001011438-98-000429', '8-K', '1998-12-31', 2, []],
  [
    '8k/8k_abvc_biopharma_2025-04-15_items2.02_4.02_7.01_9.01_full_submission.txt',
    '0001213900-25-032135',
    '8-K',
    '2025-04-15',
    14,
    [
      'Results of Operations and Financial Condition',
      'Non-Reliance on Previously Issued Financial Statements or a Related Audit Report or Completed Interim Review',
      'Regulation FD Disclosure',
      'Financial Statements and Exhibits',
    ],
  ],
  ['8k/8k_acorn_energy_2025-01-06_items5.02_9.01_dissemination.nc', '0001493152-25-001317', '8-K', '2025-01-08', 13, ['5.02', '9.01']],
  [
    '8k/8k_adobe_2023-03-15_items2.02_9.01_full_submission.txt',
    '0000796343-23-000044',
    '8-K',
    '2023-03-15',
    15,
    ['Results of Operations and Financial Condition', 'Financial Statements and Exhibits'],
  ],
  [
    '8k/8k_blackrock_2023-02-24_item5.02_full_submission.txt',
    '0001193125-23-048785',
    '8-K',
    '2023-02-24',
    13,
    ['Departure of Directors or Certain Officers; Election of Directors; Appointment of Certain Officers: Compensatory Arrangements of Certain Officers'],
  ],
  [
    '8k/8k_exelon_2005-04-26_item5.02_full_submission.txt',
    '0000950137-05-004969',
    '8-K',
    '2005-04-27',
    1,
    ['Departure of Directors or Principal Officers; Election of Directors; Appointment of Principal Officers'],
  ],
  [
    '8k/8k_home_health_corp_america_1997-01-10_items2_7_plain_text.txt',
    '0001000685-97-000006',
    '8-K',
    '1997-01-27',
    1,
    ['Acquisition or disposition of assets', 'Financial statements and exhibits'],
  ],
  [
    '8k/8k_meta_2025-12-19_item5.02_full_submission.txt',
    '0001628280-25-058337',
    '8-K',
    '2025-12-19',
    12,
    ['Departure of Directors or Certain Officers; Election of Directors; Appointment of Certain Officers: Compensatory Arrangements of Certain Officers'],
  ],
  ['ownership/form4_2seventybio_snow_2025-01-06_dissemination.nc', '0001562180-25-000280', '4', '2025-01-08', 1, []],
  ['ownership/form4_apple_adams_2022-05-04_full_submission.txt', '0000320193-22-000061', '4', '2022-05-06', 1, []],
  ['ownership/form4_arrow_electronics_2025-02-12_dissemination.nc', '0001127602-25-004598', '4', '2025-02-13', 1, []],
  ['ownership/form4_nicholas_applegate_lemesevski_2007-08-17_P_purchase_full_submission.txt', '0001240812-07-000005', '4', '2007-08-17', 1, []],
  ['ownership/form4_productivity_technologies_2000_pre_xml_text.txt', '0001094891-00-000193', '4', '2000-03-14', 1, []],
];

// [fixture, accession, form, documents listed (XSL views excluded), 8-K items]
const INDEX_PAGES: [string, string, string, number, string[]][] = [
  ['8k/8k_nordstrom_2023-03-01_filing_index.html', '0000072333-23-000015', '8-K', 9, ['5.02', '9.01']],
  ['8k/8k_adobe_2023-03-15_filing_index.html', '0000796343-23-000044', '8-K', 9, ['2.02', '9.01']],
  ['10q/10q_apple_computer_2000-04-01_filing_index.html', '0000912057-00-023442', '10-Q', 6, []],
  ['index/filing_index_0000950142-22-003095.html', '0000950142-22-003095', '4', 2, []],
  ['index/filing_index_UPLOAD_0000000000-26-001655_sec_staff_letter.html', '0000000000-26-001655', 'UPLOAD', 3, []],
  ['index/filing_index_def14a_t_rowe_price_funds_0001741773-23-002051_many_series.html', '0001741773-23-002051', 'DEF 14A', 6, []],
];

describe.skipIf(!hasFixtures)('parser quality table', () => {
  describe('item extractor', () => {
    it.each(EXTRACT)('%s item %s… %s', (rel, form, item, first, last) =>
      check(() => {
        const s = extractItem(mainDoc(rel).body, form, item);
        if (first === null) return expect(s).toBeNull();
        expect(s).not.toBeNull();
        const w = words(s!.text);
        expect(w.slice(0, words(first).length).join(' ')).toBe(first);
        if (last !== null) expect(w.slice(-words(last).length).join(' ')).toBe(last);
      }),
    );
  });

  describe('8-K item classifier', () => {
    it.each(CLASSIFY)('%s reports %j', (rel, items) =>
      check(() => {
        const d = mainDoc(rel);
        const found = classify8kItems(d.body, d.headerItems);
        expect(found.map((f) => f.item)).toEqual(items);
        for (const f of found) expect(f.title.length).toBeGreaterThan(5);
      }),
    );

    it('a mention of another item inside the text is not a reported item (ABVC 7.01 cites Item 2.02)', () =>
      check(() => {
        const d = mainDoc('8k/8k_abvc_biopharma_2025-04-15_items2.02_4.02_7.01_9.01_full_submission.txt');
        const items = classify8kItems(d.body).map((i) => i.item);
        expect(items.filter((i) => i === '2.02')).toHaveLength(1);
      }));

    it('header titles map to numbers, old wording included (Exelon 2005, Home Health 1997 legacy)', () =>
      check(() => {
        expect(itemNumbersFromTitles(['Departure of Directors or Principal Officers; Election of Directors; Appointment of Principal Officers'])).toEqual([
          '5.02',
        ]);
        expect(itemNumbersFromTitles(['Acquisition or disposition of assets', 'Financial statements and exhibits'], true)).toEqual(['2', '7']);
      }));
  });

  describe('Exhibit 21 parser', () => {
    it('Apple: HTML table, 19 subsidiaries', () =>
      check(() => {
        const ex = parseExhibit21(readFileSync(fixturePath('ex21/ex21_apple_subsidiaries.htm'), 'utf8'));
        expect(ex.rows).toHaveLength(19);
        expect(ex.rows[0]).toEqual({ name: 'Apple Asia Limited', jurisdiction: 'Hong Kong', ownership_percent: null, level: 0, parent: null });
        expect(ex.rows[3]).toMatchObject({ name: 'Apple Computer Trading (Shanghai) Co., Ltd.', jurisdiction: 'China' });
        expect(ex.rows[17]).toMatchObject({ name: 'Braeburn Capital, Inc.', jurisdiction: 'Nevada, U.S.' });
        expect(ex.rows[18]).toMatchObject({ name: 'iTunes K.K.', jurisdiction: 'Japan' });
        expect(ex.text).toContain('Pursuant to Item 601(b)(21)(ii) of Regulation S-K');
      }));

    it('Exxon Mobil: 116 rows with ownership percent, footnote marks dropped, repeated page headers skipped', () =>
      check(() => {
        const ex = parseExhibit21(readFileSync(fixturePath('ex21/ex21_exxon_mobil_subsidiaries.htm'), 'utf8'));
        expect(ex.rows).toHaveLength(116);
        expect(ex.rows[0]).toEqual({ name: 'AKG Marketing Company Limited', jurisdiction: 'Bahamas', ownership_percent: 87.5, level: 0, parent: null });
        expect(ex.rows.find((r) => r.name === 'Al-Jubail Petrochemical Company')).toMatchObject({ ownership_percent: 50, jurisdiction: 'Saudi Arabia' });
        expect(ex.rows.find((r) => r.name === 'Caspian Pipeline Consortium')).toMatchObject({ ownership_percent: 7.5, jurisdiction: 'Russia/Kazakhstan' });
        expect(ex.rows.find((r) => r.name === 'Mozambique Rovuma Venture S.p.A.')).toMatchObject({ ownership_percent: 35.714, jurisdiction: 'Italy' });
        expect(ex.rows.at(-1)).toMatchObject({ name: 'XTO Permian Operating LLC', ownership_percent: 100, jurisdiction: 'Texas' });
        expect(ex.rows.some((r) => /percentage|voting|country/i.test(r.name))).toBe(false);
      }));

    it('Tesla: "Name (Jurisdiction)" paragraphs inside a submission', () =>
      check(() => {
        const sub = parseSubmission(readFileSync(fixturePath('10k/10k_tesla_fy2019_header_minimal.txt'), 'latin1'));
        const ex = parseExhibit21(sub.documents.find((d) => d.type === 'EX-21.1')!.body);
        expect(ex.rows).toEqual([
          { name: 'Tesla Energy Operations, Inc.', jurisdiction: 'Delaware', ownership_percent: null, level: 0, parent: null },
          { name: 'Tesla Motors Netherlands B.V.', jurisdiction: 'Netherlands', ownership_percent: null, level: 0, parent: null },
        ]);
      }));
  });

  describe('submission (.txt / .nc) parser', () => {
    it.each(SUBMISSIONS)('%s', (rel, accession, form, filed, docs, items) =>
      check(() => {
        const s = parseSubmission(readFileSync(fixturePath(rel), 'latin1'));
        expect(s.header).toMatchObject({ accession, form, filed, items });
        expect(s.documents).toHaveLength(docs);
        expect(s.documents[0]!.type).toBe(form);
      }),
    );

    it('uuencoded files report their decoded size; XBRL wrappers are stripped (ABVC graphic, Acorn zip)', () =>
      check(() => {
        const abvc = parseSubmission(readFileSync(fixturePath('8k/8k_abvc_biopharma_2025-04-15_items2.02_4.02_7.01_9.01_full_submission.txt'), 'latin1'));
        const jpg = abvc.documents.find((d) => d.type === 'GRAPHIC')!;
        expect(jpg).toMatchObject({ filename: 'ex99-1_001.jpg', uuencoded: true });
        expect(jpg.size).toBeGreaterThan(1000);
        const acorn = parseSubmission(readFileSync(fixturePath('8k/8k_acorn_energy_2025-01-06_items5.02_9.01_dissemination.nc'), 'latin1'));
        expect(acorn.header.parties[0]).toEqual({ role: 'FILER', name: 'ACORN ENERGY, INC.', cik: '0000880984' });
        expect(acorn.documents[0]!.body.startsWith("<?xml version='1.0' encoding='ASCII'?>")).toBe(true);
      }));
  });

  describe('filing index page parser', () => {
    it.each(INDEX_PAGES)('%s', (rel, accession, form, docs, items) =>
      check(() => {
        const page = parseFilingIndexHtml(readFileSync(fixturePath(rel), 'utf8'));
        expect(page).toMatchObject({ accession, form, items });
        expect(page.documents).toHaveLength(docs);
      }),
    );

    it('T. Rowe Price proxy: every co-registrant filer with its CIK', () =>
      check(() => {
        const page = parseFilingIndexHtml(
          readFileSync(fixturePath('index/filing_index_def14a_t_rowe_price_funds_0001741773-23-002051_many_series.html'), 'utf8'),
        );
        expect(page.filers).toHaveLength(66);
        expect(page.filers[0]).toEqual({ name: 'T. Rowe Price Small-Cap Stock Fund, Inc.', role: 'Filer', cik: '0000075170' });
      }));
  });
});
