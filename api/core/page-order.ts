import { type Compare, orderedPartitions } from '../../ingest/lake/index.ts';
import type { OrderColumn } from './endpoint.ts';
import type { PageWalk } from './page-walk.ts';

/** Orders a page relies on: of the partitions it walks, of a head's last row against a cursor, of stored rows. */

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
 * Whether the row of order values `key` comes at or after `last` in `order` (NULLs last either way, as `orderSql`
 * sorts). False when a pair of values does not compare here (two kinds of value): the caller then reads the head, which
 * is exact whatever this says; only a wrong "at or past" would cost it the head, never a row.
 */
export function atOrPast(key: readonly unknown[], last: readonly unknown[], order: readonly OrderColumn[]): boolean {
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
export function sameOrder(head: readonly OrderColumn[], order: OrderColumn[]): boolean {
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

export function pageOrder(values: string[], type: string, dir: 'asc' | 'desc'): string[] | null {
  let byKey = ordered.get(values);
  if (!byKey) ordered.set(values, (byKey = new Map()));
  const key = `${type} ${dir}`;
  if (!byKey.has(key)) byKey.set(key, orderedPartitions(values, type, dir));
  return byKey.get(key) ?? null;
}
