import { Rng } from './random.ts';
import { cusipCheckDigit } from '../sources/common/cusip.ts';

/**
 * A deterministic universe of issuers with valid CUSIPs (check digit computed), shared by the 13F and N-PORT
 * sample generators so the demo lake's fund and manager holdings overlap like the real ones.
 */
export interface SampleSecurity {
  cusip: string;
  issuer: string;
  title: string;
  price: number;
  isin: string;
  ticker: string;
}

const STEMS = [
  'ACME',
  'APEX',
  'BOREAL',
  'CASCADE',
  'DELTA',
  'ELM',
  'FALCON',
  'GRANITE',
  'HARBOR',
  'IRONWOOD',
  'JUNIPER',
  'KESTREL',
  'LUMEN',
  'MERIDIAN',
  'NORTHSTAR',
  'ORCHARD',
  'PINNACLE',
  'QUARRY',
  'RIVERSIDE',
  'SUMMIT',
  'TIDEWATER',
  'UNITY',
  'VANTAGE',
  'WILLOW',
];
const KINDS = ['HLDGS INC', 'CORP', 'INC', 'GROUP INC', 'TECHNOLOGIES INC', 'ENERGY CO', 'BANCORP', 'PHARMACEUTICALS INC', 'LTD', 'PLC'];
const TITLES = ['COM', 'COM', 'COM', 'CL A', 'SHS', 'COM NEW', 'SPONSORED ADR'];

function isinOf(cusip: string): string {
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

export function sampleUniverse(seed: number, size: number): SampleSecurity[] {
  const rng = new Rng(seed);
  const out: SampleSecurity[] = [];
  for (let i = 0; i < size; i++) {
    const stem = STEMS[i % STEMS.length];
    const issuer = `${stem}${i >= STEMS.length ? ` ${String.fromCharCode(65 + (((i / STEMS.length) | 0) % 26))}` : ''} ${rng.pick(KINDS)}`;
    const base = String(100000 + i * 37)
      .slice(-6)
      .replace(/^0/, '1');
    const first8 = `${base}${rng.pick(['10', '20', '30', '40', '1A', '2B'])}`;
    const cusip = `${first8}${cusipCheckDigit(first8)}`;
    out.push({
      cusip,
      issuer,
      title: rng.pick(TITLES),
      price: Math.round(rng.logUniform(500, 90000)) / 100,
      isin: isinOf(cusip),
      ticker: `${stem.slice(0, 3)}${String.fromCharCode(65 + (i % 26))}`,
    });
  }
  return out;
}

/** `DD-MON-YYYY`, the data sets' date format. */
export function dmy(iso: string): string {
  const mon = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'][Number(iso.slice(5, 7)) - 1];
  return `${iso.slice(8, 10)}-${mon}-${iso.slice(0, 4)}`;
}

export function addDays(iso: string, days: number): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
