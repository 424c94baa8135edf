import { allColumns, type TableSpec } from '../../schemas/table.ts';

/**
 * The SELECT list of a generated table's rows: every column of `spec` but `omit`, in the table's order, each its
 * expression in `expr` or else a NULL of its type (JSON columns as text, as the lake stores them).
 */
export function generatedColumns(spec: TableSpec, expr: Record<string, string>, omit: readonly string[] = []): string {
  return Object.entries(allColumns(spec))
    .filter(([c]) => !omit.includes(c))
    .map(([c, s]) => `${expr[c] ?? `NULL::${s.type === 'JSON' ? 'VARCHAR' : s.type}`} AS "${c}"`)
    .join(', ');
}
