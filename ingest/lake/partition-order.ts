/**
 * The order of a table's partition folders as its typed values order them (ours: folder names, never user input). A
 * page walks partitions in its order's direction, and the reader keeps the newest partitions' heads (`heads.ts`).
 */

export type Compare = (a: unknown, b: unknown) => number;

/**
 * Partition column types whose folder values JavaScript orders exactly as DuckDB orders the typed values (and a
 * cursor holds them in the same spelling: dates as YYYY-MM-DD). Timestamps are not: folders and cursors spell them
 * differently.
 */
export const WALKABLE = new Set(['VARCHAR', 'DATE', 'INTEGER', 'BIGINT']);

export function comparator(type: string): Compare {
  if (type === 'INTEGER' || type === 'BIGINT') return (a, b) => Number(a) - Number(b);
  return (a, b) => {
    const x = String(a);
    const y = String(b);
    return x < y ? -1 : x > y ? 1 : 0;
  };
}

/**
 * Partition folder values in page order, or null when JavaScript cannot order them exactly as DuckDB would: a page's
 * walk (api/core/page-query.ts) is only correct if it visits partitions in the page order, so anything unusual (a Hive NULL folder,
 * non-ASCII text, a non-numeric value of a numeric column, a date not in ISO form) falls back to the single query.
 */
export function orderedPartitions(values: string[], type: string, dir: 'asc' | 'desc'): string[] | null {
  const numeric = type === 'INTEGER' || type === 'BIGINT';
  for (const v of values) {
    if (v === '' || v === '__HIVE_DEFAULT_PARTITION__' || !/^[\x20-\x7e]+$/.test(v)) return null;
    if (numeric && !/^-?\d+$/.test(v)) return null;
    if (type === 'DATE' && !/^\d{4}-\d{2}-\d{2}$/.test(v)) return null;
  }
  const sorted = [...values].sort(comparator(type));
  return dir === 'asc' ? sorted : sorted.reverse();
}
