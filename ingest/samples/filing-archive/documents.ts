import { ITEMS_8K } from '../../sources/edgar/archive/items.ts';
import { type ArchiveDocument, displayName, escapeHtml, type SampleArchiveFiling } from './filing.ts';

/**
 * The documents of the sample archive's filings, written by us in the shapes the regulator's filers use: inline
 * XBRL HTML with `Item N.` headings for 8-Ks and 10-Ks (a table of contents first, as real 10-Ks have), the Form 4
 * ownership XML (docs/formats/05-insider-transactions.md) and an Exhibit 21 subsidiary table. Every text is made up.
 */

function htmlPage(title: string, documentType: string, period: string | null, body: string[]): string {
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<html xmlns="http://www.w3.org/1999/xhtml" xmlns:ix="http://www.xbrl.org/2013/inlineXBRL" xmlns:dei="http://xbrl.sec.gov/dei/2023">',
    `<head><title>${escapeHtml(title)}</title></head>`,
    '<body>',
    '<div style="display:none"><ix:header><ix:hidden>',
    `<ix:nonNumeric contextRef="c-1" name="dei:DocumentType">${documentType}</ix:nonNumeric>`,
    period ? `<ix:nonNumeric contextRef="c-1" name="dei:DocumentPeriodEndDate">${period}</ix:nonNumeric>` : '',
    '</ix:hidden></ix:header></div>',
    ...body,
    '</body>',
    '</html>',
  ].join('\n');
}

const para = (text: string) => `<p style="font-family:Times New Roman;font-size:10pt">${escapeHtml(text)}</p>`;
const heading = (text: string) => `<p style="font-family:Times New Roman;font-size:10pt;font-weight:bold">${escapeHtml(text)}</p>`;

/** What each 8-K item says in the sample; an item without its own text gets a generic paragraph. */
function eightKItemText(item: string, name: string, f: SampleArchiveFiling): string[] {
  switch (item) {
    case '1.05':
      return [
        `On ${f.reportDate ?? f.filedDate}, ${name} (the "Company") detected unauthorized access to a portion of its corporate information ` +
          'technology systems by a third party. Upon detection, the Company activated its incident response plan, engaged external ' +
          'cybersecurity experts and notified law enforcement.',
        'The Company has determined that the incident is a material cybersecurity incident because it disrupted order processing for ' +
          'several days and the threat actor exfiltrated certain business records. The Company continues to assess the scope of the ' +
          'incident and has not yet determined its impact on the results of operations for the current quarter.',
      ];
    case '2.02':
      return [`On ${f.filedDate}, ${name} issued a press release announcing its financial results for the quarter. A copy is furnished as Exhibit 99.1.`];
    case '5.02':
      return [`On ${f.reportDate ?? f.filedDate}, the Board of Directors of ${name} appointed a new Chief Financial Officer, effective immediately.`];
    case '9.01':
      return ['(d) Exhibits.', '99.1 Press release of the Company.', '104 Cover Page Interactive Data File (embedded within the Inline XBRL document).'];
    default:
      return [`${name} reports the matters of this item as of ${f.reportDate ?? f.filedDate}.`];
  }
}

function eightKDocument(f: SampleArchiveFiling): string {
  const name = displayName(f.company);
  const body = [
    '<div style="text-align:center">',
    heading('UNITED STATES SECURITIES AND EXCHANGE COMMISSION'),
    para('Washington, D.C. 20549'),
    heading('FORM 8-K'),
    heading('CURRENT REPORT'),
    para('Pursuant to Section 13 or 15(d) of the Securities Exchange Act of 1934'),
    para(`Date of Report (Date of earliest event reported): ${f.reportDate ?? f.filedDate}`),
    heading(name),
    para('(Exact name of registrant as specified in its charter)'),
    '</div>',
  ];
  for (const item of f.items) {
    body.push(heading(`Item ${item}. ${ITEMS_8K[item] ?? 'Other Events'}.`));
    for (const t of eightKItemText(item, name, f)) body.push(para(t));
  }
  body.push(heading('SIGNATURES'));
  body.push(para('Pursuant to the requirements of the Securities Exchange Act of 1934, the registrant has duly caused this report to be signed.'));
  return htmlPage(`${name} 8-K`, f.form, f.reportDate, body);
}

function pressReleaseDocument(f: SampleArchiveFiling): string {
  const name = displayName(f.company);
  return htmlPage(`${name} press release`, 'EX-99.1', null, [
    heading('Exhibit 99.1'),
    heading(`${name} provides an update`),
    para(`${name} today announced the matters described in its current report on Form 8-K filed on ${f.filedDate}.`),
  ]);
}

/** The 10-K items the sample writes, with what each says; Items 1A and 7 are the ones the demo extracts. */
const TEN_K_ITEMS: { item: string; title: string; text: (name: string, f: SampleArchiveFiling) => string[] }[] = [
  {
    item: '1',
    title: 'Business',
    text: (n) => [`${n} designs, manufactures and sells industrial products through distributors in North America and Europe.`],
  },
  {
    item: '1A',
    title: 'Risk Factors',
    text: (n) => [
      `An investment in ${n} involves risks. The following risk factors could materially affect our business, financial condition and results of operations.`,
      'We depend on a small number of suppliers for key components, and a disruption at any of them could delay shipments to our customers.',
      'Cybersecurity incidents could disrupt our operations, expose confidential information and result in litigation and regulatory penalties.',
      'Changes in interest rates and foreign currency exchange rates could reduce our reported revenue and increase our cost of borrowing.',
    ],
  },
  { item: '1B', title: 'Unresolved Staff Comments', text: () => ['None.'] },
  {
    item: '1C',
    title: 'Cybersecurity',
    text: (n) => [`${n} maintains a cybersecurity risk management program overseen by the Audit Committee of the Board of Directors.`],
  },
  { item: '2', title: 'Properties', text: () => ['Our headquarters and principal manufacturing facility are leased.'] },
  { item: '3', title: 'Legal Proceedings', text: () => ['We are not party to any material pending legal proceedings.'] },
  { item: '4', title: 'Mine Safety Disclosures', text: () => ['Not applicable.'] },
  {
    item: '5',
    title: "Market for Registrant's Common Equity, Related Stockholder Matters and Issuer Purchases of Equity Securities",
    text: (_n, f) => [`Our common stock is traded under the symbol ${f.ticker ?? 'shown on the cover page'}.`],
  },
  {
    item: '7',
    title: "Management's Discussion and Analysis of Financial Condition and Results of Operations",
    text: (n, f) => [
      `The following discussion of the financial condition and results of operations of ${n} for the fiscal year ended ${f.reportDate ?? f.filedDate} ` +
        'should be read together with the consolidated financial statements in Item 8.',
      'Net sales increased 6% compared with the prior year, driven by higher volumes in our industrial segment and price increases.',
      'Gross margin decreased 40 basis points as higher freight and component costs more than offset the benefit of pricing.',
      'Cash provided by operating activities was sufficient to fund capital expenditures and the repurchase of common stock.',
    ],
  },
  {
    item: '7A',
    title: 'Quantitative and Qualitative Disclosures About Market Risk',
    text: () => ['We are exposed to interest rate risk on our revolving credit facility.'],
  },
  { item: '8', title: 'Financial Statements and Supplementary Data', text: () => ['The consolidated financial statements follow the signature page.'] },
  { item: '9A', title: 'Controls and Procedures', text: () => ['Our disclosure controls and procedures were effective as of the end of the period.'] },
  {
    item: '15',
    title: 'Exhibits and Financial Statement Schedules',
    text: () => ['21.1 Subsidiaries of the Registrant.', '31.1 Certification of the Chief Executive Officer.'],
  },
];

const PART_OF: Record<string, string> = { '1': 'PART I', '5': 'PART II', '15': 'PART IV' };

function tenKDocument(f: SampleArchiveFiling): string {
  const name = displayName(f.company);
  const body = [
    heading('UNITED STATES SECURITIES AND EXCHANGE COMMISSION'),
    heading('FORM 10-K'),
    para(`ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934 for the fiscal year ended ${f.reportDate ?? f.filedDate}`),
    heading(name),
    heading('TABLE OF CONTENTS'),
    '<table>',
    ...TEN_K_ITEMS.map((it, i) => `<tr><td>Item ${it.item}.</td><td>${escapeHtml(it.title)}</td><td>${3 + i * 2}</td></tr>`),
    '</table>',
  ];
  for (const it of TEN_K_ITEMS) {
    if (PART_OF[it.item]) body.push(heading(PART_OF[it.item]!));
    body.push(heading(`Item ${it.item}. ${it.title}`));
    for (const t of it.text(name, f)) body.push(para(t));
  }
  body.push(heading('SIGNATURES'));
  return htmlPage(`${name} 10-K`, f.form, f.reportDate, body);
}

/** The subsidiaries listed in Exhibit 21 (name, jurisdiction), derived from the registrant's name. */
function subsidiariesOf(company: string): [string, string][] {
  const stem = displayName(company)
    .replace(/\b(Inc|Corp|Co|Ltd|Group|Holdings)\b\.?/g, '')
    .trim();
  return [
    [`${stem} Operating LLC`, 'Delaware'],
    [`${stem} International B.V.`, 'Netherlands'],
    [`${stem} Canada ULC`, 'British Columbia, Canada'],
    [`${stem} Finance Corp.`, 'Delaware'],
  ];
}

function exhibit21Document(f: SampleArchiveFiling): string {
  const rows = subsidiariesOf(f.company).map(([n, j]) => `<tr><td>${escapeHtml(n)}</td><td>${escapeHtml(j)}</td></tr>`);
  return htmlPage(`${displayName(f.company)} Exhibit 21.1`, 'EX-21.1', null, [
    heading('Exhibit 21.1'),
    heading(`SUBSIDIARIES OF ${f.company}`),
    '<table>',
    '<tr><td><b>Name of Subsidiary</b></td><td><b>Jurisdiction of Incorporation or Organization</b></td></tr>',
    ...rows,
    '</table>',
  ]);
}

/** A Form 4 in the ownership XML schema: one open-market sale by an officer, with a footnote on the price. */
function form4Document(f: SampleArchiveFiling): string {
  const owner = f.owner ?? { cik: f.ciks[1] ?? f.ciks[0]!, name: 'DOE JOHN' };
  const date = f.reportDate ?? f.filedDate;
  return `<?xml version="1.0"?>
<ownershipDocument>
    <schemaVersion>X0508</schemaVersion>
    <documentType>4</documentType>
    <periodOfReport>${date}</periodOfReport>
    <notSubjectToSection16>0</notSubjectToSection16>
    <issuer>
        <issuerCik>${f.ciks[0]}</issuerCik>
        <issuerName>${escapeHtml(displayName(f.company))}</issuerName>
        <issuerTradingSymbol>${f.ticker ?? ''}</issuerTradingSymbol>
    </issuer>
    <reportingOwner>
        <reportingOwnerId>
            <rptOwnerCik>${owner.cik}</rptOwnerCik>
            <rptOwnerName>${escapeHtml(owner.name)}</rptOwnerName>
        </reportingOwnerId>
        <reportingOwnerRelationship>
            <isDirector>0</isDirector>
            <isOfficer>1</isOfficer>
            <isTenPercentOwner>0</isTenPercentOwner>
            <isOther>0</isOther>
            <officerTitle>Chief Financial Officer</officerTitle>
        </reportingOwnerRelationship>
    </reportingOwner>
    <nonDerivativeTable>
        <nonDerivativeTransaction>
            <securityTitle><value>Common Stock</value></securityTitle>
            <transactionDate><value>${date}</value></transactionDate>
            <transactionCoding>
                <transactionFormType>4</transactionFormType>
                <transactionCode>S</transactionCode>
                <equitySwapInvolved>0</equitySwapInvolved>
            </transactionCoding>
            <transactionAmounts>
                <transactionShares><value>12500</value></transactionShares>
                <transactionPricePerShare><value>48.37</value><footnoteId id="F1"/></transactionPricePerShare>
                <transactionAcquiredDisposedCode><value>D</value></transactionAcquiredDisposedCode>
            </transactionAmounts>
            <postTransactionAmounts>
                <sharesOwnedFollowingTransaction><value>87340</value></sharesOwnedFollowingTransaction>
            </postTransactionAmounts>
            <ownershipNature>
                <directOrIndirectOwnership><value>D</value></directOrIndirectOwnership>
            </ownershipNature>
        </nonDerivativeTransaction>
    </nonDerivativeTable>
    <footnotes>
        <footnote id="F1">Weighted average price; the shares were sold in multiple trades at prices from $48.10 to $48.65.</footnote>
    </footnotes>
    <remarks></remarks>
    <ownerSignature>
        <signatureName>/s/ ${escapeHtml(owner.name)}</signatureName>
        <signatureDate>${f.filedDate}</signatureDate>
    </ownerSignature>
</ownershipDocument>
`;
}

/** The documents of a filing in submission order: its primary document, then its exhibits. */
export function documentsOf(f: SampleArchiveFiling): ArchiveDocument[] {
  const stem = (f.primaryDocument ?? `${f.ciks[0]}-${f.filedDate}.htm`).replace(/\.[a-z]+$/i, '');
  if (f.form === '4' || f.form === '4/A') {
    return [
      {
        sequence: 1,
        type: f.form,
        description: 'FORM 4',
        fileName: `wk-form4_${f.accession.replace(/-/g, '')}.xml`,
        body: form4Document(f),
        xslRendering: true,
      },
    ];
  }
  if (f.form.startsWith('8-K')) {
    const docs: ArchiveDocument[] = [{ sequence: 1, type: f.form, description: f.form, fileName: `${stem}.htm`, body: eightKDocument(f) }];
    if (f.items.includes('9.01'))
      docs.push({ sequence: 2, type: 'EX-99.1', description: 'EX-99.1', fileName: `${stem}xex991.htm`, body: pressReleaseDocument(f) });
    return docs;
  }
  if (f.form.startsWith('10-K')) {
    return [
      { sequence: 1, type: f.form, description: f.form, fileName: `${stem}.htm`, body: tenKDocument(f) },
      { sequence: 2, type: 'EX-21.1', description: 'EX-21.1', fileName: `${stem}xex211.htm`, body: exhibit21Document(f) },
    ];
  }
  throw new Error(`the sample archive writes 8-K, 10-K and Form 4 filings, not ${f.form} (${f.accession})`);
}
