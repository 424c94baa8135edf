import { f, type Filter, type SqlBuilder } from '../core/endpoint.ts';
import { keysIn } from '../core/sql.ts';
import { quarterOf } from '../../ingest/sources/common/index.ts';
import { cikBucket } from '../../ingest/sources/edgar/index.ts';

/** Filters and parameter patterns shared by the entity, filing and financial-fact lists. */

/**
 * CIKs that held a ticker (history included, so a delisted or moved ticker still finds its filer). The ticker is
 * normalized like the regulator's files (BRK.B → BRK-B). Column names are ours; the value is bound.
 */
function tickerCiks(ticker: string, b: SqlBuilder): string {
  const norm = ticker.trim().toUpperCase().replace(/[./]/g, '-');
  const t = b.param(norm);
  // The history is partitioned by the ticker's first character: one folder is read, not all.
  const history = `SELECT cik FROM entity_tickers WHERE ticker_initial = ${b.param(norm.slice(0, 1))} AND ticker = ${t}`;
  return `(${history} UNION SELECT cik FROM entities WHERE ${holdsTicker(t)})`;
}

/**
 * SQL: an entity's current tickers (`tickers`, a JSON array) hold the ticker bound at `t`. The substring test on the
 * stored text goes first: the view types the column JSON, and parsing every entity's list costs 120–240 ms of CPU at
 * 700,000 entities, where the substring test leaves the parse to the few rows holding the letters (8–11 ms).
 */
export const holdsTicker = (t: string): string => `contains(CAST(tickers AS VARCHAR), ${t}) AND list_contains(from_json(tickers, '["VARCHAR"]'), ${t})`;

/**
 * Rows of the companies that held the ticker, through the table's `cik` column (and `also`, say the partition of a
 * CIK): the CIKs are looked up once a request (`f.keysOf`) and bound, so each quarter or file a page reads tests a
 * list instead of running the lookup again (8–11 ms of CPU at 700,000 entities; docs/layouts.md).
 */
export function tickerFilter(): Filter<string, 'cik'>;
export function tickerFilter<const C extends string>(also: AlsoByCik<C>): Filter<string, 'cik' | C>;
export function tickerFilter<const C extends string>(also?: AlsoByCik<C>): Filter<string, 'cik' | C> {
  return f.keysOf<string, 'cik' | C>(['cik', ...(also?.columns ?? [])], {
    column: 'cik',
    query: (ticker, b) => `SELECT DISTINCT cik AS k FROM ${tickerCiks(ticker, b)} t`,
    where: (ciks, b) => {
      if (!ciks.length) return 'false';
      const own = keysIn('cik', ciks, b);
      return also ? `${also.where(ciks, b)} AND ${own}` : own;
    },
  });
}

/**
 * Rows of the filers whose entity directory entry holds the value in `column` (an industry, a state of
 * incorporation), through the table's `cik` column: a keyed filter (`f.keysOf`), so a rare industry's few filers are
 * looked up once a request and their quarters located through the key index, where the directory's subquery was
 * read again by each of the quarters a short page walks (docs/layouts.md); a common one keeps the subquery.
 */
export function directoryFilter(column: 'sic' | 'state_of_incorp', normalize: (v: string) => string = (v) => v): Filter<string, 'cik'> {
  return f.keysOf<string, 'cik'>(['cik'], {
    column: 'cik',
    query: (v, b) => `SELECT cik AS k FROM entities WHERE "${column}" = ${b.param(normalize(v))}`,
  });
}

/** The CIKs' buckets (`cik_bucket`, the first five digits), for the tables partitioned by them: only their folders are read. */
export const byCikBucket: AlsoByCik<'cik_bucket'> = {
  columns: ['cik_bucket'],
  where: (ciks, b) => `cik_bucket IN (${[...new Set(ciks.map(cikBucket))].map((x) => b.param(x)).join(', ')})`,
};

/** A condition over other columns that a set of CIKs also decides (the CIK's partition). */
interface AlsoByCik<C extends string> {
  columns: readonly C[];
  where: (ciks: readonly string[], b: SqlBuilder) => string;
}

export const TICKER_PATTERN = /^[A-Za-z][A-Za-z0-9]{0,9}([.\-/][A-Za-z0-9]{1,4})?$/;
export const SIC_PATTERN = /^\d{3,4}$/;
export const STATE_PATTERN = /^[A-Z0-9]{2}$/;

/** Date bounds also bound the quarter partitions, so DuckDB skips whole files (`2024Q3` strings sort by time). */
export const dateFrom = <C extends string, Q extends string>(col: C, partition: Q): Filter<string, C | Q> =>
  f.sql([col, partition], (v: string, b) => `"${col}" >= ${b.param(v)}::DATE AND "${partition}" >= ${b.param(quarterOf(v))}`);
export const dateTo = <C extends string, Q extends string>(col: C, partition: Q): Filter<string, C | Q> =>
  f.sql([col, partition], (v: string, b) => `"${col}" <= ${b.param(v)}::DATE AND "${partition}" <= ${b.param(quarterOf(v))}`);
