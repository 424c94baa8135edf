import type { Services } from '../core/services.ts';
import { padCik } from '../../ingest/sources/common/index.ts';
import { coreName, normalizeName } from '../../schemas/tables/entities.ts';
import { holdsTicker } from './filters.ts';
import { pickRange } from '../../ingest/sources/edgar/index.ts';

/**
 * Identifier resolution shared by every endpoint: a ticker, a CIK (with or without zeros, optional `CIK`
 * prefix) or a company name (current or former) → the canonical entity. Order: CIK, then ticker, then name.
 *
 * confidence: 1.0 exact CIK / current ticker / exact current name; 0.95 a ticker by its history (moved or
 * delisted) or a former name; 0.85 a name equal after dropping corporate suffixes; 0.8 a CIK seen only in
 * the filing index (not yet in the directory).
 */
export interface ResolvedEntity {
  cik: string;
  name: string;
  ticker: string | null;
  confidence: number;
}

type Row = Record<string, unknown>;

async function q(services: Services, sql: string, params: unknown[]): Promise<Row[]> {
  try {
    return (await services.lake.query(sql, params)) as Row[];
  } catch (e) {
    // A table that was never ingested has no view yet: that is "not found", not a server error.
    if (/does not exist|not found|Catalog Error/i.test(String((e as Error).message))) return [];
    throw e;
  }
}

const CIK_LIKE = /^(CIK)?\s*\d{1,10}$/i;
const TICKER_LIKE = /^[A-Za-z][A-Za-z0-9]{0,5}([.\-/][A-Za-z0-9]{1,3})?$/;

/** `brk.b`, `BRK/B` → `BRK-B` (the regulator's ticker files use a dash for share classes). */
function normalizeTicker(s: string): string {
  return s.trim().toUpperCase().replace(/[./]/g, '-');
}

async function entityByCik(services: Services, cik: string): Promise<Row | null> {
  const rows = await q(services, 'SELECT cik, name, ticker FROM entities WHERE cik = $1 LIMIT 1', [cik]);
  return rows[0] ?? null;
}

async function currentTicker(services: Services, cik: string, date?: string): Promise<string | null> {
  const rows = await q(
    services,
    'SELECT ticker, CAST(valid_from AS VARCHAR) AS valid_from, CAST(valid_to AS VARCHAR) AS valid_to FROM entity_tickers WHERE cik = $1',
    [cik],
  );
  if (!rows.length) return null;
  const ranges = rows.map((r) => ({ ticker: String(r.ticker), valid_from: String(r.valid_from), valid_to: r.valid_to == null ? null : String(r.valid_to) }));
  // The ticker the entity used at the date; without a date, any open one (first alphabetically for stability).
  const usable = date ? ranges.filter((r) => r.valid_from <= date && (r.valid_to == null || date < r.valid_to)) : ranges.filter((r) => r.valid_to == null);
  return usable.map((r) => r.ticker).sort()[0] ?? null;
}

async function byCik(services: Services, identifier: string, date?: string): Promise<ResolvedEntity | null> {
  const cik = padCik(identifier.replace(/\s+/g, ''));
  if (!cik) return null;
  const e = await entityByCik(services, cik);
  if (e) {
    const ticker = date ? await currentTicker(services, cik, date) : ((e.ticker as string | null) ?? null);
    return { cik, name: String(e.name), ticker, confidence: 1 };
  }
  const f = await q(services, 'SELECT company FROM filings WHERE cik = $1 ORDER BY filed_date DESC LIMIT 1', [cik]);
  return f[0] ? { cik, name: String(f[0].company), ticker: null, confidence: 0.8 } : null;
}

async function byTicker(services: Services, identifier: string, date?: string): Promise<ResolvedEntity | null> {
  const ticker = normalizeTicker(identifier);
  const rows = await q(
    services,
    `SELECT t.cik, t.name AS listed_name, e.name, CAST(t.valid_from AS VARCHAR) AS valid_from, CAST(t.valid_to AS VARCHAR) AS valid_to
       FROM entity_tickers t LEFT JOIN entities e ON e.cik = t.cik WHERE t.ticker = $1`,
    [ticker],
  );
  if (rows.length) {
    const ranges = rows.map((r) => ({
      cik: String(r.cik),
      name: r.name as string | null,
      listed_name: r.listed_name as string | null,
      valid_from: String(r.valid_from),
      valid_to: r.valid_to == null ? null : String(r.valid_to),
    }));
    const hit = pickRange(ranges, date)!;
    const isCurrentHolder = hit.valid_to == null && (!date || date >= hit.valid_from);
    return { cik: hit.cik, name: String(hit.name ?? hit.listed_name ?? hit.cik), ticker, confidence: isCurrentHolder ? 1 : 0.95 };
  }
  // Directory loaded without the ticker history (submissions only): the entity's current ticker list.
  const e = await q(services, `SELECT cik, name FROM entities WHERE ${holdsTicker('$1')} ORDER BY cik LIMIT 1`, [ticker]);
  return e[0] ? { cik: String(e[0].cik), name: String(e[0].name), ticker, confidence: 1 } : null;
}

async function byName(services: Services, identifier: string, date?: string): Promise<ResolvedEntity | null> {
  const norm = normalizeName(identifier);
  const core = coreName(identifier);
  if (!norm) return null;
  const rows = await q(
    services,
    `SELECT n.cik, n.name, n.is_current, n.name_norm = $1 AS exact, CAST(n.valid_from AS VARCHAR) AS valid_from,
            CAST(n.valid_to AS VARCHAR) AS valid_to, e.name AS current_name, e.ticker
       FROM entity_names n LEFT JOIN entities e ON e.cik = n.cik
      WHERE n.name_norm = $1 OR n.name_core = $2`,
    [norm, core],
  );
  if (!rows.length) return null;
  const inRange = (r: Row) => !date || ((r.valid_from == null || String(r.valid_from) <= date) && (r.valid_to == null || date <= String(r.valid_to)));
  const score = (r: Row) => (r.exact ? 2 : 0) + (r.is_current ? 1 : 0) + (inRange(r) ? 4 : 0);
  rows.sort((a, b) => score(b) - score(a) || String(a.cik).localeCompare(String(b.cik)));
  const best = rows[0];
  const ambiguous = rows.filter((r) => score(r) === score(best) && r.cik !== best.cik).length > 0;
  const base = best.exact ? (best.is_current ? 1 : 0.95) : 0.85;
  return {
    cik: String(best.cik),
    name: String(best.current_name ?? best.name),
    ticker: (best.ticker as string | null) ?? null,
    confidence: ambiguous ? Math.min(base, 0.6) : base,
  };
}

export async function resolveEntity(services: Services, identifier: string, opts: { date?: string } = {}): Promise<ResolvedEntity | null> {
  const id = (identifier ?? '').trim();
  if (!id) return null;
  if (CIK_LIKE.test(id)) {
    const r = await byCik(services, id, opts.date);
    if (r) return r;
  }
  if (TICKER_LIKE.test(id)) {
    const r = await byTicker(services, id, opts.date);
    if (r) return r;
  }
  return byName(services, id, opts.date);
}

export interface Suggestion {
  cik: string;
  name: string;
  ticker: string | null;
}

/**
 * A close match for an identifier that did not resolve: a ticker one edit away, or the most similar name
 * (Jaro-Winkler ≥ 0.88 on the normalized name). Null when nothing is close enough to be a useful hint.
 */
export async function suggestEntity(services: Services, identifier: string): Promise<Suggestion | null> {
  const id = (identifier ?? '').trim();
  if (!id) return null;
  if (TICKER_LIKE.test(id)) {
    const t = normalizeTicker(id);
    const rows = await q(
      services,
      `SELECT t.ticker, t.cik, coalesce(e.name, t.name) AS name
         FROM entity_tickers t LEFT JOIN entities e ON e.cik = t.cik
        WHERE length(t.ticker) BETWEEN $2 AND $3 AND levenshtein(t.ticker, $1) <= 1
        ORDER BY levenshtein(t.ticker, $1), (t.valid_to IS NULL) DESC, t.ticker LIMIT 1`,
      [t, t.length - 1, t.length + 1],
    );
    if (rows[0]) return { cik: String(rows[0].cik), name: String(rows[0].name), ticker: String(rows[0].ticker) };
  }
  const norm = normalizeName(id);
  if (norm.length < 3) return null;
  const rows = await q(
    services,
    `SELECT n.cik, coalesce(e.name, n.name) AS name, e.ticker, jaro_winkler_similarity(n.name_core, $1) AS sim
       FROM entity_names n LEFT JOIN entities e ON e.cik = n.cik
      WHERE jaro_winkler_similarity(n.name_core, $1) >= 0.88
      ORDER BY sim DESC, n.is_current DESC, n.cik LIMIT 1`,
    [coreName(id)],
  );
  return rows[0] ? { cik: String(rows[0].cik), name: String(rows[0].name), ticker: (rows[0].ticker as string | null) ?? null } : null;
}

/** The `entity_unresolved` message, with the suggestion when there is one. */
export function unresolvedMessage(identifier: string, suggestion: Suggestion | null): string {
  const base = `Could not resolve '${identifier}' to an entity: give a ticker, a CIK (with or without leading zeros) or a company name.`;
  if (!suggestion) return base;
  return `${base} Did you mean ${suggestion.ticker ? `${suggestion.ticker} — ` : ''}${suggestion.name} (CIK ${suggestion.cik})?`;
}
