import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SampleOptions } from '../../sources/common/context.ts';
import { Rng } from '../../samples/random.ts';
import { CITIES, firmName, STATES } from '../../samples/rng.ts';

const SAMPLE_BD_DATE = '2026-07-01';
/** Demo size at scale 1 (the real list has ~3,300 firms). */
const DEMO_BDS = 300;

export interface SampleBd {
  cik: number;
  fileNo: number;
  crd: number;
  name: string;
  city: string;
  state: string;
  zip: string;
  street: string;
}

export function sampleBrokerDealers(seed: number, scale: number): SampleBd[] {
  const rng = new Rng(seed + 11);
  const n = Math.max(1, Math.round(DEMO_BDS * scale));
  const out: SampleBd[] = [];
  for (let i = 0; i < n; i++) {
    const foreign = i % 50 === 7;
    const state = foreign ? 'A6' : rng.pick(STATES);
    let name = `${firmName(rng, i).business.replace(/ (MANAGEMENT|ADVISORS|COUNSEL|STRATEGIES)$/, '')} SECURITIES`;
    if (i % 40 === 5) name = `SOCIÉTÉ ${name}`;
    out.push({
      cik: 700_000 + i * 13 + rng.int(0, 12),
      fileNo: 10_000 + i * 17 + rng.int(0, 16),
      crd: 5_000 + i * 11 + rng.int(0, 10),
      name: `${name} ${rng.pick(['LLC', 'INC.', 'CORP', 'L.P.'])}`,
      city: foreign ? 'TORONTO' : CITIES[state],
      state,
      zip: foreign ? 'M5H 2Y4' : String(rng.int(10_000, 99_999)),
      street: `${rng.int(1, 999)} ${rng.pick(['BROAD STREET', 'WALL STREET', 'LASALLE STREET', 'BAY STREET'])}`,
    });
  }
  return out;
}

/** `bd070126.txt` (Latin-1, headerless, trailing tab, some `\r\r\n` endings) and an IAPD firm-search page. */
export async function writeBrokerDealersSample(dir: string, opts: SampleOptions): Promise<void> {
  const bds = sampleBrokerDealers(opts.seed, opts.scale);
  await mkdir(dir, { recursive: true });
  const lines = bds.map(
    (b, i) =>
      [b.cik, b.name, `008${String(b.fileNo).padStart(5, '0')}`, b.street, i % 3 === 0 ? `SUITE ${100 + i}` : '', b.city, b.state, b.zip, ''].join('\t') +
      (i % 10 === 0 ? '\r\r\n' : '\r\n'),
  );
  const stamp = `${SAMPLE_BD_DATE.slice(5, 7)}${SAMPLE_BD_DATE.slice(8, 10)}${SAMPLE_BD_DATE.slice(2, 4)}`;
  await writeFile(join(dir, `bd${stamp}.txt`), Buffer.from(lines.join(''), 'latin1'));
  // IAPD search results for every other firm, plus one firm no longer on the SEC list (inactive).
  const hits = bds
    .filter((_, i) => i % 2 === 0)
    .map((b, i) => ({
      _type: '_doc',
      _source: {
        firm_source_id: String(b.crd),
        firm_bd_sec_number: String(b.fileNo),
        firm_bd_full_sec_number: `8-${b.fileNo}`,
        firm_name: b.name,
        firm_other_names: [b.name],
        firm_scope: 'ACTIVE',
        firm_disclosure_fl: i % 5 === 0 ? 'Y' : 'N',
        firm_ia_disclosure_fl: 'N',
        firm_approved_finra_registration_count: 1,
        firm_branches_count: i % 7,
        firm_address_details: JSON.stringify({
          officeAddress: { street1: b.street, city: b.city, state: b.state, country: b.state === 'A6' ? 'CANADA' : 'UNITED STATES', postalCode: b.zip },
          businessPhoneNumber: '212-555-0100',
          finraLastApprovalDate: '2015-04-07T00:00:00',
        }),
      },
    }));
  hits.push({
    _type: '_doc',
    _source: {
      firm_source_id: '4242',
      firm_bd_sec_number: '99999',
      firm_bd_full_sec_number: '8-99999',
      firm_name: 'GONE SECURITIES CORP.',
      firm_other_names: [],
      firm_scope: 'INACTIVE',
      firm_disclosure_fl: 'Y',
      firm_ia_disclosure_fl: 'N',
      firm_approved_finra_registration_count: 0,
      firm_branches_count: 0,
      firm_address_details: JSON.stringify({ officeAddress: { city: 'CHICAGO', state: 'IL', country: 'UNITED STATES' } }),
      finraLastApprovalDate: undefined,
    } as never,
  });
  await writeFile(join(dir, `iapd_firm_search_${SAMPLE_BD_DATE}.json`), JSON.stringify({ hits: { total: hits.length, hits } }));
}
