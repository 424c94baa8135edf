import { f, type Filter, type SqlBuilder } from '../core/endpoint.ts';
import { quarterOf } from '../../ingest/sources/common/index.ts';

/** Filters and parameter patterns shared by the entity, filing and financial-fact lists. */

/**
 * CIKs that held a ticker (history included, so a delisted or moved ticker still finds its filer). The ticker is
 * normalized like the regulator's files (BRK.B → BRK-B). Column names are ours; the value is bound.
 */
function tickerCiks(ticker: string, b: SqlBuilder): string {
  const t = b.param(ticker.trim().toUpperCase().replace(/[./]/g, '-'));
  return `(SELECT cik FROM entity_tickers WHERE ticker = ${t} UNION SELECT cik FROM entities WHERE list_contains(from_json(tickers, '["VARCHAR"]'), ${t}))`;
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
