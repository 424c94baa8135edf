import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SampleOptions } from '../../sources/common/context.ts';
import { cp1252Csv } from '../../samples/csv-write.ts';
import { Rng } from '../../samples/random.ts';
import { mmddyyyy } from '../../samples/rng.ts';
import { sampleFirms } from '../../samples/firms.ts';

const CRS_HEADERS = [
  'Filing ID',
  'Firm CRD',
  'Filer CIK',
  'Filer Name',
  'SEC Number',
  'Form Sub Type',
  'Filing Date',
  'Disciplinary History',
  'Number of Financial Professionals',
  'Document URL',
];

export interface SampleCrs {
  id: string;
  crd: number;
  cik: string | null;
  name: string;
  subType: string;
  filed: string;
  disciplinary: boolean;
  professionals: number;
}

/** Form CRS filings of the demo's registered advisers: an initial filing and, for some, an amendment. */
export function sampleCrs(seed: number, scale: number): SampleCrs[] {
  const rng = new Rng(seed + 31);
  const out: SampleCrs[] = [];
  for (const f of sampleFirms(seed, scale).filter((x) => !x.exempt)) {
    if (!rng.chance(0.6)) continue;
    const first = `202${rng.int(0, 5)}-0${rng.int(1, 9)}-1${rng.int(0, 9)}`;
    const base = { crd: f.crd, cik: f.cik, name: f.legal, disciplinary: f.disciplinary, professionals: Math.max(1, Math.round(f.employees * 0.6)) };
    out.push({ ...base, id: `CRS-${f.crd}-1`, subType: 'Initial', filed: first });
    if (rng.chance(0.4)) out.push({ ...base, id: `CRS-${f.crd}-2`, subType: 'Amendment', filed: `2026-0${rng.int(1, 6)}-2${rng.int(0, 8)}` });
  }
  return out;
}

/** A Windows-1252 CSV in the layout our parser documents (the published layout is unverified). */
export async function writeFormCrsSample(dir: string, opts: SampleOptions): Promise<void> {
  const rows = sampleCrs(opts.seed, opts.scale).map((c) => ({
    'Filing ID': c.id,
    'Firm CRD': c.crd,
    'Filer CIK': c.cik,
    'Filer Name': c.name,
    'SEC Number': null,
    'Form Sub Type': c.subType,
    'Filing Date': mmddyyyy(c.filed),
    'Disciplinary History': c.disciplinary ? 'Y' : 'N',
    'Number of Financial Professionals': c.professionals,
    'Document URL': `https://reports.adviserinfo.sec.gov/crs/crs_${c.crd}.pdf`,
  }));
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'Form_CRS_Data_20260630.csv'), cp1252Csv(CRS_HEADERS, rows));
}
