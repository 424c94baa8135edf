import type { TableSpec } from '../../schemas/table.ts';
import type { OrderColumn } from './endpoint.ts';
import type { Lake } from './lake.ts';
import { duckType, keysetPredicate, orderSql, sqlBuilder } from './sql.ts';

/** The validated filters of a list request: SQL conditions and the values their `$n` placeholders bind. */
export interface Filters {
  where: string[];
  params: unknown[];
}

/** Most partitions read at once after the first (the API's pool has 4 connections, DuckDB 2 threads). */
const MAX_WINDOW = 4;

/** How a partition-first page walks, for lists that say more than their order (`ListEndpoint.walk`). */
export interface PageWalk {
  /**
   * Many small partitions (the events' days): the partitions after the starting one are read a contiguous window at
   * a time (1, 2, 4 … `MAX_RANGE` partitions, one query each) until the page is full, on a first page too, instead
   * of one query over all of them; a page then opens as many files as it needs rows, not as the table has folders.
   */
  windows?: boolean;
  /** Inclusive bounds on the partition values (in their folder spelling) that can hold a match: the rest are never read. */
  from?: string;
  to?: string;
  /** Called with the partition values each query is about to read (tests count them). */
  onRead?: (partitions: string[]) => void;
}

/** Most partitions one windowed query reads: a selective filter that matches nothing walks 3,650 days in ≈ 60 queries. */
const MAX_RANGE = 64;

/**
 * Reads one page (`n` rows) of a list in its keyset order, after the row `cursorKey` when given.
 *
 * When the page order starts with the partition column (newest quarter first, say), the page is read
 * partition-first. DuckDB's top-N over a multi-file view cannot stop early on its own: ordered by a Hive column
 * it reads every file in full (2.4 s for a page of the 50M-line 13F lake with no filter), and even with a
 * selective filter it decodes the matching row group of every file. So:
 *   1. the starting partition alone (the cursor's, or the first), ordered by the remaining columns only; a
 *      constant partition column in ORDER BY would hide the file's sort order from DuckDB's top-N, which then
 *      scans the whole file (366 ms instead of 22 ms for an unfiltered 6M-line quarter);
 *   2. if the page is still short, the later partitions: in one query when the filter is known to be selective,
 *      else each as its own top-N (below).
 * Figures: docs/13f-funds.md.
 */
export async function selectPage(
  lake: Lake,
  table: TableSpec,
  order: OrderColumn[],
  filters: Filters,
  n: number,
  cursorKey: unknown[] | null,
  walk: PageWalk = {},
): Promise<Record<string, unknown>[]> {
  const [first, ...rest] = order;
  const type = duckType(table, first.column);
  const listed = first.column === table.partitionBy && rest.length && WALKABLE.has(type) ? pageOrder(await lake.partitions(table.name), type, first.dir) : null;
  const parts = listed && (walk.from !== undefined || walk.to !== undefined) ? within(listed, walk, comparator(type)) : listed;
  const start = cursorKey ? cursorKey[0] : parts?.[0];
  // The bounds leave no listed partition: nothing can match (without them, an empty listing still runs the query).
  if (parts && !parts.length && parts !== listed && !cursorKey) return [];
  if (!parts || start === null || start === undefined) {
    const b = sqlBuilder(filters.params);
    const where = cursorKey ? [...filters.where, keysetPredicate(order, cursorKey, b, table)] : filters.where;
    return lake.query(selectSql(`"${table.name}"`, where, order, n), b.params);
  }

  // The filters, one comparison of the partition column with `value`, optionally a keyset on the other columns.
  const read = (op: '=' | '<' | '>', value: unknown, by: OrderColumn[], limit: number, after?: unknown[]) => {
    const b = sqlBuilder(filters.params);
    const where = [...filters.where, `"${first.column}" ${op} ${b.param(value)}::${type}`];
    if (after) where.push(keysetPredicate(rest, after, b, table));
    // The windowed walk reads its partitions' files only, never the view of all of them (PageWalk.windows).
    if (walk.windows && op === '=') return lake.queryPartitions(table, [String(value)], (from) => selectSql(from, where, by, limit), b.params);
    return lake.query(selectSql(`"${table.name}"`, where, by, limit), b.params);
  };
  walk.onRead?.([String(start)]);
  const rows = await read('=', start, rest, n, cursorKey?.slice(1));
  if (rows.length >= n) return rows;
  const cmp = comparator(type);
  const later = parts.filter((p) => (first.dir === 'asc' ? cmp(p, start) > 0 : cmp(p, start) < 0));
  if (walk.windows) return readWindows(lake, table, order, filters, type, later, rows, n, walk);

  if (!cursorKey) {
    // The first query read the whole starting partition and found less than a page: the filter is selective, so
    // one query over the later partitions reads little of each file, and DuckDB spreads the files over its
    // threads (a CUSIP with ≈ 3 matching lines a quarter: 38 ms for 7 files, against 58 ms read one by one).
    walk.onRead?.(later);
    rows.push(...(await read(first.dir === 'asc' ? '>' : '<', start, order, n - rows.length)));
    return rows;
  }
  // Past a cursor a short page may only mean the cursor sat near the end of its partition, with a filter that
  // matches most rows: one query over the later partitions, ordered by the partition column first, would then
  // read them whole. Each later partition is read as its own top-N instead; partitions are disjoint and visited
  // in page order, so their pages concatenate without a merge. They go a few at a time, concurrently on the pool's
  // connections, in windows that grow while partition after partition falls short.
  let window = 2;
  for (let i = 0; i < later.length && rows.length < n; i += window, window = Math.min(window * 2, MAX_WINDOW)) {
    const need = n - rows.length;
    const batch = later.slice(i, i + window);
    walk.onRead?.(batch);
    const pages = await Promise.all(batch.map((p) => read('=', p, rest, need)));
    for (const page of pages) rows.push(...page);
  }
  return rows.slice(0, n);
}

/**
 * The windowed walk (`PageWalk.windows`) over `later`, the partitions after the starting one in page order, appending
 * to `rows` until it holds `n`. Each window is a contiguous run of the ordered listing, read as one range of the
 * partition column, so DuckDB prunes every other folder from the view's file list before opening any file.
 */
async function readWindows(
  lake: Lake,
  table: TableSpec,
  order: OrderColumn[],
  filters: Filters,
  type: string,
  later: string[],
  rows: Record<string, unknown>[],
  n: number,
  walk: PageWalk,
): Promise<Record<string, unknown>[]> {
  const [first, ...rest] = order;
  let size = 1;
  for (let i = 0; i < later.length && rows.length < n; i += size, size = Math.min(size * 2, MAX_RANGE)) {
    const window = later.slice(i, i + size);
    walk.onRead?.(window);
    const b = sqlBuilder(filters.params);
    const ends = [window[0], window[window.length - 1]].sort(comparator(type));
    // One partition: its own top-N on the remaining columns, which keeps the file's sort order usable (see above).
    const range =
      window.length === 1
        ? `"${first.column}" = ${b.param(window[0])}::${type}`
        : `"${first.column}" >= ${b.param(ends[0])}::${type} AND "${first.column}" <= ${b.param(ends[1])}::${type}`;
    const by = window.length === 1 ? rest : order;
    const limit = n - rows.length;
    rows.push(...(await lake.queryPartitions(table, window, (from) => selectSql(from, [...filters.where, range], by, limit), b.params)));
  }
  return rows;
}

/** The ordered partitions inside the walk's bounds (values compared as the partition column orders them). */
function within(parts: string[], walk: PageWalk, cmp: (a: unknown, b: unknown) => number): string[] {
  return parts.filter((p) => (walk.from === undefined || cmp(p, walk.from) >= 0) && (walk.to === undefined || cmp(p, walk.to) <= 0));
}

/** `from`: the table's view (its quoted name) or a parenthesized SELECT over some of its files. */
function selectSql(from: string, where: string[], order: OrderColumn[], limit: number): string {
  return `SELECT * FROM ${from}${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY ${orderSql(order)} LIMIT ${limit}`;
}

/**
 * Partition column types whose folder values JavaScript orders exactly as DuckDB orders the typed values (and a
 * cursor holds them in the same spelling: dates as YYYY-MM-DD). Timestamps are not: folders and cursors spell them
 * differently.
 */
const WALKABLE = new Set(['VARCHAR', 'DATE', 'INTEGER', 'BIGINT']);

function comparator(type: string): (a: unknown, b: unknown) => number {
  if (type === 'INTEGER' || type === 'BIGINT') return (a, b) => Number(a) - Number(b);
  return (a, b) => {
    const x = String(a);
    const y = String(b);
    return x < y ? -1 : x > y ? 1 : 0;
  };
}

/**
 * The ordered partitions of one listing, kept while the listing is current: `lake.partitions` answers the same array
 * until the next refresh, so 3,650 day folders are sorted once per refresh rather than once per page.
 */
const ordered = new WeakMap<string[], Map<string, string[] | null>>();

function pageOrder(values: string[], type: string, dir: 'asc' | 'desc'): string[] | null {
  let byKey = ordered.get(values);
  if (!byKey) ordered.set(values, (byKey = new Map()));
  const key = `${type} ${dir}`;
  if (!byKey.has(key)) byKey.set(key, orderedPartitions(values, type, dir));
  return byKey.get(key) ?? null;
}

/**
 * Partition folder values in page order, or null when JavaScript cannot order them exactly as DuckDB would: the
 * walk above is only correct if it visits partitions in the page order, so anything unusual (a Hive NULL folder,
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
