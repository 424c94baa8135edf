import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { join } from 'node:path';
import { Rng, STATES, CITIES, firmName } from '../adv-common/rng.ts';
import { writeZip } from '../adv-common/zip.ts';
import type { SampleOptions } from '../core/dataset.ts';
import { addDays, dmy, sampleUniverse } from '../funds-common/securities.ts';

/**
 * A Form 13F data set window in the published layout (tab-separated members with the real headers, dates
 * `DD-MON-YYYY`), for period 2024-12-31 filed Jan–Feb 2025. It carries the cases the pipeline must handle:
 * most filers in dollars, some still in thousands (a mixed period), a RESTATEMENT, a NEW HOLDINGS amendment, a
 * 13F-NT notice, and multi-line positions. At scale 1 it is a real zip (`make demo`); larger scales (benches)
 * write the unpacked folder, since the zip writer holds members in memory.
 */
export const SAMPLE_WINDOW = '01dec2024-28feb2025_form13f';
const PERIOD_END = '2024-12-31';

const HEADERS = {
  SUBMISSION: ['ACCESSION_NUMBER', 'FILING_DATE', 'SUBMISSIONTYPE', 'CIK', 'PERIODOFREPORT'],
  COVERPAGE: ['ACCESSION_NUMBER', 'REPORTCALENDARORQUARTER', 'ISAMENDMENT', 'AMENDMENTNO', 'AMENDMENTTYPE', 'CONFDENIEDEXPIRED', 'DATEDENIEDEXPIRED',
    'DATEREPORTED', 'REASONFORNONCONFIDENTIALITY', 'FILINGMANAGER_NAME', 'FILINGMANAGER_STREET1', 'FILINGMANAGER_STREET2', 'FILINGMANAGER_CITY',
    'FILINGMANAGER_STATEORCOUNTRY', 'FILINGMANAGER_ZIPCODE', 'REPORTTYPE', 'FORM13FFILENUMBER', 'CRDNUMBER', 'SECFILENUMBER',
    'PROVIDEINFOFORINSTRUCTION5', 'ADDITIONALINFORMATION'],
  SUMMARYPAGE: ['ACCESSION_NUMBER', 'OTHERINCLUDEDMANAGERSCOUNT', 'TABLEENTRYTOTAL', 'TABLEVALUETOTAL', 'ISCONFIDENTIALOMITTED'],
  INFOTABLE: ['ACCESSION_NUMBER', 'INFOTABLE_SK', 'NAMEOFISSUER', 'TITLEOFCLASS', 'CUSIP', 'FIGI', 'VALUE', 'SSHPRNAMT', 'SSHPRNAMTTYPE', 'PUTCALL',
    'INVESTMENTDISCRETION', 'OTHERMANAGER', 'VOTING_AUTH_SOLE', 'VOTING_AUTH_SHARED', 'VOTING_AUTH_NONE'],
} as const;

type Member = keyof typeof HEADERS;

class TsvWriter {
  private streams = new Map<Member, WriteStream>();
  constructor(private dir: string) {}
  async row(member: Member, cells: (string | number | null)[]): Promise<void> {
    let s = this.streams.get(member);
    if (!s) {
      s = createWriteStream(join(this.dir, `${member}.tsv`));
      this.streams.set(member, s);
      s.write(`${HEADERS[member].join('\t')}\n`);
    }
    if (!s.write(`${cells.map((c) => (c == null ? '' : String(c))).join('\t')}\n`)) await once(s, 'drain');
  }
  async close(): Promise<void> {
    await Promise.all([...this.streams.values()].map((s) => new Promise<void>((r) => s.end(() => r()))));
  }
}

export async function write13fSample(dir: string, opts: SampleOptions): Promise<void> {
  const rng = new Rng(opts.seed);
  const universe = sampleUniverse(opts.seed, 600);
  const managers = Math.max(8, Math.round(200 * opts.scale));
  const folder = join(dir, SAMPLE_WINDOW);
  await mkdir(folder, { recursive: true });
  const w = new TsvWriter(folder);
  let sk = 50_000_000;
  let seq = 1;

  const file = async (cik: number, name: string, kind: 'HR' | 'RESTATEMENT' | 'NEW HOLDINGS' | 'NT', filed: string, thousands: boolean, holdings: number) => {
    const acc = `${String(900000000 + cik).padStart(10, '0')}-25-${String(seq++).padStart(6, '0')}`;
    const state = rng.pick(STATES);
    const amended = kind === 'RESTATEMENT' || kind === 'NEW HOLDINGS';
    const type = kind === 'NT' ? '13F-NT' : amended ? '13F-HR/A' : '13F-HR';
    await w.row('SUBMISSION', [acc, dmy(filed), type, String(cik).padStart(10, '0'), dmy(PERIOD_END)]);
    await w.row('COVERPAGE', [acc, dmy(PERIOD_END), amended ? 'Y' : 'N', amended ? 1 : null, amended ? kind : null, null, null, null, null,
      name, `${rng.int(1, 999)} MAIN STREET`, null, CITIES[state] ?? 'NEW YORK', state, String(rng.int(10000, 99999)),
      kind === 'NT' ? '13F NOTICE' : '13F HOLDINGS REPORT', `028-${rng.int(10000, 29999)}`, null, null, 'N', null]);
    if (kind === 'NT') return;
    let total = 0;
    const picks = new Set<number>();
    while (picks.size < Math.min(holdings, universe.length)) picks.add(rng.int(0, universe.length - 1));
    for (const i of picks) {
      const s = universe[i];
      const shares = rng.logUniform(100, 2_000_000);
      const dollars = Math.round(shares * s.price * (0.97 + rng.next() * 0.06));
      const value = thousands ? Math.round(dollars / 1000) : dollars;
      total += value;
      const putCall = rng.chance(0.02) ? rng.pick(['Put', 'Call']) : null;
      const discretion = rng.chance(0.85) ? 'SOLE' : 'DFND';
      await w.row('INFOTABLE', [acc, sk++, s.issuer, s.title, s.cusip, null, value, shares, 'SH', putCall, discretion,
        discretion === 'DFND' ? '1' : null, discretion === 'SOLE' ? shares : 0, discretion === 'DFND' ? shares : 0, 0]);
    }
    await w.row('SUMMARYPAGE', [acc, 0, picks.size, total, 'N']);
  };

  for (let m = 0; m < managers; m++) {
    const cik = 1_500_000 + m * 7;
    const { legal } = firmName(rng, m);
    const name = legal.toUpperCase();
    const filed = addDays('2025-01-02', rng.int(0, 55));
    const holdings = rng.int(40, 160);
    const role = m % 50;
    if (role === 7) { await file(cik, name, 'NT', filed, false, 0); continue; }
    // A late switcher: same period, still thousands in 2025 (the mixed-period case).
    await file(cik, name, 'HR', filed, role === 3 || role === 11, holdings);
    if (role === 5) await file(cik, name, 'RESTATEMENT', addDays(filed, 3), false, holdings);
    if (role === 9) await file(cik, name, 'NEW HOLDINGS', addDays(filed, 5), false, 3);
  }
  await w.close();
  if (opts.scale <= 1) {
    const members = await Promise.all((Object.keys(HEADERS) as Member[]).map(async (m) => ({
      name: `${SAMPLE_WINDOW}/${m}.tsv`, data: await readFile(join(folder, `${m}.tsv`)),
    })));
    await writeZip(join(dir, `${SAMPLE_WINDOW}.zip`), members);
    await rm(folder, { recursive: true, force: true });
  }
}
