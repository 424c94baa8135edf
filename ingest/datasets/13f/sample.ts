import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { join } from 'node:path';
import { Rng } from '../../samples/random.ts';
import { STATES, CITIES, firmName } from '../../samples/rng.ts';
import { writeZip } from '../../sources/common/zip.ts';
import type { SampleOptions } from '../../sources/common/context.ts';
import { addDays, broadUniverse, dmy, sampleUniverse } from '../../samples/securities.ts';
import { sampleManagers } from '../../samples/universe.ts';

/**
 * Two consecutive Form 13F data set windows in the published layout (tab-separated members with the real headers,
 * dates `DD-MON-YYYY`): period 2024-09-30 filed Oct–Nov 2024 and period 2024-12-31 filed Jan–Feb 2025, for the same
 * managers. Each manager's Q4 portfolio is its Q3 one moved on: some positions grown, trimmed, closed and opened, so the
 * quarter-over-quarter 13F events (holding_added/removed, position_increased/decreased) have something to find.
 * It carries the cases the pipeline must handle: most filers in dollars, some still in thousands (a mixed period),
 * a RESTATEMENT, a NEW HOLDINGS amendment, a 13F-NT notice, and positions split over two lines (SOLE + DFND).
 * At scale ≤ 1 each window is a real zip (`make demo`); larger scales (benches) write unpacked folders, since the
 * zip writer holds members in memory.
 */
export const SAMPLE_WINDOW = '01dec2024-28feb2025_form13f';
export const SAMPLE_PREVIOUS_WINDOW = '01sep2024-30nov2024_form13f';

interface WindowSpec {
  name: string;
  periodEnd: string;
  /** First filing day of the window's reports. */
  filedFrom: string;
  /** Accession year digits. */
  yy: string;
  /** Price drift of the quarter (market moved between the two period ends). */
  drift: number;
}

const WINDOWS: Record<'previous' | 'current', WindowSpec> = {
  previous: { name: SAMPLE_PREVIOUS_WINDOW, periodEnd: '2024-09-30', filedFrom: '2024-10-01', yy: '24', drift: 0.96 },
  current: { name: SAMPLE_WINDOW, periodEnd: '2024-12-31', filedFrom: '2025-01-02', yy: '25', drift: 1 },
};

/** The quarterly data set's members and their columns, as published (the tests write small data sets with them). */
export const DATASET_HEADERS = {
  SUBMISSION: ['ACCESSION_NUMBER', 'FILING_DATE', 'SUBMISSIONTYPE', 'CIK', 'PERIODOFREPORT'],
  COVERPAGE: [
    'ACCESSION_NUMBER',
    'REPORTCALENDARORQUARTER',
    'ISAMENDMENT',
    'AMENDMENTNO',
    'AMENDMENTTYPE',
    'CONFDENIEDEXPIRED',
    'DATEDENIEDEXPIRED',
    'DATEREPORTED',
    'REASONFORNONCONFIDENTIALITY',
    'FILINGMANAGER_NAME',
    'FILINGMANAGER_STREET1',
    'FILINGMANAGER_STREET2',
    'FILINGMANAGER_CITY',
    'FILINGMANAGER_STATEORCOUNTRY',
    'FILINGMANAGER_ZIPCODE',
    'REPORTTYPE',
    'FORM13FFILENUMBER',
    'CRDNUMBER',
    'SECFILENUMBER',
    'PROVIDEINFOFORINSTRUCTION5',
    'ADDITIONALINFORMATION',
  ],
  SUMMARYPAGE: ['ACCESSION_NUMBER', 'OTHERINCLUDEDMANAGERSCOUNT', 'TABLEENTRYTOTAL', 'TABLEVALUETOTAL', 'ISCONFIDENTIALOMITTED'],
  INFOTABLE: [
    'ACCESSION_NUMBER',
    'INFOTABLE_SK',
    'NAMEOFISSUER',
    'TITLEOFCLASS',
    'CUSIP',
    'FIGI',
    'VALUE',
    'SSHPRNAMT',
    'SSHPRNAMTTYPE',
    'PUTCALL',
    'INVESTMENTDISCRETION',
    'OTHERMANAGER',
    'VOTING_AUTH_SOLE',
    'VOTING_AUTH_SHARED',
    'VOTING_AUTH_NONE',
  ],
} as const;

type Member = keyof typeof DATASET_HEADERS;

class TsvWriter {
  private streams = new Map<Member, WriteStream>();
  constructor(private dir: string) {}
  async row(member: Member, cells: (string | number | null)[]): Promise<void> {
    let s = this.streams.get(member);
    if (!s) {
      s = createWriteStream(join(this.dir, `${member}.tsv`));
      this.streams.set(member, s);
      s.write(`${DATASET_HEADERS[member].join('\t')}\n`);
    }
    if (!s.write(`${cells.map((c) => (c == null ? '' : String(c))).join('\t')}\n`)) await once(s, 'drain');
  }
  async close(): Promise<void> {
    await Promise.all([...this.streams.values()].map((s) => new Promise<void>((r) => s.end(() => r()))));
  }
}

interface Position {
  security: number;
  shares: number;
}

/**
 * One manager's next-quarter portfolio: ~8% closed, ~12% grown, ~12% trimmed, the rest unchanged, ~6% new names —
 * enough for every 13F event type without the demo feed drowning in them (≈8k events at demo scale).
 */
function nextQuarter(rng: Rng, held: Position[], universeSize: number): Position[] {
  const out: Position[] = [];
  const taken = new Set(held.map((p) => p.security));
  for (const p of held) {
    const r = rng.next();
    if (r < 0.08) continue;
    const shares =
      r < 0.2 ? Math.round(p.shares * (1.1 + rng.next() * 0.9)) : r < 0.32 ? Math.max(1, Math.round(p.shares * (0.3 + rng.next() * 0.6))) : p.shares;
    out.push({ security: p.security, shares });
  }
  const opened = Math.max(1, Math.round(held.length * 0.06));
  for (let k = 0; k < opened && taken.size < universeSize; k++) {
    let i = rng.int(0, universeSize - 1);
    while (taken.has(i)) i = (i + 1) % universeSize;
    taken.add(i);
    out.push({ security: i, shares: rng.logUniform(100, 2_000_000) });
  }
  return out;
}

export async function write13fSample(dir: string, opts: SampleOptions): Promise<void> {
  await write13fWindows(dir, opts, ['previous', 'current']);
}

/**
 * Writes the chosen windows (the bench writes only the current one: a single ≈3M-line window at its scale). Both
 * quarters are generated either way so the current window is the same whether or not the previous one is written.
 * `securities` (benches): a universe that broad (`broadUniverse`), each manager's names drawn with a real quarter's
 * skew (the index is u² of the universe: the most held security is in about half of the portfolios, the least held
 * in a few dozen); without it, the sample's 600 securities drawn evenly (the demo and the tests' figures).
 */
export async function write13fWindows(dir: string, opts: SampleOptions, which: ('previous' | 'current')[], securities?: number): Promise<void> {
  const rng = new Rng(opts.seed);
  const universe = securities ? broadUniverse(opts.seed, securities) : sampleUniverse(opts.seed, 600);
  const pickSecurity = securities ? () => Math.floor(rng.next() ** 2 * universe.length) : () => rng.int(0, universe.length - 1);
  const managers = sampleManagers(opts.seed, opts.scale);
  const writers = new Map<WindowSpec, TsvWriter>();
  for (const k of which) {
    await mkdir(join(dir, WINDOWS[k].name), { recursive: true });
    writers.set(WINDOWS[k], new TsvWriter(join(dir, WINDOWS[k].name)));
  }
  let sk = 50_000_000;
  let seq = 1;

  const file = async (
    win: WindowSpec,
    cik: number,
    name: string,
    kind: 'HR' | 'RESTATEMENT' | 'NEW HOLDINGS' | 'NT',
    filed: string,
    thousands: boolean,
    positions: Position[],
  ) => {
    const acc = `${String(900000000 + cik).padStart(10, '0')}-${win.yy}-${String(seq++).padStart(6, '0')}`;
    const state = rng.pick(STATES);
    const w = writers.get(win);
    // The random draws happen whether or not the window is written, so both windows stay identical either way.
    const street = `${rng.int(1, 999)} MAIN STREET`;
    const zip = String(rng.int(10000, 99999));
    const fileNo = `028-${rng.int(10000, 29999)}`;
    const amended = kind === 'RESTATEMENT' || kind === 'NEW HOLDINGS';
    const type = kind === 'NT' ? '13F-NT' : amended ? '13F-HR/A' : '13F-HR';
    await w?.row('SUBMISSION', [acc, dmy(filed), type, String(cik).padStart(10, '0'), dmy(win.periodEnd)]);
    await w?.row('COVERPAGE', [
      acc,
      dmy(win.periodEnd),
      amended ? 'Y' : 'N',
      amended ? 1 : null,
      amended ? kind : null,
      null,
      null,
      null,
      null,
      name,
      street,
      null,
      CITIES[state] ?? 'NEW YORK',
      state,
      zip,
      kind === 'NT' ? '13F NOTICE' : '13F HOLDINGS REPORT',
      fileNo,
      null,
      null,
      'N',
      null,
    ]);
    if (kind === 'NT') return;
    let total = 0;
    let lines = 0;
    for (const pos of positions) {
      const s = universe[pos.security];
      const dollars = Math.round(pos.shares * s.price * win.drift * (0.97 + rng.next() * 0.06));
      const putCall = rng.chance(0.02) ? rng.pick(['Put', 'Call']) : null;
      // Some positions are reported over two lines: the part managed alone and the part shared with another manager.
      const split = rng.chance(0.05) && pos.shares >= 200 ? Math.round(pos.shares * 0.6) : null;
      const parts: [number, 'SOLE' | 'DFND'][] = split
        ? [
            [split, 'SOLE'],
            [pos.shares - split, 'DFND'],
          ]
        : [[pos.shares, rng.chance(0.85) ? 'SOLE' : 'DFND']];
      for (const [shares, discretion] of parts) {
        const usd = Math.round((dollars * shares) / pos.shares);
        const value = thousands ? Math.round(usd / 1000) : usd;
        total += value;
        lines++;
        await w?.row('INFOTABLE', [
          acc,
          sk++,
          s.issuer,
          s.title,
          s.cusip,
          null,
          value,
          shares,
          'SH',
          putCall,
          discretion,
          discretion === 'DFND' ? '1' : null,
          discretion === 'SOLE' ? shares : 0,
          discretion === 'DFND' ? shares : 0,
          0,
        ]);
      }
    }
    await w?.row('SUMMARYPAGE', [acc, 0, lines, total, 'N']);
  };

  for (const [m, manager] of managers.entries()) {
    const { cik, name } = manager;
    // The name comes from the universe; the draw stays so every later position (and the figures tests record) is unchanged.
    firmName(rng, m);
    const role = m % 50;
    const picks = new Set<number>();
    const count = rng.int(40, 160);
    while (picks.size < Math.min(count, universe.length)) picks.add(pickSecurity());
    const q3: Position[] = [...picks].map((security) => ({ security, shares: rng.logUniform(100, 2_000_000) }));
    const q4 = nextQuarter(rng, q3, universe.length);
    for (const [win, positions] of [
      [WINDOWS.previous, q3],
      [WINDOWS.current, q4],
    ] as const) {
      const filed = addDays(win.filedFrom, rng.int(0, 44));
      if (role === 7) {
        await file(win, cik, name, 'NT', filed, false, []);
        continue;
      }
      // Late switchers: still thousands after the rule change (the mixed-period case).
      await file(win, cik, name, 'HR', filed, role === 3 || role === 11, positions);
      if (win !== WINDOWS.current) continue;
      // The restatement corrects share counts of the original; the new-holdings amendment adds three names.
      if (role === 5)
        await file(
          win,
          cik,
          name,
          'RESTATEMENT',
          addDays(filed, 3),
          false,
          positions.map((p) => ({ ...p, shares: p.shares + 100 })),
        );
      if (role === 9) {
        const held = new Set(positions.map((p) => p.security));
        const extra = universe
          .map((_, i) => i)
          .filter((i) => !held.has(i))
          .slice(0, 3);
        await file(
          win,
          cik,
          name,
          'NEW HOLDINGS',
          addDays(filed, 5),
          false,
          extra.map((security) => ({ security, shares: 1000 })),
        );
      }
    }
  }
  for (const w of writers.values()) await w.close();
  if (opts.scale <= 1) {
    for (const win of writers.keys()) {
      const folder = join(dir, win.name);
      const members = await Promise.all(
        (Object.keys(DATASET_HEADERS) as Member[]).map(async (m) => ({
          name: `${win.name}/${m}.tsv`,
          data: await readFile(join(folder, `${m}.tsv`)),
        })),
      );
      await writeZip(join(dir, `${win.name}.zip`), members);
      await rm(folder, { recursive: true, force: true });
    }
  }
}
