import { allColumns, type TableSpec } from '../../schemas/table.ts';

/**
 * The SELECT list of a generated table's rows: every column of `spec` but `omit`, in the table's order, each its
 * expression in `expr` or else NULL, cast to the column's type (JSON columns as text, as the lake stores them). The
 * cast keeps generated files the same shape as the writer's: an events feed generated with `confidence` as the
 * DECIMAL of `1.0` made every reader of it use `union_by_name` once a real batch was appended (0.25 s a reader).
 */
export function generatedColumns(spec: TableSpec, expr: Record<string, string>, omit: readonly string[] = []): string {
  return Object.entries(allColumns(spec))
    .filter(([c]) => !omit.includes(c))
    .map(([c, s]) => `CAST(${expr[c] ?? 'NULL'} AS ${s.type === 'JSON' ? 'VARCHAR' : s.type}) AS "${c}"`)
    .join(', ');
}
