import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SampleOptions } from '../../sources/common/context.ts';
import { mulberry32 } from '../../samples/random.ts';
import { sampleAccession, sampleCompanies } from '../../samples/universe.ts';

const SUB_COLS = [
  'adsh',
  'cik',
  'name',
  'sic',
  'countryba',
  'stprba',
  'cityba',
  'zipba',
  'bas1',
  'bas2',
  'baph',
  'countryma',
  'stprma',
  'cityma',
  'zipma',
  'mas1',
  'mas2',
  'countryinc',
  'stprinc',
  'ein',
  'former',
  'changed',
  'afs',
  'wksi',
  'fye',
  'form',
  'period',
  'fy',
  'fp',
  'filed',
  'accepted',
  'prevrpt',
  'detail',
  'instance',
  'nciks',
  'aciks',
];
const TAGS: [string, string, string, string, string][] = [
  // tag, datatype, iord, crdr, label
  ['Revenues', 'monetary', 'D', 'C', 'Revenues'],
  ['NetIncomeLoss', 'monetary', 'D', 'C', 'Net Income (Loss) Attributable to Parent'],
  ['Assets', 'monetary', 'I', 'D', 'Assets'],
  ['EarningsPerShareBasic', 'perShare', 'D', '', 'Earnings Per Share, Basic'],
];

/** One quarter's data set in the current layout (num.txt with `segments`), in a folder named `2024q1`. */
export async function writeFinancialStatementsSample(dir: string, opts: SampleOptions): Promise<void> {
  const out = join(dir, '2024q1');
  await mkdir(out, { recursive: true });
  const r = mulberry32(opts.seed + 11);
  const sub: string[] = [SUB_COLS.join('\t')];
  const num: string[] = ['adsh\ttag\tversion\tddate\tqtrs\tuom\tsegments\tcoreg\tvalue\tfootnote'];
  for (const [i, c] of sampleCompanies(opts.seed, opts.scale).entries()) {
    const adsh = sampleAccession(c.cik, 2024, 1);
    const filed = `202402${String(10 + (i % 18)).padStart(2, '0')}`;
    const vals: Record<string, string | number> = {
      adsh,
      cik: c.cik,
      name: c.name.toUpperCase(),
      sic: c.sic,
      countryba: 'US',
      stprba: c.state,
      cityba: 'SPRINGFIELD',
      zipba: '12345',
      bas1: `${100 + i} MAIN ST`,
      bas2: '',
      baph: '5550100',
      countryma: 'US',
      stprma: c.state,
      cityma: 'SPRINGFIELD',
      zipma: '12345',
      mas1: `${100 + i} MAIN ST`,
      mas2: '',
      countryinc: 'US',
      stprinc: c.state,
      ein: 100000000 + c.cik,
      former: c.formerName?.toUpperCase() ?? '',
      changed: c.formerName ? '20200630' : '',
      afs: i % 2 ? '1-LAF' : '5-SML',
      wksi: i % 2,
      fye: c.fye,
      form: '10-K',
      period: '20231231',
      fy: 2023,
      fp: 'FY',
      filed,
      accepted: `${filed.slice(0, 4)}-${filed.slice(4, 6)}-${filed.slice(6)} 16:05:00.0`,
      prevrpt: 0,
      detail: 1,
      instance: `${c.ticker.toLowerCase()}-20231231_htm.xml`,
      nciks: 1,
      aciks: '',
    };
    sub.push(SUB_COLS.map((k) => String(vals[k] ?? '')).join('\t'));
    for (const [tag, datatype, iord] of TAGS) {
      for (const y of [2022, 2023]) {
        const qtrs = iord === 'I' ? 0 : 4;
        const v = datatype === 'perShare' ? (r() * 5).toFixed(4) : (Math.round(r() * 5e9) / 1).toFixed(4);
        num.push([adsh, tag, 'us-gaap/2023', `${y}1231`, qtrs, datatype === 'perShare' ? 'USD/shares' : 'USD', '', '', v, ''].join('\t'));
        if (tag === 'Revenues') {
          num.push([adsh, tag, 'us-gaap/2023', `${y}1231`, qtrs, 'USD', 'ProductOrService=Services;', '', Math.round(r() * 1e9).toFixed(4), ''].join('\t'));
        }
      }
    }
  }
  const tag = [
    'tag\tversion\tcustom\tabstract\tdatatype\tiord\tcrdr\ttlabel\tdoc',
    ...TAGS.map(([t, dt, io, cd, label]) => [t, 'us-gaap/2023', 0, 0, dt, io, cd, label, `${label} (demo).`].join('\t')),
  ];
  await writeFile(join(out, 'sub.txt'), `${sub.join('\n')}\n`);
  await writeFile(join(out, 'num.txt'), `${num.join('\n')}\n`);
  await writeFile(join(out, 'tag.txt'), `${tag.join('\n')}\n`);
}
