/** How `npm run sql` prints a result: an aligned table (cells cut at 60 characters), CSV or JSON. */

export type OutputFormat = 'table' | 'csv' | 'json';

const text = (v: unknown) => (v == null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));

function csvCell(v: unknown): string {
  const s = text(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function table(rows: Record<string, unknown>[]): string[] {
  if (!rows.length) return ['(0 rows)'];
  const cols = Object.keys(rows[0]);
  const cell = (v: unknown) => (v == null ? 'NULL' : text(v)).slice(0, 60);
  const widths = cols.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (vals: string[]) => vals.map((v, i) => v.padEnd(widths[i])).join(' | ');
  return [
    line(cols),
    widths.map((w) => '-'.repeat(w)).join('-+-'),
    ...rows.map((r) => line(cols.map((c) => cell(r[c])))),
    `(${rows.length} row${rows.length === 1 ? '' : 's'})`,
  ];
}

export function formatRows(rows: Record<string, unknown>[], format: OutputFormat): string {
  if (format === 'json') return JSON.stringify(rows, null, 2);
  if (format === 'csv') {
    const cols = rows.length ? Object.keys(rows[0]) : [];
    return [cols.join(','), ...rows.map((r) => cols.map((c) => csvCell(r[c])).join(','))].join('\n');
  }
  return table(rows).join('\n');
}
