import { describe, expect, it } from 'vitest';
import { extractItem, findItemSections } from '../../ingest/sources/edgar/archive/extract.ts';

/**
 * Page furniture in item text (issue #18 item 3): a link or running header/footer repeated on every page ("Index to
 * Financial Statements", "Back to Contents", the company name) is dropped wherever it recurs at page breaks, without
 * a list of phrases; short item bodies ("Not applicable.", "None.") at the foot of a page stay. The documents are
 * written here in the shapes filing agents produce (inline HTML with CSS page breaks; 1990s plain text with
 * `<PAGE>` markers; plain text cut by page numbers only).
 */

const para = (t: string) => `<p style="margin:0 0 8pt 0;font-family:Times New Roman">${t}</p>`;

/** An HTML 10-K whose every page starts with a link to the financial statements and ends with name and number. */
function html10k(): string {
  const pages: string[][] = [
    ['<b>Item 1. Business</b>', 'Northwind Holdings, Inc. designs and sells industrial pumps in 14 countries.', 'Our customers are utilities and refiners.'],
    ['<b>Item 1A. Risk Factors</b>', 'Demand for pumps follows capital spending by utilities, which can fall sharply.'],
    ['We depend on a small number of foundries for castings.', '<b>Item 1B. Unresolved Staff Comments</b>', 'None.'],
    ['<b>Item 2. Properties</b>', 'We own two plants in Ohio.', '<b>Item 3. Legal Proceedings</b>', 'None.'],
    ['<b>Item 4. Mine Safety Disclosures</b>', 'Not applicable.'],
    ['<b>PART II</b>', '<b>Item 7. Management’s Discussion and Analysis of Financial Condition and Results of Operations</b>', 'Revenue rose 8% in 2024.'],
    ['Gross margin was 31%, up from 29%.', 'Northwind Holdings, Inc. expects capital spending of $40 million in 2025.'],
    ['<b>Item 7A. Quantitative and Qualitative Disclosures About Market Risk</b>', 'Not applicable.'],
    ['<b>Item 8. Financial Statements and Supplementary Data</b>', 'The financial statements begin on page F-1.'],
    ['<b>Item 9. Changes in and Disagreements With Accountants on Accounting and Financial Disclosure</b>', 'None.'],
  ];
  const body = pages
    .map(
      (p, n) =>
        `<div>${para('<a href="#fs_index">Index to Financial Statements</a>')}${p.map(para).join('\n')}` +
        `${para('Northwind Holdings, Inc.')}<p style="text-align:center">${n + 3}</p></div>\n<hr style="page-break-after:always"/>`,
    )
    .join('\n');
  return `<html><body>${para('FORM 10-K')}${body}${para('<b>SIGNATURES</b>')}</body></html>`;
}

/** A 1990s plain-text 10-Q: `<PAGE>` markers, a running header and a "Back to Contents" line at each page end. */
function text10q(): string {
  const pages = [
    ['PART I - FINANCIAL INFORMATION', '', 'ITEM 1. FINANCIAL STATEMENTS', '', 'The condensed statements follow the notes below.'],
    ["ITEM 2. MANAGEMENT'S DISCUSSION AND ANALYSIS OF FINANCIAL CONDITION AND RESULTS OF OPERATIONS", '', 'Net sales increased 12% over the prior quarter.'],
    ['Operating expenses were flat.', '', 'ITEM 3. QUANTITATIVE AND QUALITATIVE DISCLOSURES ABOUT MARKET RISK', '', 'Not applicable.'],
    ['ITEM 4. CONTROLS AND PROCEDURES', '', 'Disclosure controls were effective.'],
    ['PART II - OTHER INFORMATION', '', 'ITEM 1. LEGAL PROCEEDINGS', '', 'None.'],
  ];
  return pages
    .map((p, n) => ['NORTHWIND HOLDINGS, INC.', 'FORM 10-Q', '', ...p, '', 'Back to Contents', `                                   ${n + 2}`].join('\n'))
    .join('\n<PAGE>\n');
}

/** Plain text with no page marks at all: the page numbers are the only edges. */
function numberedText10k(): string {
  const pages = [
    ['ITEM 1. BUSINESS', 'Northwind sells pumps.'],
    ['ITEM 1A. RISK FACTORS', 'Castings come from few foundries.'],
    ["ITEM 7. MANAGEMENT'S DISCUSSION AND ANALYSIS", 'Revenue rose.'],
    ['ITEM 7A. QUANTITATIVE AND QUALITATIVE DISCLOSURES ABOUT MARKET RISK', 'Not applicable.'],
  ];
  return pages.map((p, n) => [...p, '', 'Northwind Holdings 2024 Annual Report', `- ${n + 1} -`, ''].join('\n')).join('\n');
}

describe('page furniture repeated at page breaks is not item text', () => {
  it('HTML 10-K: Item 7A is "Not applicable." — not "Not applicable. Index to Financial Statements"', () => {
    expect(extractItem(html10k(), '10-K', '7A')!.text).toBe('Not applicable.');
  });

  it('HTML 10-K: the repeated link and company-name footer leave Item 7; a sentence naming the company stays', () => {
    const t = extractItem(html10k(), '10-K', '7')!.text;
    expect(t).toBe(
      ['Revenue rose 8% in 2024.', 'Gross margin was 31%, up from 29%.', 'Northwind Holdings, Inc. expects capital spending of $40 million in 2025.'].join(
        '\n',
      ),
    );
  });

  it('HTML 10-K: short bodies at the foot of a page stay ("None." ×3, "Not applicable." ×2)', () => {
    const s = Object.fromEntries(findItemSections(html10k(), '10-K').map((x) => [x.key, x.text]));
    expect(s).toMatchObject({ '1B': 'None.', '3': 'None.', '4': 'Not applicable.', '9': 'None.' });
    expect(s['1A']).toBe(
      'Demand for pumps follows capital spending by utilities, which can fall sharply.\nWe depend on a small number of foundries for castings.',
    );
  });

  it('plain-text 10-Q with <PAGE> markers: running header and "Back to Contents" dropped in both parts', () => {
    const q = text10q();
    expect(extractItem(q, '10-Q', 'I-2')!.text).toBe('Net sales increased 12% over the prior quarter.\nOperating expenses were flat.');
    expect(extractItem(q, '10-Q', 'I-3')!.text).toBe('Not applicable.');
    expect(extractItem(q, '10-Q', 'II-1')!.text).toBe('None.');
  });

  it('plain text without page marks: a footer recurring next to every page number is dropped', () => {
    expect(extractItem(numberedText10k(), '10-K', '7A')!.text).toBe('Not applicable.');
    expect(extractItem(numberedText10k(), '10-K', '1')!.text).toBe('Northwind sells pumps.');
  });
});
