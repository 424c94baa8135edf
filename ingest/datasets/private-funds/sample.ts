import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { SampleOptions } from '../../sources/common/context.ts';
import { cp1252Csv } from '../../samples/csv-write.ts';
import { Rng } from '../../samples/random.ts';
import { sampleFirms, type SampleFirm } from '../../samples/firms.ts';
import { writeZip } from '../../sources/common/zip.ts';

/** The demo month of ADV filing data (IAPD publishes one zip per calendar month). */
const SAMPLE_PERIOD = { from: '20260601', to: '20260630' };

const BASE_HEADERS = [
  'FilingID',
  'DateSubmitted',
  '1A',
  '1B1',
  '1D',
  '1E1',
  '1F1-Street 1',
  '1F1-City',
  '1F1-State',
  '1F1-Country',
  '5F2a',
  '5F2b',
  '5F2c',
  '7A',
  '7B',
  '10A',
  '11',
];
const ERA_BASE_HEADERS = ['FilingID', 'DateSubmitted', '1A', '1B1', '1D', '1E1', '1F1-City', '1F1-State', '7B', '10A', '11'];
/** Header of `*_Schedule_D_7B1_*.csv` as published. */
const FUND_HEADERS = [
  'FilingID',
  'Fund Name',
  'Fund ID',
  'ReferenceID',
  'State',
  'Country',
  '3(c)(1) Exclusion',
  '3(c)(7) Exclusion',
  'Master Fund',
  'Feeder Fund',
  'Master Fund Name',
  'Master Fund ID',
  'Fund of Funds',
  'Fund Invested Self or Related',
  'Fund Invested in Securities',
  'Fund Type',
  'Fund Type Other',
  'Gross Asset Value',
  'Minimum Investment',
  'Owners',
  '%Owned You or Related',
  '%Owned Funds',
  'Sales Limited',
  '%Owned Non-US',
  'Subadviser',
  'Other IAs Advise',
  'Clients Solicited',
  'Percentage Invested',
  'Exempt from Registration',
  'Annual Audit',
  'GAAP',
  'FS Distributed',
  'Unqualified Opinion',
  'Prime Brokers',
  'Custodians',
  'Administrator',
  '% Assets Valued',
  'Marketing',
];
const FUND_7B2_HEADERS = ['FilingID', 'Fund Name', 'Fund ID', 'Adviser Name', 'Adviser SEC Number', 'Clients Solicited?'];

const FUND_TYPES = [
  'Hedge Fund',
  'Private Equity Fund',
  'Venture Capital Fund',
  'Real Estate Fund',
  'Securitized Asset Fund',
  'Liquidity Fund',
  'Other Private Fund',
];
const FUND_SUFFIX = [
  'Opportunity Fund, L.P.',
  'Master Fund, L.P.',
  'Offshore Fund, Ltd.',
  'Partners II, L.P.',
  'Credit Fund III, L.P.',
  'Growth Fund IV, L.P.',
  'Co-Invest, LLC',
  'Select Fund (Cayman), Ltd.',
];
const yn = (b: boolean) => (b ? 'Y' : 'N');

function submitted(day: number, rng: Rng): string {
  const h = rng.int(1, 12);
  return (
    `06/${String(day).padStart(2, '0')}/2026 ${String(h).padStart(2, '0')}:` +
    `${String(rng.int(0, 59)).padStart(2, '0')}:${String(rng.int(0, 59)).padStart(2, '0')} ` +
    `${rng.chance(0.5) ? 'AM' : 'PM'}`
  );
}

function baseRow(f: SampleFirm, filingId: number, when: string): Record<string, string | number | null> {
  return {
    FilingID: filingId,
    DateSubmitted: when,
    '1A': f.legal,
    '1B1': f.business,
    '1D': f.secNumber,
    '1E1': f.crd,
    '1F1-Street 1': f.street1,
    '1F1-City': f.city,
    '1F1-State': f.state,
    '1F1-Country': f.country,
    '5F2a': f.discretionary,
    '5F2b': f.aum == null ? null : f.aum - f.discretionary!,
    '5F2c': f.aum,
    '7A': 'N',
    '7B': 'Y',
    '10A': yn(f.crd % 3 === 0),
    '11': yn(f.disciplinary),
  };
}

/** Funds of one adviser; `fundIdBase` keeps 805- identifiers stable between an original filing and its amendment. */
function fundRows(f: SampleFirm, filingId: number, count: number, rng: Rng, fundIdBase: number): Record<string, string | number | null>[] {
  const short = f.business
    .split(' ')
    .slice(0, 2)
    .join(' ')
    .replace(/(^|\s)\S/g, (c) => c)
    .toLowerCase()
    .replace(/\b\w/g, (c) => c.toUpperCase());
  const rows: Record<string, string | number | null>[] = [];
  for (let k = 0; k < count; k++) {
    const type = rng.pick(FUND_TYPES);
    const master = k === 1;
    const state = rng.pick(['Delaware', 'Delaware', 'Cayman Islands', 'New York', '']);
    rows.push({
      FilingID: filingId,
      'Fund Name': `${short} ${FUND_SUFFIX[k % FUND_SUFFIX.length]}`,
      'Fund ID': `805-${String(fundIdBase + k).padStart(10, '0')}`,
      ReferenceID: 400_000 + fundIdBase + k,
      State: state === 'Cayman Islands' ? '' : state,
      Country: state === 'Cayman Islands' ? 'Cayman Islands' : 'United States',
      '3(c)(1) Exclusion': yn(k % 2 === 0),
      '3(c)(7) Exclusion': yn(k % 2 === 1),
      'Master Fund': yn(master),
      'Feeder Fund': yn(k === 2),
      'Master Fund Name': k === 2 ? `${short} ${FUND_SUFFIX[1]}` : '',
      'Master Fund ID': k === 2 ? `805-${String(fundIdBase + 1).padStart(10, '0')}` : '',
      'Fund of Funds': yn(type === 'Other Private Fund' && rng.chance(0.5)),
      'Fund Invested Self or Related': 'N',
      'Fund Invested in Securities': yn(rng.chance(0.2)),
      'Fund Type': type,
      'Fund Type Other': type === 'Other Private Fund' ? 'Private Credit' : '',
      'Gross Asset Value': rng.logUniform(1_000_000, 20_000_000_000),
      'Minimum Investment': rng.pick([0, 250_000, 1_000_000, 5_000_000]),
      Owners: rng.int(1, 2500),
      '%Owned You or Related': rng.int(0, 15),
      '%Owned Funds': rng.int(0, 40),
      'Sales Limited': 'Y',
      '%Owned Non-US': rng.int(0, 60),
      Subadviser: yn(rng.chance(0.1)),
      'Other IAs Advise': yn(rng.chance(0.1)),
      'Clients Solicited': yn(rng.chance(0.3)),
      'Percentage Invested': rng.int(0, 10),
      'Exempt from Registration': 'Y',
      'Annual Audit': 'Y',
      GAAP: 'Y',
      'FS Distributed': 'Y',
      'Unqualified Opinion': 'Yes',
      'Prime Brokers': yn(type === 'Hedge Fund'),
      Custodians: 'Y',
      Administrator: 'Y',
      '% Assets Valued': 100,
      Marketing: 'N',
    });
  }
  return rows;
}

export async function writeFilingDataSample(dir: string, opts: SampleOptions): Promise<string> {
  const firms = sampleFirms(opts.seed, opts.scale).filter((f) => f.hasPrivateFunds);
  const rng = new Rng(opts.seed + 3);
  const ia = { base: [] as Record<string, string | number | null>[], funds: [] as Record<string, string | number | null>[] };
  const era = { base: [] as Record<string, string | number | null>[], funds: [] as Record<string, string | number | null>[] };
  const b2: Record<string, string | number | null>[] = [];
  let filingId = 2_115_000;
  firms.forEach((f, i) => {
    const target = f.exempt ? era : ia;
    const fundIdBase = 1_600_000_000 + f.crd * 20;
    if (i === 0) {
      // An amendment in the same month: the earlier filing listed one more fund, which the later one dropped.
      const early = filingId++;
      target.base.push(baseRow(f, early, submitted(3, rng)));
      target.funds.push(...fundRows(f, early, f.privateFundCount + 1, new Rng(opts.seed + 4), fundIdBase));
    }
    const id = filingId++;
    target.base.push(baseRow(f, id, submitted(i === 0 ? 20 : rng.int(1, 30), rng)));
    target.funds.push(...fundRows(f, id, f.privateFundCount, i === 0 ? new Rng(opts.seed + 4) : rng, fundIdBase));
    if (i % 9 === 0)
      b2.push({
        FilingID: id,
        'Fund Name': 'Third-Party Feeder Fund, L.P.',
        'Fund ID': `805-${String(9_000_000_000 + i).padStart(10, '0')}`,
        'Adviser Name': 'OTHER ADVISER LLC',
        'Adviser SEC Number': '801-99999',
        'Clients Solicited?': 'N',
      });
  });
  await mkdir(dir, { recursive: true });
  const sfx = `${SAMPLE_PERIOD.from}_${SAMPLE_PERIOD.to}`;
  const path = join(dir, `ADV_Filing_Data_${sfx}.zip`);
  await writeZip(path, [
    { name: `IA_ADV_Base_A_${sfx}.csv`, data: cp1252Csv(BASE_HEADERS, ia.base) },
    { name: `ERA_ADV_Base_${sfx}.csv`, data: cp1252Csv(ERA_BASE_HEADERS, era.base) },
    { name: `IA_Schedule_D_7B1_${sfx}.csv`, data: cp1252Csv(FUND_HEADERS, ia.funds) },
    { name: `ERA_Schedule_D_7B1_${sfx}.csv`, data: cp1252Csv(FUND_HEADERS, era.funds) },
    { name: `IA_Schedule_D_7B2_${sfx}.csv`, data: cp1252Csv(FUND_7B2_HEADERS, b2) },
  ]);
  return path;
}

export async function writePrivateFundsSample(dir: string, opts: SampleOptions): Promise<void> {
  await writeFilingDataSample(dir, opts);
}
