import { type ColumnBound, f, type Filter, type SqlBuilder } from '../core/endpoint.ts';
import { sqlBuilder } from '../core/sql.ts';
import { quarterOf } from '../../ingest/sources/common/index.ts';

/** Filters and parameter patterns shared by the entity, filing and financial-fact lists. */

/**
 * CIKs that held a ticker (history included, so a delisted or moved ticker still finds its filer). The ticker is
 * normalized like the regulator's files (BRK.B → BRK-B). Column names are ours; the value is bound.
 */
function tickerCiks(ticker: string, b: SqlBuilder): string {
  const t = b.param(ticker.trim().toUpperCase().replace(/[./]/g, '-'));
  return `(SELECT cik FROM entity_tickers WHERE ticker = ${t} UNION SELECT cik FROM entities WHERE ${holdsTicker(t)})`;
}

/**
 * SQL: an entity's current tickers (`tickers`, a JSON array) hold the ticker bound at `t`. The substring test on the
 * stored text goes first: the view types the column JSON, and parsing every entity's list costs 120–240 ms of CPU at
 * 700,000 entities, where the substring test leaves the parse to the few rows holding the letters (8–11 ms).
 */
export const holdsTicker = (t: string): string => `contains(CAST(tickers AS VARCHAR), ${t}) AND list_contains(from_json(tickers, '["VARCHAR"]'), ${t})`;

/**
 * The CIKs that held the ticker as a bound on `cik` (`ColumnBound.keysOf`): the filter's own SQL, which a page run
 * once to look those filers up in a key index.
 */
export function tickerKeys(ticker: string): ColumnBound['keysOf'] {
  const b = sqlBuilder();
  return { sql: `SELECT DISTINCT cik AS k FROM ${tickerCiks(ticker, b)} t`, params: b.params };
}

/** Rows of the companies that held the ticker (through the table's `cik` column). */
export const tickerFilter = (): Filter<string, 'cik'> => f.sql(['cik'], (v: string, b) => `cik IN ${tickerCiks(v, b)}`);

export const TICKER_PATTERN = /^[A-Za-z][A-Za-z0-9]{0,9}([.\-/][A-Za-z0-9]{1,4})?$/;
export const SIC_PATTERN = /^\d{3,4}$/;
export const STATE_PATTERN = /^[A-Z0-9]{2}$/;

/** Date bounds also bound the quarter partitions, so DuckDB skips whole files (`2024Q3` strings sort by time). */
export const dateFrom = <C extends string, Q extends string>(col: C, partition: Q): Filter<string, C | Q> =>
  f.sql([col, partition], (v: string, b) => `"${col}" >= ${b.param(v)}::DATE AND "${partition}" >= ${b.param(quarterOf(v))}`);
export const dateTo = <C extends string, Q extends string>(col: C, partition: Q): Filter<string, C | Q> =>
  f.sql([col, partition], (v: string, b) => `"${col}" <= ${b.param(v)}::DATE AND "${partition}" <= ${b.param(quarterOf(v))}`);
