import type { DuckDBConnection } from '@duckdb/node-api';
import { orderSql, queryRows, sqlIdent } from './duck.ts';
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
 * Built by the reader's refresh when a newest partition's files (or its serving copy, or the live append files beside
 * it) changed, from the same relation a page reads, so a head is the partition as served at that listing: a live
 * batch costs one build of the newest quarter (≈ 0.2–0.3 s of CPU), off the request path. A page finds a head only
 * while the partition is read as the head was built from (`HeadEntry.identity`).
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
}

interface HeadEntry extends StoredHead {
  table: string;
  /** How the partition was read when the head was built (its files, copy and append files; `LakeReader`'s). */
  identity: string;
}

/** The newest partitions of a table that declares a head, by its partition column's order; none when it cannot order them. */
export function headPartitions(spec: TableSpec, values: string[]): string[] {
  if (!spec.head) return [];
  return orderedPartitions(values, allColumns(spec)[spec.partitionBy].type, 'desc')?.slice(0, HEAD_PARTITIONS) ?? [];
}

export interface PartitionHeads {
  /**
   * Makes the table's heads those of `partitions` (`headPartitions`) as `identity` and `relationOf` now read them,
   * building the ones that changed; the tables of heads replaced or dropped go to `superseded` (dropped by the caller
   * one refresh later: a page may hold one between two queries).
   */
  update(
    spec: TableSpec,
    partitions: readonly string[],
    identity: (partition: string) => string,
    relationOf: (partition: string) => string,
    superseded: string[],
  ): Promise<void>;
  /** The head of a partition when it was built from the partition as `identity` says it is read now; else null. */
  get(table: string, partition: string, identity: string): StoredHead | null;
}

export function createPartitionHeads(conn: DuckDBConnection): PartitionHeads {
  const built = new Map<string, Map<string, HeadEntry>>();
  let count = 0;

  /** Builds a head of `relation`; null when the read fails (a file compacted away meanwhile: the next refresh retries). */
  async function build(spec: TableSpec, relation: string): Promise<{ table: string; whole: boolean } | null> {
    // Named after its table, so a query's text says whose head it reads.
    const table = `head_${spec.name}_${++count}`;
    try {
      // One row past HEAD_ROWS says whether the partition holds more.
      await conn.run(`CREATE TABLE ${sqlIdent(table)} AS SELECT * FROM ${relation} ORDER BY ${orderSql(spec.head!.order)} LIMIT ${HEAD_ROWS + 1}`);
      const [{ n }] = await queryRows(conn, `SELECT count(*)::INTEGER AS n FROM ${sqlIdent(table)}`);
      return { table, whole: Number(n) <= HEAD_ROWS };
    } catch {
      await conn.run(`DROP TABLE IF EXISTS ${sqlIdent(table)}`).catch(() => undefined);
      return null;
    }
  }

  return {
    async update(spec, partitions, identity, relationOf, superseded) {
      const prior = built.get(spec.name) ?? new Map<string, HeadEntry>();
      const next = new Map<string, HeadEntry>();
      for (const p of partitions) {
        const id = identity(p);
        const kept = prior.get(p);
        if (kept?.identity === id) {
          next.set(p, kept);
          continue;
        }
        const head = await build(spec, relationOf(p));
        if (head) next.set(p, { ...head, sql: sqlIdent(head.table), order: spec.head!.order, identity: id });
      }
      for (const [p, h] of prior) if (next.get(p) !== h) superseded.push(h.table);
      built.set(spec.name, next);
    },
    get(table, partition, identity) {
      const h = built.get(table)?.get(partition);
      return h && h.identity === identity ? { sql: h.sql, whole: h.whole, order: h.order } : null;
    },
  };
}
