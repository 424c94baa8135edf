import { parseArgs } from 'node:util';
import { openLakeReader } from './lake/reader.ts';
import { loadSettings } from '../schemas/settings.ts';

/**
 * `npm run sql -- "<SQL>" [--format table|csv|json]`: the lake with one view per table, read-only, so it can
 * run beside the server and an ingest.
 */
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { format: { type: 'string', default: 'table' }, tables: { type: 'boolean' } },
});

function csvCell(v: unknown): string {
  if (v == null) return '';
  const s = typeof v === 'object' ? JSON.stringify(v) : String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function printTable(rows: Record<string, unknown>[]): void {
  if (!rows.length) {
    console.log('(0 rows)');
    return;
  }
  const cols = Object.keys(rows[0]);
  const cell = (v: unknown) => (v == null ? 'NULL' : typeof v === 'object' ? JSON.stringify(v) : String(v)).slice(0, 60);
  const widths = cols.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (vals: string[]) => vals.map((v, i) => v.padEnd(widths[i])).join(' | ');
  console.log(line(cols));
  console.log(widths.map((w) => '-'.repeat(w)).join('-+-'));
  for (const r of rows) console.log(line(cols.map((c) => cell(r[c]))));
  console.log(`(${rows.length} row${rows.length === 1 ? '' : 's'})`);
}

async function main(): Promise<number> {
  const settings = loadSettings();
  const lake = await openLakeReader(settings.lakeDir);
  try {
    if (values.tables || positionals.length === 0) {
      console.log('usage: npm run sql -- "<SQL>" [--format table|csv|json]\n\nviews:');
      for (const t of lake.tables) console.log(`  ${t.name.padEnd(28)} ${t.description}`);
      return positionals.length === 0 && !values.tables ? 2 : 0;
    }
    const rows = await lake.query(positionals.join(' '));
    if (values.format === 'json') console.log(JSON.stringify(rows, null, 2));
    else if (values.format === 'csv') {
      const cols = rows.length ? Object.keys(rows[0]) : [];
      console.log(cols.join(','));
      for (const r of rows) console.log(cols.map((c) => csvCell(r[c])).join(','));
    } else printTable(rows);
    return 0;
  } catch (err) {
    console.error(`sql error: ${(err as Error).message}`);
    return 1;
  } finally {
    lake.close();
  }
}

process.exitCode = await main();
