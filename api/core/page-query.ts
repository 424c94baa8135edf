import { comparator, WALKABLE } from '../../ingest/lake/index.ts';
import type { TableSpec } from '../../schemas/table.ts';
import type { OrderColumn } from './endpoint.ts';
import { keyLocator, readLocated } from './key-located.ts';
import { MISSING_FILE, type Lake } from './lake.ts';
import { atOrPast, inStorageOrder, pageOrder, partitionsAfter, sameOrder, within } from './page-order.ts';
import { MAX_POINT_READS, pointReadsSql, selectSql, storedOrderSql } from './page-sql.ts';
import { MAX_RANGE, type Filters, type PageWalk, type PartitionRead } from './page-walk.ts';
import { cannotFill, filteredCandidates, summaryBounds, summaryCandidates, topOrRelation } from './partition-candidates.ts';
import { duckType, keysetPredicate, sqlBuilder } from './sql.ts';

/** DuckDB's error for a query naming a head table that is gone (ingest/lake/heads.ts names them `head_<table>_<n>`). */
const DROPPED_HEAD = /Table with name head_\w+ does not exist/i;

/** Most partitions read at once after the first (the API's pool has 4 connections, DuckDB 2 threads). */
const MAX_WINDOW = 4;

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
