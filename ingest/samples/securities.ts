import { cusipCheckDigit } from '../sources/common/cusip.ts';
import { Rng } from './random.ts';
import { ISSUER_COUNT, isinOf, sampleIssuers } from './universe.ts';

/**
 * The universe's listed issuers as the 13F and N-PORT sample generators hold them (ingest/samples/universe.ts): the
 * same CUSIPs, tickers and names the entity directory's sample lists, so holdings resolve to entities.
 */
export interface SampleSecurity {
  cusip: string;
  issuer: string;
  title: string;
  price: number;
  isin: string;
  ticker: string;
}

export function sampleUniverse(seed: number, size: number): SampleSecurity[] {
  return sampleIssuers(seed)
    .slice(0, size)
    .map((i) => ({ cusip: i.cusip, issuer: i.holdingsName, title: i.title, price: i.price, isin: i.isin, ticker: i.ticker }));
}

/**
 * A universe as broad as a real quarter's holdings (`size` securities; the SEC's list of 13(f) securities holds
 * ≈ 24,000) for the ingest benches: the sample universe, then securities no issuer of the entity directory lists
 * (their CUSIPs start at 800000, past the sample's).
 */
export function broadUniverse(seed: number, size: number): SampleSecurity[] {
  const rng = new Rng(seed + 1);
  const extra = Array.from({ length: Math.max(0, size - ISSUER_COUNT) }, (_, i): SampleSecurity => {
    const first8 = `${800_000 + i}10`;
    const cusip = `${first8}${cusipCheckDigit(first8)}`;
    return { cusip, issuer: `SECURITY ${i} INC`, title: 'COM', price: rng.logUniform(500, 90_000) / 100, isin: isinOf(cusip), ticker: '' };
  });
  return [...sampleUniverse(seed, ISSUER_COUNT), ...extra];
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
