import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { sqlIdent, sqlString } from './duck.ts';
import { allColumns, type TableSpec } from '../../schemas/table.ts';

/**
 * The lake's on-disk layout, shared by the writer, the API and `npm run sql`:
 * `<lake>/<table>/<partitionBy>=<value>/*.parquet`. The partition column lives in the directory name only
 * (Hive style); views declare its type so `WHERE period = '2024Q4'` prunes directories.
 */

/** Small files the live lane appends to a partition between rewrites (docs/live-lane.md). */
export const APPEND_PREFIX = 'part-live-';

/** Whether `file` (a path or a name) is one of the live lane's append files. */
export function isAppendFile(file: string): boolean {
  return basename(file).startsWith(APPEND_PREFIX) && file.endsWith('.parquet');
}

export function tableDir(lakeDir: string, table: string): string {
  return join(lakeDir, table);
}

function partitionDirName(spec: TableSpec, value: string): string {
  return `${spec.partitionBy}=${encodeURIComponent(value)}`;
}

export function partitionDir(lakeDir: string, spec: TableSpec, value: string): string {
  return join(tableDir(lakeDir, spec.name), partitionDirName(spec, value));
}

/**
 * Parquet files currently visible for a table (temp files never match `*.parquet`); with `folders`, only those of
 * the partition folders named (`partitionDirName`).
 */
export function tableFiles(lakeDir: string, table: string, folders?: ReadonlySet<string>): string[] {
  const dir = tableDir(lakeDir, table);
  if (!existsSync(dir)) return [];
  const files: string[] = [];
  for (const part of readdirSync(dir)) {
    if (!part.includes('=') || (folders && !folders.has(part))) continue;
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
  return `CREATE OR REPLACE VIEW ${sqlIdent(spec.name)} AS ${selectOver(spec, files, uniform)}`;
}

/** The SELECT of a table's view over `files` (also a page's relation over some partitions' files only). */
export function selectOver(spec: TableSpec, files: readonly string[], uniform = false): string {
  const cols = allColumns(spec);
  if (files.length === 0) {
    const select = Object.entries(cols)
      .map(([c, s]) => `NULL::${s.type === 'JSON' ? 'JSON' : duckType(s.type)} AS ${sqlIdent(c)}`)
      .join(', ');
    return `SELECT ${select} WHERE false`;
  }
  const ordered = viewColumns(spec);
  const { plain, base, appended } = splitAppended(spec, files);
  return [
    ...(plain.length ? [`SELECT ${ordered} FROM ${parquetScan(spec, plain, uniform)}`] : []),
    ...(appended.length
      ? withAppends(spec, base.length ? { from: parquetScan(spec, base, uniform), columns: ordered } : null, `(${newestAppended(spec, appended, uniform)})`)
      : []),
  ].join(' UNION ALL ');
}

/** A view's select list: every column of the table in order, JSON columns typed JSON. */
function viewColumns(spec: TableSpec): string {
  return Object.entries(allColumns(spec))
    .map(([c, s]) => viewColumn(c, s.type))
    .join(', ');
}

/** `read_parquet` over `files` as a view reads them, with each row's file name when asked. */
function parquetScan(spec: TableSpec, files: readonly string[], uniform: boolean, filename = false): string {
  const partType = duckType(allColumns(spec)[spec.partitionBy].type);
  // The file list, not a glob: the view is rebuilt whenever files come or go, so no query lists directories.
  return (
    `read_parquet([${[...files].sort().map(sqlString).join(', ')}], hive_partitioning = true${uniform ? '' : ', union_by_name = true'}, ` +
    `hive_types = {${sqlString(spec.partitionBy)}: ${partType}}${filename ? ', filename = true' : ''})`
  );
}

/**
 * Partitions holding live append files read as the fold will write them: merged by primary key (with the partition
 * value), the newest file winning (ingest/lake/writer.ts; `data.parquet` sorts before `part-live-<time>`), so a row
 * an append file rewrote (a retried batch, a line an amendment flipped) is read once. The selects (to be joined by
 * UNION ALL): the rows of `base` (their data files, or a serving copy: a FROM item and its select list, in the
 * view's column order) whose key `newest` does not hold, then `newest`'s rows. `newest`: a FROM item holding each
 * key's row from its newest append file (`newestAppended`), in the view's columns. The first select is an anti join
 * with the small `newest` on the build side, so a page's filter still reaches the base's scan.
 */
export function withAppends(spec: TableSpec, base: { from: string; columns: string } | null, newest: string): string[] {
  const cols = Object.keys(allColumns(spec)).map(sqlIdent).join(', ');
  const fromNewest = `SELECT ${cols} FROM ${newest}`;
  if (!base) return [fromNewest];
  const match = mergeKey(spec)
    .map((c) => `a.${c} IS NOT DISTINCT FROM b.${c}`)
    .join(' AND ');
  return [`SELECT ${base.columns} FROM ${base.from} b WHERE NOT EXISTS (SELECT 1 FROM ${newest} a WHERE ${match})`, fromNewest];
}

/** Each key's row from its newest file of `appended` (live append files of some partitions), in the view's columns. */
export function newestAppended(spec: TableSpec, appended: readonly string[], uniform: boolean): string {
  const key = mergeKey(spec).join(', ');
  return (
    `SELECT ${viewColumns(spec)} FROM ${parquetScan(spec, appended, uniform, true)} ` +
    `QUALIFY row_number() OVER (PARTITION BY ${key} ORDER BY filename DESC) = 1`
  );
}

/** What identifies a row across a partition's files: the primary key with the partition value. */
function mergeKey(spec: TableSpec): string[] {
  return [...spec.primaryKey, spec.partitionBy].filter((c, i, all) => all.indexOf(c) === i).map(sqlIdent);
}

/**
 * Splits `files` into those of partitions without live append files (`plain`), and, of partitions with some, the
 * files the appends may rewrite rows of (`base`) and the append files themselves (`appended`). A table without a
 * primary key has no row an append could rewrite: all its files are plain.
 */
function splitAppended(spec: TableSpec, files: readonly string[]): { plain: string[]; base: string[]; appended: string[] } {
  const appended = spec.primaryKey.length ? files.filter(isAppendFile) : [];
  if (!appended.length) return { plain: [...files], base: [], appended: [] };
  const merged = new Set(appended.map((f) => dirname(f)));
  const rest = files.filter((f) => !isAppendFile(f));
  return { plain: rest.filter((f) => !merged.has(dirname(f))), base: rest.filter((f) => merged.has(dirname(f))), appended };
}

/**
 * A FROM item over every file a table's folders hold now, read as its view reads them (append files merged), for an
 * ingest that reconciles with the lake's earlier rows; null while the table has no file. With `partitions`, over
 * the files of those partition values only (null when none of them holds a file).
 */
export function tableRelation(lakeDir: string, spec: TableSpec, partitions?: readonly string[]): string | null {
  const folders = partitions && new Set(partitions.map((v) => partitionDirName(spec, v)));
  const files = tableFiles(lakeDir, spec.name, folders);
  return files.length ? `(${selectOver(spec, files)})` : null;
}

/** The view of a table over the files its folders hold now (`npm run sql`, which creates a view on first mention). */
export function viewSql(lakeDir: string, spec: TableSpec): string {
  return viewSqlOver(spec, tableFiles(lakeDir, spec.name));
}
