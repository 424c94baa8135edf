import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SampleOptions } from '../../sources/common/context.ts';
import { SECTION_ISSUERS } from '../../samples/universe.ts';

/**
 * Demo 10-K and 10-Q full submissions (SGML header + HTML primary document, as the archive serves
 * `<accession>.txt`) for two companies over two years, whose risk factors and MD&A change between filings so
 * the text-change events have something to find.
 */
const COMPANIES = SECTION_ISSUERS.map((c) => ({ ...c, cik: String(c.cik) }));

const RISKS_BASE = [
  'We depend on a small number of suppliers for key components, and any disruption in their operations could delay our shipments.',
  'Our revenue is concentrated among a limited number of customers, and the loss of any of them could materially reduce our sales.',
  'We face intense competition, and competitors with greater resources may introduce products that reduce demand for ours.',
  'Changes in trade policy, including tariffs on imported components, could increase our costs and reduce our margins.',
  'We may be unable to protect our intellectual property, and third parties may claim that we infringe theirs.',
];
const RISKS_NEW = [
  'A cybersecurity incident affecting our systems or those of our vendors could disrupt operations and expose us to liability.',
  'Our use of artificial intelligence in our products may expose us to new regulatory requirements and reputational risk.',
];
const MDA_BASE = [
  'Net sales increased due to higher unit volumes in our industrial segment, partially offset by lower average selling prices.',
  'Gross margin decreased as a result of higher freight and component costs during the first half of the year.',
  'Operating expenses increased primarily due to headcount growth in research and development.',
  'Cash provided by operating activities was sufficient to fund capital expenditures and scheduled debt repayments.',
];

function html(form: string, items: { heading: string; paragraphs: string[] }[], company: string, period: string): string {
  const toc = items.map((i) => `<tr><td>${i.heading}</td><td>12</td></tr>`).join('');
  const body = items.map((i) => `<p style="font-weight:bold">${i.heading}</p>\n${i.paragraphs.map((p) => `<p>${p}</p>`).join('\n')}`).join('\n');
  return `<html><head><title>${company} ${form}</title></head><body>
<p style="text-align:center">UNITED STATES SECURITIES AND EXCHANGE COMMISSION</p>
<p style="text-align:center">FORM ${form}</p>
<p>For the period ended ${period}</p>
<p>TABLE OF CONTENTS</p><table>${toc}</table>
${body}
<p>SIGNATURES</p><p>Pursuant to the requirements of the Securities Exchange Act of 1934, the registrant has duly caused this report to be signed.</p>
</body></html>`;
}

function submission(o: { accession: string; form: string; filed: string; period: string; cik: string; name: string; ticker: string; doc: string }): string {
  const d = (s: string) => s.replace(/-/g, '');
  return `<SEC-DOCUMENT>${o.accession}.txt : ${d(o.filed)}
<SEC-HEADER>${o.accession}.hdr.sgml : ${d(o.filed)}
ACCESSION NUMBER:		${o.accession}
CONFORMED SUBMISSION TYPE:	${o.form}
PUBLIC DOCUMENT COUNT:		1
CONFORMED PERIOD OF REPORT:	${d(o.period)}
FILED AS OF DATE:		${d(o.filed)}
DATE AS OF CHANGE:		${d(o.filed)}

FILER:

	COMPANY DATA:	
		COMPANY CONFORMED NAME:			${o.name}
		CENTRAL INDEX KEY:			${o.cik.padStart(10, '0')}
		STANDARD INDUSTRIAL CLASSIFICATION:	GENERAL INDUSTRIAL MACHINERY & EQUIPMENT [3560]
		STATE OF INCORPORATION:			DE
		FISCAL YEAR END:			1231

	FILING VALUES:
		FORM TYPE:		${o.form}
		SEC ACT:		1934 Act
</SEC-HEADER>
<DOCUMENT>
<TYPE>${o.form}
<SEQUENCE>1
<FILENAME>${o.ticker}-${d(o.period)}.htm
<DESCRIPTION>${o.form}
<TEXT>
${o.doc}
</TEXT>
</DOCUMENT>
</SEC-DOCUMENT>
`;
}

export async function writeFilingSectionsSample(dir: string, opts: SampleOptions): Promise<void> {
  await mkdir(dir, { recursive: true });
  let n = opts.seed % 1000;
  for (const [ci, c] of COMPANIES.entries()) {
    for (const [yi, year] of [2023, 2024].entries()) {
      const risks = yi === 0 ? RISKS_BASE : [...RISKS_BASE.filter((_, i) => i !== 3 - ci), ...RISKS_NEW.slice(0, ci + 1)];
      const mda =
        yi === 0
          ? MDA_BASE
          : [
              ...MDA_BASE.slice(0, 2),
              `Net sales in ${year} grew ${12 + ci * 5}% compared with ${year - 1}, led by new product introductions.`,
              ...MDA_BASE.slice(3),
            ];
      const acc10k = `000${c.cik}-${String(year + 1).slice(2)}-${String(++n).padStart(6, '0')}`;
      const doc10k = html(
        '10-K',
        [
          { heading: 'Item 1. Business', paragraphs: [`${c.name} designs and sells products to industrial and consumer customers.`] },
          { heading: 'Item 1A. Risk Factors', paragraphs: risks },
          { heading: 'Item 1B. Unresolved Staff Comments', paragraphs: ['None.'] },
          { heading: "Item 7. Management's Discussion and Analysis of Financial Condition and Results of Operations", paragraphs: mda },
          {
            heading: 'Item 7A. Quantitative and Qualitative Disclosures About Market Risk',
            paragraphs: ['We are exposed to interest rate and foreign currency risk.'],
          },
          { heading: 'Item 8. Financial Statements and Supplementary Data', paragraphs: ['The financial statements are included below.'] },
        ],
        c.name,
        `December 31, ${year}`,
      );
      await writeFile(
        join(dir, `${acc10k}.txt`),
        submission({
          accession: acc10k,
          form: '10-K',
          filed: `${year + 1}-02-2${ci}`,
          period: `${year}-12-31`,
          cik: c.cik,
          name: c.name,
          ticker: c.ticker,
          doc: doc10k,
        }),
      );

      const q = yi === 0 ? MDA_BASE.slice(0, 3) : [MDA_BASE[0], `Revenue for the quarter rose ${8 + ci}% on stronger demand.`, MDA_BASE[2]];
      const acc10q = `000${c.cik}-${String(year).slice(2)}-${String(++n).padStart(6, '0')}`;
      const doc10q = html(
        '10-Q',
        [
          { heading: 'PART I. FINANCIAL INFORMATION', paragraphs: [] },
          { heading: 'Item 1. Financial Statements', paragraphs: ['Condensed consolidated statements follow.'] },
          { heading: "Item 2. Management's Discussion and Analysis of Financial Condition and Results of Operations", paragraphs: q },
          { heading: 'Item 3. Quantitative and Qualitative Disclosures About Market Risk', paragraphs: ['There were no material changes.'] },
          { heading: 'Item 4. Controls and Procedures', paragraphs: ['Disclosure controls were effective.'] },
        ],
        c.name,
        `September 30, ${year}`,
      );
      await writeFile(
        join(dir, `${acc10q}.txt`),
        submission({
          accession: acc10q,
          form: '10-Q',
          filed: `${year}-11-0${ci + 3}`,
          period: `${year}-09-30`,
          cik: c.cik,
          name: c.name,
          ticker: c.ticker,
          doc: doc10q,
        }),
      );
    }
  }
}
