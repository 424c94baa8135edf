import { cleanText, padCik } from '../../common/normalize.ts';

/** One listing from the regulator's ticker files. */
export interface TickerListing {
  ticker: string;
  cik: string;
  name: string | null;
  exchange: string | null;
}

/**
 * `company_tickers.json` (`{"0":{"cik_str":320193,"ticker":"AAPL","title":"Apple Inc."},…}`) and
 * `company_tickers_exchange.json` (`{"fields":[…],"data":[[cik,name,ticker,exchange],…]}`): both shapes.
 * Columns of the `fields` form are mapped by name, since the regulator may reorder them.
 */
export function parseTickerFile(doc: unknown): { listings: TickerListing[]; bad: number } {
  const listings: TickerListing[] = [];
  let bad = 0;
  const push = (cikRaw: unknown, tickerRaw: unknown, nameRaw: unknown, exchangeRaw: unknown) => {
    const cik = padCik(cikRaw);
    const ticker = cleanText(tickerRaw)?.toUpperCase();
    if (!cik || !ticker) {
      bad++;
      return;
    }
    listings.push({ cik, ticker, name: cleanText(nameRaw), exchange: cleanText(exchangeRaw) });
  };
  if (doc && typeof doc === 'object' && Array.isArray((doc as { data?: unknown }).data)) {
    const { fields, data } = doc as { fields: string[]; data: unknown[][] };
    const at = (n: string) => fields.indexOf(n);
    const [ci, ni, ti, ei] = [at('cik'), at('name'), at('ticker'), at('exchange')];
    for (const r of data) push(r[ci], r[ti], ni >= 0 ? r[ni] : null, ei >= 0 ? r[ei] : null);
  } else if (doc && typeof doc === 'object') {
    for (const r of Object.values(doc as Record<string, Record<string, unknown>>)) {
      push(r?.cik_str ?? r?.cik, r?.ticker, r?.title ?? r?.name, r?.exchange ?? null);
    }
  }
  return { listings, bad };
}

/** Both files list the same pairs; the exchange file adds the exchange. Keyed by `TICKER|cik`, first seen wins order. */
export function mergeListings(lists: TickerListing[][]): Map<string, TickerListing> {
  const out = new Map<string, TickerListing>();
  for (const list of lists) {
    for (const l of list) {
      const key = `${l.ticker}|${l.cik}`;
      const prev = out.get(key);
      out.set(key, prev ? { ...prev, name: prev.name ?? l.name, exchange: prev.exchange ?? l.exchange } : l);
    }
  }
  return out;
}
