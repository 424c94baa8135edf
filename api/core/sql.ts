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

export function duckType(spec: TableSpec, column: string): string {
  const t = allColumns(spec)[column]?.type ?? 'VARCHAR';
  return t === 'JSON' ? 'VARCHAR' : t;
}

/**
 * Keyset predicate in the expanded form (`a >= $1 AND (a > $1 OR b > $2)`): DuckDB prunes row groups on plain
 * comparisons of sort columns but not on row-value comparisons (20× slower, docs/engine-notes.md §1).
 */
export function keysetPredicate(order: OrderColumn[], values: unknown[], b: SqlBuilder, spec: TableSpec): string {
  const build = (i: number): string => {
    const { column, dir } = order[i];
    const ph = `${b.param(values[i])}::${duckType(spec, column)}`;
    const strict = dir === 'asc' ? '>' : '<';
    if (i === order.length - 1) return `"${column}" ${strict} ${ph}`;
    const loose = dir === 'asc' ? '>=' : '<=';
    return `"${column}" ${loose} ${ph} AND ("${column}" ${strict} ${ph} OR ${build(i + 1)})`;
  };
  return build(0);
}

/** `"a" ASC, "b" DESC`: an ORDER BY list from an endpoint's declared order. */
export function orderSql(order: OrderColumn[]): string {
  return order.map((o) => `"${o.column}" ${o.dir.toUpperCase()}`).join(', ');
}
