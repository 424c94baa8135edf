import type { PartitionRelation } from '../../ingest/lake/index.ts';
import type { ColumnBound, OrderColumn } from './endpoint.ts';

/** What a page read is given: the request's filters, how a partition-first page walks, and one query's signature. */

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

/**
 * One query of a page: the filters over `from` (the table's view, or a relation whose rows the read completes);
 * `stored`: `from` returns its rows in `by` order unsorted.
 */
export type PartitionRead = (
  from: string | PartitionRelation,
  cmpTo: { op: '=' | '<' | '>'; value: unknown } | null,
  by: OrderColumn[],
  limit: number,
  after?: unknown[],
  stored?: boolean,
  /** Values of the table's first sort column that hold every row the filters can match (`keyLocator`). */
  located?: readonly string[] | null,
) => Promise<Record<string, unknown>[]>;

/** Most partitions one windowed query reads: a selective filter that matches nothing walks 3,650 days in ≈ 60 queries. */
export const MAX_RANGE = 64;
