import { mulberry32, Rng } from './random.ts';

import { cusipCheckDigit } from '../sources/common/cusip.ts';
import { firmName } from './rng.ts';

/**
 * The demo's one universe: every sample generator draws its issuers, managers, fund trusts, private issuers and
 * people from here, and the entity directory's sample lists all of them, so the demo lake joins like real data (a
 * 13F or N-PORT holding's CUSIP, ticker and issuer name lead to one entity; an event's company is in the directory).
 * Deterministic from the seed alone (never from the caller), so every dataset sees the same universe; names are
 * invented, never copied from real filers.
 *
 * - issuers: 600 listed companies (CIK, name, ticker, CUSIP, ISIN, security title, price); the first 12 (at scale 1)
 *   are the reporting companies whose filings, financials and insider trades the demo carries.
 * - managers: the 13F filers; fundTrusts: the N-PORT registrants; privateIssuers: the Form D issuers; otherFilers:
 *   the issuers of the text-change samples (proxy statements, 10-K/10-Q sections), kept at their recorded CIKs.
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

/** A listed issuer: a company of the directory with the security the 13F and N-PORT samples hold. */
export interface SampleIssuer extends SampleCompany {
  /** The issuer name as holdings reports spell it (upper case, no punctuation): the directory name, normalized. */
  holdingsName: string;
  cusip: string;
  isin: string;
  title: string;
  price: number;
}

export interface SampleFiler {
  cik: number;
  name: string;
}

/** Listed issuers in the universe: the 13F and N-PORT samples hold these. */
export const ISSUER_COUNT = 600;

const STEMS = [
  'Acme',
  'Apex',
  'Boreal',
  'Cascade',
  'Delta',
  'Elm',
  'Falcon',
  'Granite',
  'Harbor',
  'Ironwood',
  'Juniper',
  'Kestrel',
  'Lumen',
  'Meridian',
  'Northstar',
  'Orchard',
  'Pinnacle',
  'Quarry',
  'Riverside',
  'Summit',
  'Tidewater',
  'Unity',
  'Vantage',
  'Willow',
];
const KINDS = ['Holdings Inc.', 'Corp', 'Inc.', 'Group Inc', 'Technologies, Inc.', 'Energy Co', 'Bancorp, Inc.', 'Pharmaceuticals Inc', 'Ltd', 'PLC'];
const TITLES = ['COM', 'COM', 'COM', 'CL A', 'SHS', 'COM NEW', 'SPONSORED ADR'];
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

export function isinOf(cusip: string): string {
  const body = `US${cusip}`;
  const digits = body
    .split('')
    .map((c) => (c >= 'A' ? String(c.charCodeAt(0) - 55) : c))
    .join('');
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return `${body}${(10 - (sum % 10)) % 10}`;
}

const issuersBySeed = new Map<number, SampleIssuer[]>();

/**
 * The listed issuers. Each stem + group letter is used once, so every name's core (the name without its corporate
 * suffix, which the 13F issuer match compares) points at exactly one CIK, and so does every ticker.
 */
export function sampleIssuers(seed: number): SampleIssuer[] {
  const cached = issuersBySeed.get(seed);
  if (cached) return cached;
  const r = mulberry32(seed);
  const out: SampleIssuer[] = [];
  for (let i = 0; i < ISSUER_COUNT; i++) {
    const stem = STEMS[i % STEMS.length];
    const group = Math.floor(i / STEMS.length);
    const letter = group ? ` ${String.fromCharCode(65 + group)}` : '';
    const name = `${stem}${letter} ${KINDS[Math.floor(r() * KINDS.length)]}`;
    const base = String(100000 + i * 37)
      .slice(-6)
      .replace(/^0/, '1');
    const first8 = `${base}${['10', '20', '30', '40', '1A', '2B'][Math.floor(r() * 6)]}`;
    const cusip = `${first8}${cusipCheckDigit(first8)}`;
    const [sic, sicDescription] = SICS[Math.floor(r() * SICS.length)];
    out.push({
      cik: 1_900_000 + i * 37,
      name,
      ticker: `${stem.slice(0, 3).toUpperCase()}${letter.trim()}`,
      exchange: EXCHANGES[Math.floor(r() * EXCHANGES.length)],
      sic,
      sicDescription,
      state: STATES[Math.floor(r() * STATES.length)],
      fye: FYES[Math.floor(r() * FYES.length)],
      formerName: i % 3 === 0 ? `${stem}${letter} Acquisition Corp` : null,
      holdingsName: name
        .toUpperCase()
        .replace(/[^A-Z0-9 ]+/g, '')
        .replace(/\s+/g, ' '),
      cusip,
      isin: isinOf(cusip),
      title: TITLES[Math.floor(r() * TITLES.length)],
      price: Math.round(Math.exp(Math.log(500) + r() * (Math.log(90000) - Math.log(500)))) / 100,
    });
  }
  issuersBySeed.set(seed, out);
  return out;
}

/** The reporting companies (filings, financials, insider trades, Form 144, 13D/G): the first issuers. */
export function sampleCompanies(seed: number, scale: number): SampleIssuer[] {
  return sampleIssuers(seed).slice(0, Math.min(ISSUER_COUNT, Math.max(4, Math.round(12 * scale))));
}

/** 13F filers: `1_500_000 + 7m`, adviser-style names. */
export function sampleManagers(seed: number, scale: number): SampleFiler[] {
  const rng = new Rng(seed + 1300);
  const n = Math.max(8, Math.round(200 * scale));
  return Array.from({ length: n }, (_, m) => ({ cik: 1_500_000 + m * 7, name: firmName(rng, m).legal }));
}

/** N-PORT registrants (fund trusts): `800_000 + 13t`. */
export function sampleFundTrusts(seed: number, scale: number): SampleFiler[] {
  const rng = new Rng(seed + 101);
  const n = Math.max(4, Math.round(30 * scale));
  return Array.from({ length: n }, (_, t) => ({
    cik: 800_000 + t * 13,
    name: `${rng.pick(['Harbor', 'Summit', 'Meridian', 'Granite', 'Willow'])} Funds Trust ${t + 1}`,
  }));
}

/** Form D issuer names; `profile` (the index here) picks the issuer's entity type and industry in the raises sample. */
const PRIVATE_ISSUER_NAMES = [
  'Harbor Ridge Capital Fund II, L.P.',
  'Cobalt Peak Ventures III, LP',
  'Northwind Macro Master Fund Ltd',
  'Lumen Biologics, Inc.',
  'Gridline Software Inc.',
  'Prairie Wind Energy LLC',
  'Maple Court Apartments REIT LLC',
];

/** Form D issuers (private placements): CIKs in the range new filers get; a name used again carries a number. */
export function samplePrivateIssuers(seed: number, scale: number): (SampleFiler & { profile: number })[] {
  const n = Math.max(1, Math.round(40 * scale));
  return Array.from({ length: n }, (_, i) => {
    const profile = i % PRIVATE_ISSUER_NAMES.length;
    const round = Math.floor(i / PRIVATE_ISSUER_NAMES.length);
    const base = PRIVATE_ISSUER_NAMES[profile];
    return {
      cik: 1_990_000 + ((seed * 31 + i * 97) % 99_999),
      name: round ? `${base.replace(/,? (L\.P\.|LP|Ltd|Inc\.|LLC)$/, '')} ${round + 1}${base.match(/,? (L\.P\.|LP|Ltd|Inc\.|LLC)$/)?.[0] ?? ''}` : base,
      profile,
    };
  });
}

const PROXY_LAST = ['Abbott', 'Baker', 'Castillo', 'Dunn', 'Ellis', 'Foster', 'Garcia', 'Hughes', 'Ingram', 'Jensen', 'Kim', 'Lopez', 'Moreno', 'Nguyen'];

/** Proxy-statement issuers (`900_000 + f`), recorded in the text-change tests. */
export function sampleProxyIssuers(scale: number): SampleFiler[] {
  const n = Math.max(1, Math.round(3 * scale));
  return Array.from({ length: n }, (_, f) => ({ cik: 900_000 + f, name: `${PROXY_LAST[f % PROXY_LAST.length].toUpperCase()} INDUSTRIES INC` }));
}

/** The 10-K/10-Q section samples' two issuers, recorded in the text-change tests. */
export const SECTION_ISSUERS: readonly (SampleFiler & { ticker: string })[] = [
  // 1_900_998, not a multiple of 37 past 1_900_000: no listed issuer has it.
  { cik: 1_900_998, name: 'NORTHWIND ROBOTICS INC', ticker: 'nwrb' },
  { cik: 1_901_555, name: 'BLUE HERON FOODS CORP', ticker: 'bhfc' },
];

/** Insiders (Form 4 reporting owners, Form 144 sellers): `LAST FIRST` as the data sets spell them. */
export const SAMPLE_PEOPLE = ['Rivera Ana', 'Chen Wei', 'Okafor Chidi', 'Larsen Ingrid', 'Patel Ravi', 'Dubois Claire', 'Nakamura Ken', 'Silva Joao'];

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
