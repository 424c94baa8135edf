import {
  allInTop,
  type Compare,
  comparator,
  keyLookupSql,
  mayHold,
  mayMatch,
  orderedPartitions,
  orderSql,
  type PartitionRelation,
  type PartitionSummary,
  rowsAtMost,
  type SummaryBounds,
  WALKABLE,
} from '../../ingest/lake/index.ts';
import { dirname } from 'node:path';
import type { TableSpec } from '../../schemas/table.ts';
import type { ColumnBound, OrderColumn } from './endpoint.ts';
import { MISSING_FILE, type Lake } from './lake.ts';
import { duckType, keysetPredicate, sqlBuilder } from './sql.ts';

/** The validated filters of a list request: SQL conditions and the values their `$n` placeholders bind. */
export interface Filters {
  where: string[];
  params: unknown[];
  /**
   * What the filters bound, per column: equality to one of `in`, a minimum `gte`. A table with a key summary skips
   * the partitions whose summary rules the bounds out (`TableSpec.summary`, docs/read-path.md).
   */
  bounds?: Record<string, ColumnBound>;
  /**
   * A filter reads another table in each read (a keyed filter with more keys than it binds: a common industry's
   * 1,750 filers). Such a page skips the partition heads: a head it does not fill would make it pay the lookup twice.
   */
  lookups?: boolean;
}

/** DuckDB's error for a query naming a head table that is gone (ingest/lake/heads.ts names them `head_<table>_<n>`). */
const DROPPED_HEAD = /Table with name head_\w+ does not exist/i;

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
  try {
    return await readPage(lake, table, order, filters, n, cursorKey, walk);
  } catch (err) {
    // A file named by a partition relation went away (a compaction): lake.query listed again before failing, so
    // the page is planned once more over the new listing (the views' own retry cannot rewrite our file list).
    if (!MISSING_FILE.test((err as Error).message)) throw err;
    return readPage(lake, table, order, filters, n, cursorKey, walk);
  }
}

async function readPage(
  lake: Lake,
  table: TableSpec,
  order: OrderColumn[],
  filters: Filters,
  n: number,
  cursorKey: unknown[] | null,
  walk: PageWalk,
): Promise<Record<string, unknown>[]> {
  const [first, ...rest] = order;
  const late = { lateMaterialization: table.lateMaterialization === true };
  const type = duckType(table, first.column);
  const cmp = comparator(type);
  const listed = first.column === table.partitionBy && rest.length && WALKABLE.has(type) ? pageOrder(await lake.partitions(table.name), type, first.dir) : null;
  const bounded = listed && (walk.from !== undefined || walk.to !== undefined) ? within(listed, walk, cmp, first.dir) : listed;
  const keyBounds = summaryBounds(table, filters.bounds);
  const summarized = bounded && keyBounds && summaryCandidates(lake, table, bounded, keyBounds);
  // The key filters then leave out the partitions none of whose files can hold a bound key.
  const candidates = (bounded && filteredCandidates(lake, table, summarized ?? bounded, filters.bounds)) || summarized;
  const parts = candidates ?? bounded;
  // No partition within the walk's bounds, or none whose summary holds the key (or a value that large): the page is
  // empty, and no file is opened (without bounds or summaries, an empty listing still runs the query).
  if (parts && !parts.length && parts !== listed && !cursorKey) return [];
  const start = cursorKey ? cursorKey[0] : parts?.[0];
  if (!parts || start === null || start === undefined) {
    const b = sqlBuilder(filters.params);
    const where = cursorKey ? [...filters.where, keysetPredicate(order, cursorKey, b, table)] : filters.where;
    return lake.query(selectSql(`"${table.name}"`, where, order, n), b.params, late);
  }

  // The filters over `from`, optionally a comparison of the partition column with `value` and a keyset on the other
  // columns. `from` is the table's view, or a relation over the files of some partitions only (paths from the
  // listing): when summaries chose the partitions, and for a windowed walk, where a query of the view of 3,650 day
  // files costs 0.3–0.9 s even when it filters to one day.
  const read: PartitionRead = async (from, cmpTo, by, limit, after, stored = false, located = null) => {
    const b = sqlBuilder(filters.params);
    const where = [...filters.where];
    if (cmpTo) where.push(`"${first.column}" ${cmpTo.op} ${b.param(cmpTo.value)}::${type}`);
    if (after) where.push(keysetPredicate(rest, after, b, table));
    const sql = typeof from === 'string' ? from : from.sql;
    const page = (w: string[]) => (stored ? storedOrderSql : selectSql)(sql, w, by, limit);
    let text = page(where);
    // The key index's values of the first sort column: row groups that hold none of them are skipped by statistics.
    if (located) {
      const key = `"${table.sortBy[0]}"`;
      const values = located.map((v) => `${b.param(v)}::${duckType(table, table.sortBy[0])}`);
      const few = values.length > 1 && values.length <= MAX_POINT_READS && !stored;
      text = few ? pointReadsSql(sql, where, key, values, by, limit) : page([...where, `${key} IN (${values.join(', ')})`]);
    }
    const rows = await lake.query(text, b.params, late);
    return typeof from === 'string' ? rows : from.complete(rows);
  };
  // A table with serving copies reads every partition through lake.relation, which names each partition's native
  // copy when current (a page of a 6.25M-line quarter: 7.9 ms of CPU against 38 ms from Parquet; docs/read-path.md).
  // A lake without any (written before them, or LAKE_SERVING=off) keeps the path over the view.
  const byFiles = candidates !== null || walk.windows === true || (table.serving === true && lake.servedPartitions(table.name) > 0);
  const view = `"${table.name}"`;
  // A page whose filters pin the order's first column to a few keys (`?cusip=` on the CUSIP-sorted copy) keeps its
  // top-N: over a key's few hundred rows the two plans cost the same within this machine's noise (5.5–9.8 ms of CPU
  // either way at 50M lines, in alternating runs), so it keeps the plan it had. Any other page reads the copy in stored
  // order, where the top-N sorts whatever passes the filters (an unfiltered page: 3.9 against 29–31 ms).
  const keyed = filters.bounds?.[rest[0]?.column]?.in !== undefined;
  const stored = (p: unknown) => !keyed && inStorageOrder(lake.storageOrder(table.name, String(p)), rest);
  // A partition's head (its first rows in this order, kept by the reader for the newest partitions: ingest/lake/heads.ts)
  // answers a page it fills, or a page of a partition it holds whole; null otherwise. The newest filings from a quarter
  // of 300,000: 2–4 ms of CPU against 100–130 ms for the top-N over the quarter (docs/layouts.md, "Heads").
  const fromHead = async (p: string, limit: number, after?: unknown[]) => {
    const head = table.head && !filters.lookups ? lake.head(table.name, p) : null;
    if (!head || !sameOrder(head.order, rest)) return null;
    // A cursor at or past the head's last row: the head holds none of the rows after it (≈ 3 ms of CPU not spent).
    if (after && head.last && atOrPast(after, head.last, head.order)) return null;
    let rows: Record<string, unknown>[];
    try {
      rows = await read(head, null, rest, limit, after);
    } catch (err) {
      // Dropped by a refresh since this page found it (a page spanning two refreshes): the partition is read instead.
      if (DROPPED_HEAD.test((err as Error).message)) return null;
      throw err;
    }
    return rows.length >= limit || head.whole ? rows : null;
  };
  const onePartition = async (p: unknown, limit: number, after?: unknown[]) =>
    (await fromHead(String(p), limit, after)) ??
    (byFiles ? read(lake.relation(table.name, [String(p)]), null, rest, limit, after, stored(p)) : read(view, { op: '=', value: p }, rest, limit, after));
  const later = partitionsAfter(parts, start, cmp, first.dir);
  // The summaries show the first partition cannot fill the page (fewer of its rows hold the key, or reach the
  // minimum, than the page needs): the page is one query over every candidate partition in the page's full order,
  // not the first partition's query and then the later ones'. A CUSIP with ≈ 3 lines a quarter above the minimum,
  // over the eight copies of the 50M-line bench lake: 14.3–15.4 ms of CPU in one query against 17.6–20.5 ms as 1 + 7.
  if (candidates && !cursorKey && !walk.windows && later.length && cannotFill(lake, table, String(start), keyBounds, n)) {
    walk.onRead?.(candidates);
    // The one query reads the top index when every candidate's matches are among its key's top rows.
    return read(topOrRelation(lake, table, candidates, keyBounds), null, order, n);
  }
  const locate = walk.windows ? await keyLocator(lake, table, filters) : null;
  // The key index says which partitions hold the key, how many rows, and under which values of the sort column.
  if (locate) return readLocated(lake, table, order, String(start), later, cursorKey, n, walk, read, locate);
  walk.onRead?.([String(start)]);
  // A cursor's partition that no summary admits holds nothing more to read.
  const rows = candidates && !candidates.includes(String(start)) ? [] : await onePartition(start, n, cursorKey?.slice(1));
  if (rows.length >= n) return rows;
  if (walk.windows) return readWindows(lake, table, order, later, rows, n, walk, read, onePartition);

  if (!cursorKey) {
    // The first query read the whole starting partition and found less than a page: the filter is selective, so
    // one query over the later partitions reads little of each file, and DuckDB spreads the files over its
    // threads (a CUSIP with ≈ 3 matching lines a quarter: 38 ms for 7 files, against 58 ms read one by one).
    // No later partition: nothing more to read (a query of the view would open no file and still cost a plan).
    if (!later.length) return rows;
    walk.onRead?.(later);
    if (byFiles) {
      // The later partitions read the top index too when every match of theirs is among its key's top rows: the
      // starting partition may have no summary (a quarter beside live append files, until the fold) while they do.
      rows.push(...(await read(topOrRelation(lake, table, later, keyBounds), null, order, n - rows.length)));
    } else rows.push(...(await read(view, { op: first.dir === 'asc' ? '>' : '<', value: start }, order, n - rows.length)));
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
    const pages = await Promise.all(batch.map((p) => onePartition(p, need)));
    for (const page of pages) rows.push(...page);
  }
  return rows.slice(0, n);
}

/**
 * One query of a page: the filters over `from` (the table's view, or a relation whose rows the read completes);
 * `stored`: `from` returns its rows in `by` order unsorted.
 */
type PartitionRead = (
  from: string | PartitionRelation,
  cmpTo: { op: '=' | '<' | '>'; value: unknown } | null,
  by: OrderColumn[],
  limit: number,
  after?: unknown[],
  stored?: boolean,
  /** Values of the table's first sort column that hold every row the filters can match (`keyLocator`). */
  located?: readonly string[] | null,
) => Promise<Record<string, unknown>[]>;

/**
 * The windowed walk (`PageWalk.windows`) over `later`, the partitions after the starting one in page order, appending
 * to `rows` until it holds `n`. Each window is a contiguous run of the ordered listing, read over its own files
 * only, so no query opens the other folders' files.
 */
async function readWindows(
  lake: Lake,
  table: TableSpec,
  order: OrderColumn[],
  later: string[],
  rows: Record<string, unknown>[],
  n: number,
  walk: PageWalk,
  read: PartitionRead,
  one: (partition: string, limit: number) => Promise<Record<string, unknown>[]>,
): Promise<Record<string, unknown>[]> {
  let size = 1;
  for (let i = 0; i < later.length && rows.length < n; i += size, size = Math.min(size * 2, MAX_RANGE)) {
    const window = later.slice(i, i + size);
    walk.onRead?.(window);
    // One partition: read as the first one is (its head, or its own top-N on the remaining columns, which keeps the
    // file's sort order usable: see above).
    const need = n - rows.length;
    rows.push(...(await (window.length === 1 ? one(window[0], need) : read(lake.relation(table.name, window), null, order, need))));
  }
  return rows;
}

/**
 * The walk of a page located by a key index (`keyLocator`): the cursor's partition first, past the cursor; then the
 * partitions after it are located in growing windows (1, 2, 4 … `MAX_RANGE` index files a query) until those found
 * hold rows enough for the page, and the fewest of them that do are read in one query, with the sort column's values
 * as a filter. Counts are of the key alone (other filters may drop rows), so a short read goes on to the next ones.
 */
async function readLocated(
  lake: Lake,
  table: TableSpec,
  order: OrderColumn[],
  start: string,
  later: string[],
  cursorKey: unknown[] | null,
  n: number,
  walk: PageWalk,
  read: PartitionRead,
  locate: KeyLocator,
): Promise<Record<string, unknown>[]> {
  const [, ...rest] = order;
  const rows: Record<string, unknown>[] = [];
  const queue = cursorKey ? later : [start, ...later];
  if (cursorKey) {
    const at = await locate([start]);
    if (at.has(start)) {
      walk.onRead?.([start]);
      rows.push(...(await read(lake.relation(table.name, [start]), null, rest, n, cursorKey.slice(1), false, locatedValues([at.get(start)!]))));
    }
  }
  let found: [string, Located][] = [];
  let size = 1;
  for (let i = 0; rows.length < n && (found.length || i < queue.length); ) {
    const need = n - rows.length;
    while (i < queue.length && found.reduce((sum, [, x]) => sum + x.rows, 0) < need) {
      const window = queue.slice(i, i + size);
      i += size;
      size = Math.min(size * 2, MAX_RANGE);
      const at = await locate(window);
      for (const p of window) if (at.has(p)) found.push([p, at.get(p)!]);
    }
    let k = 0;
    for (let sum = 0; k < found.length && sum < need; k++) sum += found[k][1].rows;
    const group = found.slice(0, k);
    found = found.slice(k);
    if (!group.length) break;
    const parts = group.map(([p]) => p);
    walk.onRead?.(parts);
    const by = parts.length === 1 ? rest : order;
    rows.push(...(await read(lake.relation(table.name, parts), null, by, need, undefined, false, locatedValues(group.map(([, x]) => x)))));
  }
  return rows;
}

/** The sort column's values of some located partitions together (null: one is not indexed, or too many values). */
function locatedValues(located: Located[]): string[] | null {
  const values = new Set<string>();
  for (const x of located) {
    if (!x.values) return null;
    for (const v of x.values) values.add(v);
  }
  return values.size > MAX_LOCATE ? null : [...values];
}

/**
 * What a key index says of a partition for the page's key: its rows holding it and the first sort column's values on
 * them; for a partition without a current index, `Infinity` rows and no values (it is read whole).
 */
interface Located {
  rows: number;
  values: readonly string[] | null;
}

/** What a table's key index (`TableSpec.keyIndexes`) says of some partitions: those that may hold the page's key. */
type KeyLocator = (partitions: string[]) => Promise<ReadonlyMap<string, Located>>;

/**
 * Most values of the first sort column a page adds as an `IN` filter: past it (an owner of shares in hundreds of
 * issuers) the partitions without the key are still skipped, and the filter alone reads the rest.
 */
const MAX_LOCATE = 500;

/**
 * Most keys a page looks up at once (a ticker's filers, say), and a keyed filter binds (api/core/compile.ts): a value
 * with more keeps its lookup as a subquery and walks without the index.
 */
export const MAX_LOOKUP_KEYS = 20;

/**
 * The key index's locator for a page of a windowed walk whose filters bind the key of one of the table's key indexes
 * to one value, or to the few values a keyed filter resolved (`f.keysOf`): the first such index; null for any other
 * page. Each call is one query over the index files of its partitions (about 1.2 ms of CPU a file, one row group read)
 * and over their live append files, which no index covers; a partition whose index holds no key of the page keys'
 * buckets (`KeyIndexSpec.bucket`) is left out without a read.
 */
async function keyLocator(lake: Lake, table: TableSpec, filters: Filters): Promise<KeyLocator | null> {
  const spec = table.keyIndexes?.find((x) => filters.bounds?.[x.key]?.in !== undefined);
  const indexes = spec && lake.keyIndexes(table.name, spec.key);
  if (!spec || !indexes) return null;
  const keys = filters.bounds![spec.key].in!;
  if (keys.length > MAX_LOOKUP_KEYS) return null;
  const buckets = spec.bucket && keys.map((k) => spec.bucket!.of(k));
  // Null: some key has no bucket (every partition may hold it), or the index declares none.
  const wanted = buckets && !buckets.includes(null) ? new Set(buckets as string[]) : null;
  return async (partitions) => {
    const out = new Map<string, Located>();
    const indexed: { p: string; index: string; appended: readonly string[] }[] = [];
    for (const p of partitions) {
      const at = indexes.get(p);
      // Its index holds no key of the buckets and no append file sits beside it: no key is in the partition.
      if (at?.index && at.buckets && wanted && ![...wanted].some((b) => at.buckets!.has(b)) && !at.appended.length) continue;
      // A partition without a current index (a lake written before indexes, a crash between renames) is read whole.
      if (at?.index) indexed.push({ p, index: at.index, appended: at.appended });
      else out.set(p, { rows: Number.POSITIVE_INFINITY, values: null });
    }
    if (!indexed.length || !keys.length) return out;
    const partitionOf = new Map(indexed.map((x) => [dirname(x.index), x.p]));
    const sql = keyLookupSql(
      table,
      spec,
      indexed.map((x) => x.index),
      indexed.flatMap((x) => x.appended),
      keys.length,
    );
    const found = new Map<string, { rows: number; values: Set<string> }>();
    for (const r of await lake.query(sql, [...keys])) {
      const p = partitionOf.get(dirname(String(r.file)));
      if (p === undefined) continue;
      const at = found.get(p) ?? { rows: 0, values: new Set<string>() };
      at.rows += Number(r.rows);
      at.values.add(String(r.locate));
      found.set(p, at);
    }
    for (const [p, at] of found) out.set(p, { rows: at.rows, values: [...at.values] });
    return out;
  };
}

/**
 * The ordered partitions inside the walk's bounds (values compared as the partition column orders them): a contiguous
 * run of `parts`, found by binary search. Every page computes it, so a pass over the listing would tie a page's work
 * to the folder count (3,650 comparisons a page for the events' days).
 */
export function within(parts: string[], walk: Pick<PageWalk, 'from' | 'to'>, cmp: Compare, dir: 'asc' | 'desc'): string[] {
  const { from, to } = walk;
  const [low, high] = dir === 'asc' ? [from, to] : [to, from];
  const pastLow = (p: string) => low === undefined || (dir === 'asc' ? cmp(p, low) >= 0 : cmp(p, low) <= 0);
  const pastHigh = (p: string) => high !== undefined && (dir === 'asc' ? cmp(p, high) > 0 : cmp(p, high) < 0);
  const start = firstWhere(parts, pastLow);
  return parts.slice(start, Math.max(start, firstWhere(parts, pastHigh)));
}

/** The partitions of `parts` (in page order) that come after `start` in that order, by binary search (as `within`). */
export function partitionsAfter(parts: string[], start: unknown, cmp: Compare, dir: 'asc' | 'desc'): string[] {
  return parts.slice(firstWhere(parts, (p) => (dir === 'asc' ? cmp(p, start) > 0 : cmp(p, start) < 0)));
}

/** The first index of `sorted` where `past` holds, for a `past` false up to some index and true from there on. */
function firstWhere(sorted: string[], past: (p: string) => boolean): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (past(sorted[mid])) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * The partitions (in page order) whose key summary may hold a row within `keyBounds` (the filters' bounds on the
 * summary's key and max column, `summaryBounds`), or null when no partition of the table has a summary. A partition
 * without a summary (a lake written before summaries, a stale one) is always kept.
 */
function summaryCandidates(lake: Lake, table: TableSpec, parts: string[], keyBounds: SummaryBounds): string[] | null {
  const summaries = lake.summaries(table.name);
  // A lake written before summaries keeps today's path over the view.
  if (!summaries || [...summaries.values()].every((x) => x === null)) return null;
  return parts.filter((p) => mayMatch(summaries.get(p) ?? null, keyBounds));
}

/**
 * The partitions (in page order) that may hold every key the filters bind on the table's key filter columns
 * (`TableSpec.keyFilters`): a partition is left out when, for one such column, none of its files' filters may hold
 * any of the column's bound values. Null when the filters bind none of the columns (or the table declares none); a
 * partition with a file without filters stays.
 */
function filteredCandidates(lake: Lake, table: TableSpec, parts: string[], bounds: Filters['bounds']): string[] | null {
  const bound = (table.keyFilters ?? []).flatMap((c) => (bounds?.[c]?.in ? [[c, bounds[c].in] as const] : []));
  const filters = bound.length ? lake.keyFilters(table.name) : undefined;
  if (!filters) return null;
  return parts.filter((p) => {
    const files = filters.get(p);
    if (!files) return true;
    return bound.every(([c, values]) =>
      files.some((f) => {
        const x = f.get(c);
        return !x || values.some((v) => mayHold(x, v));
      }),
    );
  });
}

/** What the filters' bounds say of the table's summary key and max column; null when they bound neither. */
function summaryBounds(table: TableSpec, bounds: Filters['bounds']): SummaryBounds | null {
  if (!table.summary || !bounds) return null;
  const keys = bounds[table.summary.key]?.in;
  const min = bounds[table.summary.max]?.gte;
  return keys === undefined && min === undefined ? null : { keys, min };
}

/** Whether the summary of `partition` shows it holds fewer than `n` rows within the bounds. */
function cannotFill(lake: Lake, table: TableSpec, partition: string, keyBounds: SummaryBounds | null, n: number): boolean {
  return keyBounds !== null && rowsAtMost(summaryOf(lake, table, partition), keyBounds) < n;
}

/**
 * A relation over `partitions`: the top index's when every match of each of them is among its key's top rows
 * (`allInTop`: a key with few rows, or a minimum above the key's 26th-largest value) and the index holds them all,
 * where the key is found once instead of once per partition (the worst case at 50M lines, in process: 1.7–1.8 ms of
 * CPU against 7.6–7.7 ms over eight copies); else the union of their copies or files.
 */
function topOrRelation(lake: Lake, table: TableSpec, partitions: string[], keyBounds: SummaryBounds | null): PartitionRelation {
  const inTop = keyBounds !== null && partitions.every((p) => allInTop(summaryOf(lake, table, p), keyBounds));
  return (inTop ? lake.topRelation(table.name, partitions) : null) ?? lake.relation(table.name, partitions);
}

/** The key summary of one partition as of the last refresh; null when it has none (or a stale one). */
function summaryOf(lake: Lake, table: TableSpec, partition: string): PartitionSummary | null {
  return lake.summaries(table.name)?.get(partition) ?? null;
}

/** `from`: the table's view (its quoted name) or a parenthesized SELECT over some of its files. */
function selectSql(from: string, where: string[], order: OrderColumn[], limit: number): string {
  return `SELECT * FROM ${from}${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY ${orderSql(order)} LIMIT ${limit}`;
}

/** Most values of the first sort column a page reads one by one (`pointReadsSql`); more are one `IN` list. */
const MAX_POINT_READS = 20;

/**
 * The page over the rows whose `key` (the files' first sort column) is one of `values`, read as one top-N per value
 * and the page taken from theirs: each value's rows are one run of row groups, which its equality finds by their
 * statistics. The 7 filers of a rare industry over the 7 quarters of 300,000 filings holding them: 123 ms of CPU,
 * against 313 ms for the same values as one `IN` list (docs/layouts.md).
 */
function pointReadsSql(from: string, where: string[], key: string, values: string[], order: OrderColumn[], limit: number): string {
  const each = values.map((v) => `(${selectSql(from, [...where, `${key} = ${v}`], order, limit)})`);
  return `SELECT * FROM (${each.join(' UNION ALL ')}) ORDER BY ${orderSql(order)} LIMIT ${limit}`;
}

/**
 * The same page when `from` returns its rows already in `order` (a serving copy read in storage order): the first
 * `limit` rows that pass the filters are the page, so DuckDB stops at them instead of a top-N over every match (an
 * unfiltered page of a 6.25M-line quarter's copy: 3.9 ms of CPU against 29–31 ms; docs/read-path.md). DuckDB keeps
 * insertion order through a scan, filter and LIMIT (`preserve_insertion_order`, on for the API); the outer ORDER BY only
 * orders the page's own rows.
 */
function storedOrderSql(from: string, where: string[], order: OrderColumn[], limit: number): string {
  return `SELECT * FROM (SELECT * FROM ${from}${where.length ? ` WHERE ${where.join(' AND ')}` : ''} LIMIT ${limit}) ORDER BY ${orderSql(order)}`;
}

/**
 * Whether the row of order values `key` comes at or after `last` in `order` (NULLs last either way, as `orderSql`
 * sorts). False when a pair of values does not compare here (two kinds of value): the caller then reads the head, which
 * is exact whatever this says; only a wrong "at or past" would cost it the head, never a row.
 */
function atOrPast(key: readonly unknown[], last: readonly unknown[], order: readonly OrderColumn[]): boolean {
  for (let i = 0; i < order.length; i++) {
    const c = compareValues(key[i], last[i]);
    if (c === null) return false;
    if (c !== 0) return (order[i].dir === 'desc' && key[i] != null && last[i] != null ? -c : c) > 0;
  }
  return true;
}

/** -1, 0 or 1 for values of one kind as queries return them (NULL last), or null when they are not of one kind. */
function compareValues(a: unknown, b: unknown): number | null {
  if (a == null || b == null) return a == null && b == null ? 0 : a == null ? 1 : -1;
  if (typeof a !== typeof b || !['string', 'number', 'bigint', 'boolean'].includes(typeof a)) return null;
  return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
}

/** Whether a head's order (`TableSpec.head`) is the page's order within a partition, column for column. */
function sameOrder(head: readonly OrderColumn[], order: OrderColumn[]): boolean {
  return head.length === order.length && head.every((o, i) => o.column === order[i].column && o.dir === order[i].dir);
}

/**
 * Whether rows stored in ascending `stored` order are in the page's `order`: every column ascending, the page's
 * columns a prefix of the stored ones (rows sorted by (a, b, c) are sorted by (a, b)).
 */
export function inStorageOrder(stored: readonly string[], order: OrderColumn[]): boolean {
  return order.length > 0 && order.length <= stored.length && order.every((o, i) => o.dir === 'asc' && o.column === stored[i]);
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
