import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { sqlIdent, sqlString } from './duck.ts';
import { allColumns, type TableSpec } from '../../schemas/table.ts';

/**
 * The lake's on-disk layout, shared by the writer, the API and `npm run sql`:
 * `<lake>/<table>/<partitionBy>=<value>/*.parquet`. The partition column lives in the directory name only
 * (Hive style); views declare its type so `WHERE period = '2024Q4'` prunes directories.
 */

export function tableDir(lakeDir: string, table: string): string {
  return join(lakeDir, table);
}

function partitionDirName(spec: TableSpec, value: string): string {
  return `${spec.partitionBy}=${encodeURIComponent(value)}`;
}

export function partitionDir(lakeDir: string, spec: TableSpec, value: string): string {
  return join(tableDir(lakeDir, spec.name), partitionDirName(spec, value));
}

/** Parquet files currently visible for a table (temp files never match `*.parquet`). */
export function tableFiles(lakeDir: string, table: string): string[] {
  const dir = tableDir(lakeDir, table);
  if (!existsSync(dir)) return [];
  const files: string[] = [];
  for (const part of readdirSync(dir)) {
    if (!part.includes('=')) continue;
    const pdir = join(dir, part);
    for (const f of readdirSync(pdir)) if (f.endsWith('.parquet')) files.push(join(pdir, f));
  }
  return files;
}

function duckType(t: string): string {
  return t === 'JSON' ? 'VARCHAR' : t;
}

/**
 * A view column: JSON columns are stored as Parquet strings and typed JSON in the view, so `DESCRIBE` says JSON and
 * `tickers->>0` works without a cast; every other column is read as stored.
 */
function viewColumn(name: string, type: string): string {
  return type === 'JSON' ? `${sqlIdent(name)}::JSON AS ${sqlIdent(name)}` : sqlIdent(name);
}

/**
 * The SQL view of a table over `files` (its listing), or an empty relation of the right shape before any ingest.
 * `uniform` (every file has the same columns) lets the view skip union_by_name, whose per-query schema
 * reconciliation costs a few milliseconds per file on every page.
 */
export function viewSqlOver(spec: TableSpec, files: readonly string[], uniform = false): string {
  const cols = allColumns(spec);
  const name = sqlIdent(spec.name);
  if (files.length === 0) {
    const select = Object.entries(cols)
      .map(([c, s]) => `NULL::${s.type === 'JSON' ? 'JSON' : duckType(s.type)} AS ${sqlIdent(c)}`)
      .join(', ');
    return `CREATE OR REPLACE VIEW ${name} AS SELECT ${select} WHERE false`;
  }
  // The file list, not a glob: the view is rebuilt whenever files come or go, so no query lists directories.
  return `CREATE OR REPLACE VIEW ${name} AS ${selectOver(spec, files, uniform)}`;
}

/**
 * The view's SELECT over some of a table's files (at least one): the same columns and types as the view. The API's
 * walk over many partitions reads a few days' files this way, not through the view of all of them (see
 * docs/read-path.md: a query of the 3,650-file view costs 0.3–0.9 s even when it filters to one day).
 */
export function selectOver(spec: TableSpec, files: readonly string[], uniform = false): string {
  const cols = allColumns(spec);
  const list = [...files].sort().map(sqlString).join(', ');
  const partType = duckType(cols[spec.partitionBy].type);
  const ordered = Object.entries(cols)
    .map(([c, s]) => viewColumn(c, s.type))
    .join(', ');
  return (
    `SELECT ${ordered} FROM read_parquet([${list}], ` +
    `hive_partitioning = true${uniform ? '' : ', union_by_name = true'}, hive_types = {${sqlString(spec.partitionBy)}: ${partType}})`
  );
}

/** The view of a table over the files its folders hold now (`npm run sql`, which creates a view on first mention). */
export function viewSql(lakeDir: string, spec: TableSpec): string {
  return viewSqlOver(spec, tableFiles(lakeDir, spec.name));
}
