import { mulberry32 } from './random.ts';

/**
 * The demo universe shared by the five samples of this area (entities, filings, financials, financial
 * statements, late notices), so the demo lake joins up: the same CIKs, names and tickers everywhere.
 * Deterministic from the seed; names are invented, never copied from real filers.
 */

export interface SampleCompany {
  cik: number;
  name: string;
  ticker: string;
  exchange: string;
  sic: string;
  sicDescription: string;
  state: string;
  fye: string;
  formerName: string | null;
}

const WORDS = [
  'Apex',
  'Blue',
  'Cedar',
  'Delta',
  'Ember',
  'Falcon',
  'Granite',
  'Harbor',
  'Iron',
  'Juniper',
  'Keystone',
  'Lumen',
  'Meridian',
  'Nova',
  'Orion',
  'Pioneer',
  'Quarry',
  'Ridge',
  'Summit',
  'Tidal',
];
const KINDS = ['Holdings Inc.', 'Corp', 'Technologies, Inc.', 'Industries Inc', 'Group Ltd', 'Therapeutics, Inc.', 'Energy Co', 'Bancorp, Inc.'];
const SICS: [string, string][] = [
  ['3571', 'Electronic Computers'],
  ['7372', 'Services-Prepackaged Software'],
  ['2834', 'Pharmaceutical Preparations'],
  ['6022', 'State Commercial Banks'],
  ['1311', 'Crude Petroleum & Natural Gas'],
  ['3674', 'Semiconductors & Related Devices'],
];
const STATES = ['DE', 'CA', 'NY', 'NV', 'TX', 'MD'];
const EXCHANGES = ['Nasdaq', 'NYSE', 'OTC'];
const FYES = ['1231', '0930', '0630', '0331'];

export function sampleCompanies(seed: number, scale: number): SampleCompany[] {
  const r = mulberry32(seed);
  const n = Math.max(4, Math.round(12 * scale));
  const out: SampleCompany[] = [];
  const used = new Set<string>();
  for (let i = 0; i < n; i++) {
    const w = WORDS[i % WORDS.length];
    const kind = KINDS[Math.floor(r() * KINDS.length)];
    const name = `${w} ${i >= WORDS.length ? `${Math.floor(i / WORDS.length) + 1} ` : ''}${kind}`;
    let ticker = (w.slice(0, 3) + String.fromCharCode(65 + (i % 26))).toUpperCase();
    while (used.has(ticker)) ticker += 'X';
    used.add(ticker);
    const [sic, sicDescription] = SICS[Math.floor(r() * SICS.length)];
    out.push({
      cik: 1_900_000 + i * 37,
      name,
      ticker,
      exchange: EXCHANGES[Math.floor(r() * EXCHANGES.length)],
      sic,
      sicDescription,
      state: STATES[Math.floor(r() * STATES.length)],
      fye: FYES[Math.floor(r() * FYES.length)],
      formerName: i % 3 === 0 ? `${w} Acquisition Corp` : null,
    });
  }
  return out;
}

export const pad10 = (cik: number) => String(cik).padStart(10, '0');

/** `0001900000-24-000017`-style accession for the demo: submitter = the company itself. */
export function sampleAccession(cik: number, year: number, seq: number): string {
  return `${pad10(cik)}-${String(year % 100).padStart(2, '0')}-${String(seq).padStart(6, '0')}`;
}

export function addDays(iso: string, days: number): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Forms the demo filings cycle through (with 8-K items), so every downstream event type has input. */
const SAMPLE_FORMS: { form: string; items?: string }[] = [
  { form: '10-K' },
  { form: '10-Q' },
  { form: '8-K', items: '2.02,9.01' },
  { form: '8-K', items: '5.02' },
  { form: '4' },
  { form: '10-K/A' },
  { form: 'S-1' },
  { form: 'D' },
  { form: 'NT 10-K' },
  { form: 'NT 10-Q' },
  { form: '8-K', items: '1.01,9.01' },
  { form: 'S-1/A' },
];

/** Rarer 8-K items, one per company in turn, so the demo feed carries every 8-K event type without flooding it. */
const RARE_8K: { form: string; items: string }[] = [
  { form: '8-K', items: '4.01,9.01' },
  { form: '8-K', items: '1.03' },
  { form: '8-K', items: '1.05' },
  { form: '8-K', items: '3.01,9.01' },
];

/** The forms company number `i` of the sample files (same order in the index and in its submissions JSON). */
export function sampleFormsFor(i: number): { form: string; items?: string }[] {
  return [...SAMPLE_FORMS, RARE_8K[i % RARE_8K.length]];
}
