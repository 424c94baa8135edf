import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DATASET_HEADERS } from '../../ingest/datasets/13f/sample.ts';

/** One information-table line of a tiny data set: a share position held with sole discretion and voting. */
export interface TinyLine {
  /** INFOTABLE_SK; '' leaves it missing. */
  sk: number | '';
  issuer: string;
  cusip: string;
  value: number;
  shares: number;
}

export interface TinyFiling {
  accession: string;
  cik: string;
  name: string;
  /** A 13F-HR/A restating the manager's report, filed later (20-MAR-2024 against 12-FEB-2024). */
  restatement?: boolean;
  lines: TinyLine[];
  /** The summary page's entry and value totals; the lines' own by default. */
  summary?: { entries: number; value: number };
}

const tsv = (rows: (string | number)[][]) => `${rows.map((r) => r.join('\t')).join('\n')}\n`;

/**
 * A quarterly 13F data set of a few filings, written in the published layout (the four members the loader needs,
 * with the regulator's headers): the tests that pin how particular lines are read.
 */
export async function writeTinyDataSet(dir: string, filings: TinyFiling[], periodOfReport = '31-DEC-2023'): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, 'SUBMISSION.tsv'),
    tsv([
      [...DATASET_HEADERS.SUBMISSION],
      ...filings.map((f) => [f.accession, f.restatement ? '20-MAR-2024' : '12-FEB-2024', f.restatement ? '13F-HR/A' : '13F-HR', f.cik, periodOfReport]),
    ]),
  );
  // COVERPAGE: accession, quarter, amendment (flag, number, type), four confidentiality cells, the manager's name and
  // address, report type, 13F file number, CRD and SEC file numbers, instruction 5, additional information.
  const address = ['1 MAIN STREET', '', 'BOSTON', 'MA', '02110'];
  const amendment = (f: TinyFiling) => (f.restatement ? ['Y', 1, 'RESTATEMENT'] : ['N', '', '']);
  await writeFile(
    join(dir, 'COVERPAGE.tsv'),
    tsv([
      [...DATASET_HEADERS.COVERPAGE],
      ...filings.map((f) => [
        f.accession,
        periodOfReport,
        ...amendment(f),
        '',
        '',
        '',
        '',
        f.name,
        ...address,
        '13F HOLDINGS REPORT',
        '028-99999',
        '',
        '',
        'N',
        '',
      ]),
    ]),
  );
  const totals = (f: TinyFiling) => f.summary ?? { entries: f.lines.length, value: f.lines.reduce((s, l) => s + l.value, 0) };
  await writeFile(
    join(dir, 'SUMMARYPAGE.tsv'),
    tsv([[...DATASET_HEADERS.SUMMARYPAGE], ...filings.map((f) => [f.accession, 0, totals(f).entries, totals(f).value, 'N'])]),
  );
  await writeFile(
    join(dir, 'INFOTABLE.tsv'),
    tsv([
      [...DATASET_HEADERS.INFOTABLE],
      ...filings.flatMap((f) => f.lines.map((l) => [f.accession, l.sk, l.issuer, 'COM', l.cusip, '', l.value, l.shares, 'SH', '', 'SOLE', '', l.shares, 0, 0])),
    ]),
  );
}
