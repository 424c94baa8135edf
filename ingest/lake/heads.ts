import type { DuckDBConnection } from '@duckdb/node-api';
import { orderSql, queryRows, sqlIdent } from './duck.ts';
import { withAppends } from './layout.ts';
import { orderedPartitions } from './partition-order.ts';
import { allColumns, type OrderColumn, type TableSpec } from '../../schemas/table.ts';

/**
 * Partition heads (`TableSpec.head`): the API's reader keeps, in an in-memory table of its own, the first `HEAD_ROWS`
 * rows of each of a table's `HEAD_PARTITIONS` newest partitions in the order its list pages them. A page of such a
 * partition that the head fills reads the head instead of the partition: a quarter of the filing index is sorted by
 * CIK, so DuckDB's top-N for the newest filings decodes all of its 300,000 rows (100–130 ms of CPU), where the head's
 * costs 2–4 ms (docs/layouts.md, "Heads").
 *
 * Why a page the head fills is exact: the head holds every row of the partition that comes before its last one in the
 * order, a total order (its columns hold the primary key, `defineTable`). So the first `n` rows of the head that pass
 * a page's filters (and follow its cursor) are the first `n` of the partition; fewer than `n`, and unless the head is
 * the whole partition, the page reads the partition as before.
 *
 * Kept by the reader's refresh, off the request path, from the same relation a page reads, so a head is the partition
 * as served at that listing. A page finds a head only while the partition is read as the head was built from
 * (`HeadSource`). When only live append files came since (the live lane's batches), the head grows by their rows
 * (`grow`: 40–50 ms of CPU a head) instead of a new top-N of the quarter through the append files: the refresh after a
 * 200-row batch cost 87–161 ms of CPU instead of 605–1,310 ms (docs/layouts.md, "Heads").
 */
export const HEAD_ROWS = 8_192;

/** Heads are kept for the newest partitions only: a first page starts in the newest, and a quarter just begun is short. */
const HEAD_PARTITIONS = 2;

/** A partition's head as a page reads it. */
export interface StoredHead {
  /** The in-memory table (its quoted name): the partition's rows as its relation returns them, `order`ed. */
  sql: string;
  /** The head holds every row of the partition (it had no more than `HEAD_ROWS`). */
  whole: boolean;
  order: readonly OrderColumn[];
  /**
   * Its last row's values of `order`, as queries return them, when it is not `whole`: a page whose cursor is at or past
   * it finds nothing more in the head, and reads the partition without asking it.
   */
  last: readonly unknown[] | null;
}

/** How a partition is read: what a head was built from, and what a page must still read for the head to be its. */
export interface HeadSource {
  /** Everything but its live append files: its other files and its serving copy (the reader's own spelling). */
  base: string;
  /** Its live append files, in name order (the order in which a newer file's row of a key replaces an older one's). */
  appends: readonly string[];
}

/** What a refresh gives `PartitionHeads.update` of the table's partitions, as the listing being swapped in reads them. */
export interface HeadReads {
  source(partition: string): HeadSource;
  /** The partition's relation (a FROM item): a head is built from it. */
  relation(partition: string): string;
  /** Each key's newest row of these live append files (a SELECT): what a head grows by. */
  appended(files: readonly string[]): string;
}

/** A head table just filled. */
type Made = Pick<HeadEntry, 'table' | 'whole' | 'last'>;

interface HeadEntry extends StoredHead {
  table: string;
  source: HeadSource;
}

/** How a head was made anew: from the partition (`built`) or from the one before it and new append files (`grown`). */
export type HeadUpdate = 'built' | 'grown';

/** The newest partitions of a table that declares a head, by its partition column's order; none when it cannot order them. */
export function headPartitions(spec: TableSpec, values: string[]): string[] {
  if (!spec.head) return [];
  return orderedPartitions(values, allColumns(spec)[spec.partitionBy].type, 'desc')?.slice(0, HEAD_PARTITIONS) ?? [];
}

/** `select` of the last row of `table` (a head's, a few thousand rows) in `order`. */
function lastRowSql(table: string, order: readonly OrderColumn[], select: string): string {
  return `SELECT ${select} FROM ${table} QUALIFY row_number() OVER (ORDER BY ${orderSql(order)}) = count(*) OVER ()`;
}

function sameSource(a: HeadSource, b: HeadSource): boolean {
  return a.base === b.base && a.appends.length === b.appends.length && a.appends.every((f, i) => b.appends[i] === f);
}

/**
 * The append files `now` reads beyond those a head was built with, when nothing else changed and each of them sorts
 * after all of those (so its rows replace theirs, as the partition's read has it); else null: the head is built anew.
 */
function addedAppends(built: HeadSource, now: HeadSource): readonly string[] | null {
  if (built.base !== now.base || now.appends.length <= built.appends.length) return null;
  return built.appends.every((f, i) => now.appends[i] === f) ? now.appends.slice(built.appends.length) : null;
}

export interface PartitionHeads {
  /**
   * Makes the table's heads those of `partitions` (`headPartitions`) as `reads` has them read now, building (or
   * growing) the ones that changed; the tables of heads replaced or dropped go to `superseded` (dropped by the caller
   * one refresh later: a page may hold one between two queries).
   */
  update(spec: TableSpec, partitions: readonly string[], reads: HeadReads, superseded: string[]): Promise<void>;
  /** The head of a partition when it was built from the partition as `source` says it is read now; else null. */
  get(table: string, partition: string, source: HeadSource): StoredHead | null;
}

/** `onUpdate` hears of each head made (tests tell a grown head from one built anew). */
export function createPartitionHeads(conn: DuckDBConnection, onUpdate?: (table: string, partition: string, how: HeadUpdate) => void): PartitionHeads {
  const built = new Map<string, Map<string, HeadEntry>>();
  let count = 0;

  /** Fills a new head table by `select` (its rows, ordered and limited); null when the read fails (the next refresh retries). */
  async function fill(spec: TableSpec, select: string, whole: (n: number) => boolean): Promise<Made | null> {
    // Named after its table, so a query's text says whose head it reads.
    const table = `head_${spec.name}_${++count}`;
    const order = spec.head!.order;
    try {
      await conn.run(`CREATE TABLE ${sqlIdent(table)} AS ${select}`);
      // The row count and the last row's order values, in one read of the (small) table.
      const [end] = await queryRows(
        conn,
        lastRowSql(sqlIdent(table), order, `count(*) OVER ()::INTEGER AS _n, ${order.map((o) => sqlIdent(o.column)).join(', ')}`),
      );
      const all = whole(Number(end?._n ?? 0));
      return { table, whole: all, last: all || !end ? null : order.map((o) => end[o.column]) };
    } catch {
      // A file compacted away meanwhile.
      await conn.run(`DROP TABLE IF EXISTS ${sqlIdent(table)}`).catch(() => undefined);
      return null;
    }
  }

  /** A head of `relation`: its first rows, and one row past HEAD_ROWS that says whether the partition holds more. */
  function build(spec: TableSpec, relation: string): Promise<Made | null> {
    return fill(spec, `SELECT * FROM ${relation} ORDER BY ${orderSql(spec.head!.order)} LIMIT ${HEAD_ROWS + 1}`, (n) => n <= HEAD_ROWS);
  }

  /**
   * The head `prior` becomes when the partition gains the rows `appended` (each replacing the row of its key, as the
   * partition's read merges append files). Exact because `prior` held every row of the partition up to its last row:
   * the partition's rows up to that row are now `prior`'s not replaced and the appended ones up to it. Rows past it
   * may have partition rows before them that `prior` never held, so they are left out, unless `prior` was the whole
   * partition. A live batch's filings are the newest, so they come first and the head keeps its size.
   */
  function grow(spec: TableSpec, prior: HeadEntry, appended: string): Promise<Made | null> {
    const order = orderSql(spec.head!.order);
    const cols = Object.keys(allColumns(spec)).map(sqlIdent).join(', ');
    const [kept, added] = withAppends(spec, { from: prior.sql, columns: cols }, `(${appended})`);
    // The prior head's last row marks where the rows it can vouch for end; `_past` sorts it after an equal row.
    const last = lastRowSql(prior.sql, spec.head!.order, `${cols}, true AS _past`);
    const rows = [`SELECT *, false AS _past FROM (${kept})`, `SELECT *, false AS _past FROM (${added})`, ...(prior.whole ? [] : [last])];
    const select =
      `SELECT ${cols} FROM (SELECT *, bool_or(_past) OVER (ORDER BY ${order}, _past ROWS UNBOUNDED PRECEDING) AS _beyond ` +
      `FROM (${rows.join(' UNION ALL ')})) WHERE NOT _beyond ORDER BY ${order} LIMIT ${HEAD_ROWS + 1}`;
    return fill(spec, select, (n) => prior.whole && n <= HEAD_ROWS);
  }

  return {
    async update(spec, partitions, reads, superseded) {
      const prior = built.get(spec.name) ?? new Map<string, HeadEntry>();
      const next = new Map<string, HeadEntry>();
      for (const p of partitions) {
        const source = reads.source(p);
        const kept = prior.get(p);
        if (kept && sameSource(kept.source, source)) {
          next.set(p, kept);
          continue;
        }
        // A table without a primary key has no row an append replaces (layout.ts): its heads are built anew.
        const added = kept && spec.primaryKey.length ? addedAppends(kept.source, source) : null;
        const grown = added && (await grow(spec, kept!, reads.appended(added)));
        const head = grown || (await build(spec, reads.relation(p)));
        if (!head) continue;
        onUpdate?.(spec.name, p, grown ? 'grown' : 'built');
        next.set(p, { ...head, sql: sqlIdent(head.table), order: spec.head!.order, source });
      }
      for (const [p, h] of prior) if (next.get(p) !== h) superseded.push(h.table);
      built.set(spec.name, next);
    },
    get(table, partition, source) {
      const h = built.get(table)?.get(partition);
      return h && sameSource(h.source, source) ? { sql: h.sql, whole: h.whole, order: h.order, last: h.last } : null;
    },
  };
}
