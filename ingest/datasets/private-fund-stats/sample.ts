import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { SampleOptions } from '../../sources/common/context.ts';
import { Rng } from '../../samples/random.ts';
import { xlsxMembers } from '../../sources/common/xlsx.ts';
import { writeZip } from '../../sources/common/zip.ts';

const SAMPLE_STATS_FILE = 'private-funds-statistics-2025-q4.xlsx';
const TYPES = [
  'Hedge Fund',
  'Private Equity Fund',
  'Real Estate Fund',
  'Securitized Asset Fund',
  'Venture Capital Fund',
  'Liquidity Fund',
  'Other Private Fund',
];

type Cell = string | number | null;

/** A workbook shaped like the report's tables: title lines, a header row, labelled rows, masked cells, footnotes. */
export function statsSheets(seed: number): { name: string; rows: Cell[][] }[] {
  const rng = new Rng(seed + 41);
  const qs = ['2024 Q4', '2025 Q1', '2025 Q2', '2025 Q3', '2025 Q4'];
  const t1: Cell[][] = [['Table 1. Number of Qualifying Hedge Funds, by Quarter'], [], ['Fund type', ...qs]];
  for (const t of TYPES) t1.push([t, ...qs.map(() => (t === 'Liquidity Fund' && rng.chance(0.5) ? '*' : rng.int(50, 12_000)))]);
  t1.push(['Total', ...qs.map((_, i) => t1.slice(3).reduce((n, r) => n + (typeof r[i + 1] === 'number' ? (r[i + 1] as number) : 0), 0))]);
  t1.push([], ['Source: Form PF and Form ADV. * Masked to avoid disclosing individual fund data.']);
  const t2: Cell[][] = [['Table 2. Gross Asset Value (GAV) by Fund Type ($ billions)'], ['Fund type', 'GAV', 'NAV', 'GAV % of total']];
  for (const t of TYPES) {
    const gav = Math.round(rng.next() * 9000 * 10) / 10;
    t2.push([t, gav, Math.round(gav * 0.7 * 10) / 10, `${Math.round(rng.next() * 400) / 10}%`]);
  }
  const t3: Cell[][] = [['Table 3. Hedge Fund Gross Leverage Ratio Distribution'], ['Percentile', 'Equity', 'Credit', 'Macro', 'Multi-strategy']];
  for (const p of ['5th', '25th', '50th', '75th', '95th']) t3.push([p, ...Array.from({ length: 4 }, () => Math.round((1 + rng.next() * 8) * 100) / 100)]);
  return [
    { name: 'Table 1', rows: t1 },
    { name: 'Table 2', rows: t2 },
    { name: 'Table 3', rows: t3 },
  ];
}

export async function writePrivateFundStatsSample(dir: string, opts: SampleOptions): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeZip(join(dir, SAMPLE_STATS_FILE), xlsxMembers(statsSheets(opts.seed)));
}
