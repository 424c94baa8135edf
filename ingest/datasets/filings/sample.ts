import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SampleOptions } from '../../sources/common/context.ts';
import { addDays, sampleAccession, sampleCompanies, sampleFormsFor } from '../../samples/universe.ts';
import { writeEntitiesSample } from '../../samples/entity-files.ts';

/**
 * A quarterly full-index `master.idx` (pipe-delimited, with the real preamble) for 2024Q1 plus the submissions
 * JSON of the same companies, whose recent filings match the index lines (so rows come out enriched). A few
 * index lines (Form 4s filed by a second CIK) exist only in the index, as in real life.
 */
export async function writeFilingsSample(dir: string, opts: SampleOptions): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeEntitiesSample(dir, opts);
  const companies = sampleCompanies(opts.seed, opts.scale);
  const lines: string[] = [];
  companies.forEach((c, i) => {
    sampleFormsFor(i).forEach((f, j) => {
      const filed = addDays('2024-01-02', (i * 7 + j * 9) % 88);
      const acc = sampleAccession(c.cik, 2024, j + 1);
      lines.push(`${c.cik}|${c.name.toUpperCase()}|${f.form}|${filed}|edgar/data/${c.cik}/${acc}.txt`);
      // A Form 4 is listed under the reporting owner's CIK too.
      if (f.form === '4') lines.push(`${c.cik + 1}|DOE JOHN ${i}|4|${filed}|edgar/data/${c.cik + 1}/${acc}.txt`);
    });
  });
  lines.sort();
  const preamble = [
    'Description:           Master Index of EDGAR Dissemination Feed',
    'Last Data Received:    March 31, 2024',
    'Comments:              webmaster@sec.gov',
    'Anonymous FTP:         ftp://ftp.sec.gov/edgar/',
    'Cloud HTTP:            https://www.sec.gov/Archives/',
    '',
    '',
    '',
    '',
    'CIK|Company Name|Form Type|Date Filed|Filename',
    '--------------------------------------------------------------------------------',
  ];
  await writeFile(join(dir, 'master.idx'), `${[...preamble, ...lines].join('\n')}\n`, 'latin1');
}
