import { dirname } from 'node:path';
import { keyLookupSql } from '../../ingest/lake/index.ts';
import type { TableSpec } from '../../schemas/table.ts';
import type { OrderColumn } from './endpoint.ts';
import type { Lake } from './lake.ts';
import { MAX_RANGE, type Filters, type PageWalk, type PartitionRead } from './page-walk.ts';

/** Pages located by a key index (`TableSpec.keyIndexes`): which partitions hold the key, and the walk over them. */

/**
 * The walk of a page located by a key index (`keyLocator`): the cursor's partition first, past the cursor; then the
 * partitions after it are located in growing windows (1, 2, 4 … `MAX_RANGE` index files a query) until those found
 * hold rows enough for the page, and the fewest of them that do are read in one query, with the sort column's values
 * as a filter. Counts are of the key alone (other filters may drop rows), so a short read goes on to the next ones.
 */
export async function readLocated(
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
export async function keyLocator(lake: Lake, table: TableSpec, filters: Filters): Promise<KeyLocator | null> {
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
