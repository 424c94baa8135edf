import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SampleOptions } from '../../sources/common/context.ts';
import { mulberry32 } from '../../samples/random.ts';
import { addDays, pad10, sampleAccession, sampleCompanies } from '../../samples/universe.ts';

const CONCEPTS: { tag: string; label: string; unit: string; kind: 'duration' | 'instant'; base: number }[] = [
  { tag: 'Revenues', label: 'Revenues', unit: 'USD', kind: 'duration', base: 4e9 },
  { tag: 'NetIncomeLoss', label: 'Net Income (Loss) Attributable to Parent', unit: 'USD', kind: 'duration', base: 6e8 },
  { tag: 'EarningsPerShareBasic', label: 'Earnings Per Share, Basic', unit: 'USD/shares', kind: 'duration', base: 2.5 },
  { tag: 'Assets', label: 'Assets', unit: 'USD', kind: 'instant', base: 2e10 },
  { tag: 'StockholdersEquity', label: "Stockholders' Equity Attributable to Parent", unit: 'USD', kind: 'instant', base: 8e9 },
];

/**
 * Company facts JSON in the per-company API shape (= the member shape of companyfacts.zip; named
 * `companyfacts_CIK##########.json` so it can share a folder with submissions files) for the demo universe: four
 * fiscal years of 10-Ks, each repeating the prior year (as real 10-Ks do), plus a 10-K/A restating the latest
 * revenue so "latest value for a period" has something to choose.
 */
export async function writeFinancialsSample(dir: string, opts: SampleOptions): Promise<void> {
  await mkdir(dir, { recursive: true });
  const r = mulberry32(opts.seed + 7);
  for (const c of sampleCompanies(opts.seed, opts.scale)) {
    const usGaap: Record<string, unknown> = {};
    for (const k of CONCEPTS) {
      const facts: Record<string, unknown>[] = [];
      for (let fy = 2020; fy <= 2023; fy++) {
        const filed = `${fy + 1}-02-${String(10 + (c.cik % 15)).padStart(2, '0')}`;
        const accn = sampleAccession(c.cik, fy + 1, 100 + fy - 2020);
        for (const y of [fy - 1, fy]) {
          const start = `${y}-01-01`;
          const end = `${y}-12-31`;
          const val = Math.round(k.base * (0.8 + r() * 0.4) * 100) / 100;
          facts.push({
            ...(k.kind === 'duration' ? { start } : {}),
            end,
            val: k.unit === 'USD/shares' ? val : Math.round(val),
            accn,
            fy,
            fp: 'FY',
            form: '10-K',
            filed,
            ...(y === fy ? { frame: k.kind === 'duration' ? `CY${y}` : `CY${y}Q4I` } : {}),
          });
        }
      }
      if (k.tag === 'Revenues') {
        facts.push({
          start: '2023-01-01',
          end: '2023-12-31',
          val: Math.round(k.base * 1.01),
          accn: sampleAccession(c.cik, 2024, 200),
          fy: 2023,
          fp: 'FY',
          form: '10-K/A',
          filed: addDays('2024-02-10', 60),
        });
      }
      usGaap[k.tag] = { label: k.label, description: `${k.label} (demo).`, units: { [k.unit]: facts } };
    }
    const doc = {
      cik: c.cik,
      entityName: c.name,
      facts: {
        dei: {
          EntityCommonStockSharesOutstanding: {
            label: 'Entity Common Stock, Shares Outstanding',
            description: 'Shares outstanding (demo).',
            units: {
              shares: [
                {
                  end: '2024-01-31',
                  val: 1_000_000 + c.cik,
                  accn: sampleAccession(c.cik, 2024, 103),
                  fy: 2023,
                  fp: 'FY',
                  form: '10-K',
                  filed: '2024-02-12',
                  frame: 'CY2023Q4I',
                },
              ],
            },
          },
        },
        'us-gaap': usGaap,
      },
    };
    await writeFile(join(dir, `companyfacts_CIK${pad10(c.cik)}.json`), JSON.stringify(doc));
  }
}
