import { allColumns, type TableSpec } from '../../schemas/table.ts';
import type { OrderColumn, SqlBuilder } from './endpoint.ts';

/** SQL text helpers of the API core: bound parameters and keyset predicates (column names are ours, values bound). */

export function sqlBuilder(start: unknown[] = []): SqlBuilder & { params: unknown[] } {
  const params = [...start];
  return {
    params,
    param(v) {
      params.push(v);
      return `$${params.length}`;
    },
  };
}

/** `column` is one of `keys` (text), each bound (one key: an equality, the same SQL as a plain `f.eq`); no key: no row. */
export function keysIn(column: string, keys: readonly string[], b: SqlBuilder): string {
  if (keys.length === 1) return `"${column}" = ${b.param(keys[0])}`;
  return keys.length ? `"${column}" IN (${keys.map((k) => b.param(k)).join(', ')})` : 'false';
}

export function duckType(spec: TableSpec, column: string): string {
  const t = allColumns(spec)[column]?.type ?? 'VARCHAR';
  return t === 'JSON' ? 'VARCHAR' : t;
}

/**
 * Keyset predicate in the expanded form (`a >= $1 AND (a > $1 OR b > $2)`): DuckDB prunes row groups on plain
 * comparisons of sort columns but not on row-value comparisons (20× slower, docs/engine-notes.md §1).
 *
 * A nullable column is compared as DuckDB orders it, NULLs last in either direction (`orderSql`, ingest/lake/duck.ts, says so): a NULL
 * comes after every value, so a row holding one is past a cursor that holds a value there; and past a cursor that
 * holds NULL there only rows also NULL there can follow, decided by the columns after it. Non-nullable columns keep
 * the plain comparisons, as does the partition column.
 */
export function keysetPredicate(order: OrderColumn[], values: unknown[], b: SqlBuilder, spec: TableSpec): string {
  const columns = allColumns(spec);
  const build = (i: number): string => {
    const { column, dir } = order[i];
    const last = i === order.length - 1;
    // The partition column's values are folder names, never NULL: its plain comparison keeps the files' pruning.
    const nullable = column !== spec.partitionBy && columns[column]?.nullable !== false;
    const col = `"${column}"`;
    if (nullable && values[i] === null) return last ? 'false' : `${col} IS NULL AND (${build(i + 1)})`;
    const ph = `${b.param(values[i])}::${duckType(spec, column)}`;
    const [strict, loose] = dir === 'asc' ? ['>', '>='] : ['<', '<='];
    const orNull = nullable ? ` OR ${col} IS NULL` : '';
    const past = nullable ? `(${col} ${strict} ${ph}${orNull})` : `${col} ${strict} ${ph}`;
    if (last) return past;
    const notBefore = nullable ? `(${col} ${loose} ${ph}${orNull})` : `${col} ${loose} ${ph}`;
    return `${notBefore} AND (${past} OR ${build(i + 1)})`;
  };
  return build(0);
}
