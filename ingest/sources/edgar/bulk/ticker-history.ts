/**
 * Folds one dated ticker snapshot into the ticker history. A snapshot is the regulator's complete list of the
 * day, so a pair that is no longer listed is closed on that date; a ticker that moved to another CIK thereby
 * gets a closed range for the old holder and a new open range for the new one.
 */

export interface TickerRange {
  ticker: string;
  cik: string;
  exchange: string | null;
  name: string | null;
  valid_from: string;
  valid_to: string | null;
  last_seen: string;
}

export interface Observation {
  ticker: string;
  cik: string;
  exchange: string | null;
  name: string | null;
}

/**
 * @param complete true for the ticker files (a full list: absent pairs are closed); false for tickers taken from
 *   individual submissions documents, which only add or confirm pairs.
 * Snapshots older than a pair's `last_seen` never close it (a backfill of an old file must not end a live range).
 */
export function foldSnapshot(prev: TickerRange[], observed: Observation[], date: string, complete: boolean): TickerRange[] {
  const out = prev.map((r) => ({ ...r }));
  const open = new Map<string, TickerRange>();
  for (const r of out) if (r.valid_to == null) open.set(`${r.ticker}|${r.cik}`, r);
  const seen = new Set<string>();
  for (const o of observed) {
    const key = `${o.ticker}|${o.cik}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const cur = open.get(key);
    if (cur) {
      if (date >= cur.last_seen) {
        cur.last_seen = date;
        cur.exchange = o.exchange ?? cur.exchange;
        cur.name = o.name ?? cur.name;
      }
      if (date < cur.valid_from) cur.valid_from = date;
      continue;
    }
    // A pair listed again after a gap starts a new range; an old snapshot of a closed pair extends nothing.
    const closedCovering = out.find((r) => r.ticker === o.ticker && r.cik === o.cik && r.valid_to != null && r.valid_from <= date && date < r.valid_to);
    if (closedCovering) continue;
    const later = out
      .filter((r) => r.ticker === o.ticker && r.valid_from > date)
      .map((r) => r.valid_from)
      .sort()[0];
    const row: TickerRange = { ticker: o.ticker, cik: o.cik, exchange: o.exchange, name: o.name, valid_from: date, valid_to: later ?? null, last_seen: date };
    out.push(row);
    if (!later) open.set(key, row);
  }
  if (complete) {
    for (const [key, r] of open) {
      if (!seen.has(key) && r.last_seen < date) r.valid_to = date;
    }
  }
  return out;
}

/**
 * Which range answers "who held TICKER on DATE": the range covering the date (latest start wins); before the
 * first observation, the earliest range; without a date, the open range, else the most recently closed one
 * (so a delisted ticker still resolves to its last holder).
 */
export function pickRange<T extends { valid_from: string; valid_to: string | null }>(ranges: T[], date?: string): T | null {
  if (!ranges.length) return null;
  const byStartDesc = [...ranges].sort((a, b) => (a.valid_from < b.valid_from ? 1 : a.valid_from > b.valid_from ? -1 : 0));
  if (!date) {
    return byStartDesc.find((r) => r.valid_to == null) ?? [...ranges].sort((a, b) => ((a.valid_to ?? '') < (b.valid_to ?? '') ? 1 : -1))[0];
  }
  const covering = byStartDesc.find((r) => r.valid_from <= date && (r.valid_to == null || date < r.valid_to));
  if (covering) return covering;
  const before = byStartDesc.find((r) => r.valid_from <= date);
  return before ?? byStartDesc[byStartDesc.length - 1];
}
