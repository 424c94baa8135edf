import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SampleOptions } from '../../sources/common/context.ts';
import { sampleProxyIssuers } from '../../samples/universe.ts';
import { lcg } from '../../samples/random.ts';

/**
 * Demo DEF 14A full submissions in EDGAR's `.txt` layout (SGML header + HTML document), with the
 * layout habits of real proxies: `$` in its own cell, footnote markers in <sup>, dashes for zero,
 * one row per year under a rowspan name cell, title on a second line.
 */

const FIRST = ['Alice', 'Brian', 'Carmen', 'David', 'Elena', 'Frank', 'Grace', 'Henry', 'Irene', 'James', 'Karen', 'Louis', 'Maria', 'Nathan'];
const LAST = ['Abbott', 'Baker', 'Castillo', 'Dunn', 'Ellis', 'Foster', 'Garcia', 'Hughes', 'Ingram', 'Jensen', 'Kim', 'Lopez', 'Moreno', 'Nguyen'];
const TITLES = [
  'President and Chief Executive Officer',
  'Executive Vice President and Chief Financial Officer',
  'Senior Vice President and General Counsel',
  'Chief Operating Officer',
];

const money = (n: number) => (n === 0 ? '&#8212;' : n.toLocaleString('en-US'));

export async function writeProxySample(dir: string, opts: SampleOptions): Promise<void> {
  await mkdir(dir, { recursive: true });
  const rand = lcg(opts.seed);
  const issuers = sampleProxyIssuers(opts.scale);
  const filings = issuers.length;
  // Two consecutive proxies per issuer (fiscal 2022 and 2023): a director is replaced and pay moves between them,
  // so the demo feed carries sec.proxy.board_changed and sec.proxy.executive_compensation_changed.
  for (let f = 0; f < filings; f++)
    for (const year of [2022, 2023]) {
      const { cik, name } = issuers[f];
      const filedYear = year + 1;
      const accession = `${String(cik).padStart(10, '0')}-${String(filedYear).slice(2)}-${String(f + 1).padStart(6, '0')}`;
      const person = (i: number) => `${FIRST[(f * 3 + i) % FIRST.length]} ${String.fromCharCode(65 + ((i * 7 + f) % 26))}. ${LAST[(f * 5 + i) % LAST.length]}`;
      const directors = Array.from({ length: 5 }, (_, i) => ({
        name: person(i === 4 && year === 2023 ? 20 : i),
        age: 45 + Math.floor(rand() * 30),
        since: 2005 + Math.floor(rand() * 18),
        independent: i > 0,
      }));
      const execs = Array.from({ length: 3 }, (_, i) => ({ name: i === 0 ? directors[0].name : person(10 + i), title: TITLES[i] }));
      const dirRows = directors
        .map(
          (d, i) =>
            `${i === 0 ? '<tr><td colspan="4">Management Director</td></tr>' : i === 1 ? '<tr><td colspan="4">Independent Directors</td></tr>' : ''}` +
            `<tr><td>${d.name}${i === 1 ? '<sup>(1)</sup>' : ''}</td><td>${d.age}</td><td>` +
            `${i === 0 ? 'Chairman, President and Chief Executive Officer' : 'Independent Director'}</td><td>${d.since}</td></tr>`,
        )
        .join('\n');
      const sctRows = execs
        .map((e) => {
          return [0, 1, 2]
            .map((k) => {
              const salary = Math.round((400000 + rand() * 600000) / 10) * 10;
              const bonus = k === 2 ? 0 : Math.round(rand() * 200000);
              const stock = Math.round(rand() * 3000000);
              const option = Math.round(rand() * 1000000);
              const nonEq = Math.round(rand() * 900000);
              const other = Math.round(rand() * 90000);
              const total = salary + bonus + stock + option + nonEq + other;
              const nameCell = k === 0 ? `<td rowspan="3"><p>${e.name}</p><p>${e.title}</p></td>` : '';
              const cells = [salary, bonus, stock, option, nonEq, 0, other, total]
                .map((v) => `<td>$</td><td style="text-align:right">${money(v)}</td>`)
                .join('');
              return `<tr>${nameCell}<td>${year - k}</td>${cells}</tr>`;
            })
            .join('\n');
        })
        .join('\n');
      const html =
        `<html><body>
<p>PROPOSAL 1 &#8212; ELECTION OF DIRECTORS</p>
<p>The following table sets forth our directors and nominees.</p>
<table>
<tr><th>Name</th><th>Age</th><th>Position</th><th>Director Since</th></tr>
${dirRows}
</table>
<p>SUMMARY COMPENSATION TABLE</p>
<table>
<tr><td>Name and Principal Position</td><td>Year</td><td colspan="2">Salary ($)</td><td colspan="2">Bonus ($)</td>` +
        `<td colspan="2">Stock Awards ($)<sup>(1)</sup></td><td colspan="2">Option Awards ($)</td><td colspan="2">` +
        `Non-Equity Incentive Plan Compensation ($)</td><td colspan="2">Change in Pension Value and Nonqualified ` +
        `Deferred Compensation Earnings ($)</td><td colspan="2">All Other Compensation ($)</td><td colspan="2">` +
        `Total ($)</td></tr>
${sctRows}
</table>
</body></html>`;
      const header = `<SEC-DOCUMENT>${accession}.txt : ${filedYear}0315
<SEC-HEADER>${accession}.hdr.sgml : ${filedYear}0315
<ACCEPTANCE-DATETIME>${filedYear}0315160255
ACCESSION NUMBER:\t\t${accession}
CONFORMED SUBMISSION TYPE:\tDEF 14A
PUBLIC DOCUMENT COUNT:\t\t1
CONFORMED PERIOD OF REPORT:\t${filedYear}0509
FILED AS OF DATE:\t\t${filedYear}0315
DATE AS OF CHANGE:\t\t${filedYear}0315

FILER:

\tCOMPANY DATA:\t
\t\tCOMPANY CONFORMED NAME:\t\t\t${name}
\t\tCENTRAL INDEX KEY:\t\t\t${String(cik).padStart(10, '0')}
\t\tFISCAL YEAR END:\t\t\t1231

\tFILING VALUES:
\t\tFORM TYPE:\t\tDEF 14A
\t\tSEC ACT:\t\t1934 Act
</SEC-HEADER>
<DOCUMENT>
<TYPE>DEF 14A
<SEQUENCE>1
<FILENAME>proxy${f + 1}.htm
<DESCRIPTION>DEF 14A
<TEXT>
${html}
</TEXT>
</DOCUMENT>
</SEC-DOCUMENT>
`;
      await writeFile(join(dir, `${accession}.txt`), header);
    }
}
