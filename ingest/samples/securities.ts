import { sampleIssuers } from './universe.ts';

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
