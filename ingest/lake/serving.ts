import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { derivedStamp } from './derived-reads.ts';
import { queryRows, rowSet, sqlIdent, sqlString } from './duck.ts';
import { selectOver } from './layout.ts';
import { fileFingerprint, TOP_ROWS } from './summary.ts';
import { allColumns, type TableSpec } from '../../schemas/table.ts';

type ServingLookup = NonNullable<TableSpec['servingLookup']>;

/**
 * Serving copies (issue #20): beside a partition's `data.parquet` of a table that declares `serving`, a native DuckDB
 * database file holding the same rows in the same order, with exactly the columns (names, types, order) the table's
 * view gives for that file, partition column included. A page of a 6.25M-line 13F quarter costs 38 ms of CPU read
 * from Parquet (a whole 122,880-row group of 31 columns is decoded) and 7.9 ms from the native copy, which decodes
 * only the vectors it needs (docs/read-path.md). The copy also records the fingerprint of the data file it was built
 * from: it is renamed in by the same commit, after its data file, and a copy that does not describe the partition's
 * `data.parquet` as it is now (a crash between the renames, a compaction, an old lake) is never read. Live append
 * files beside that file do not retire it: the partition reads the copy merged with them until the fold
 * (ingest/lake/layout.ts `withAppends`). The listing takes `*.parquet` only, so nothing else reads this file as data.
 */
export const SERVING_FILE = 'data.duckdb';

/** The table holding the rows in a serving file. */
const ROWS_TABLE = 'rows';
/**
 * A one-row table: the fingerprint of the data file the rows were copied from, the columns the rows are in ascending
 * order of (JSON text; absent in copies written before it, which claim no order), the lookup the rows leave out
 * (JSON `{key, columns}`; absent or empty: the rows hold every column), and the digest of the lookup's content
 * (`lookupDigestSql`; absent or empty: none recorded).
 */
const META_TABLE = 'meta';
/** The table holding a `servingLookup`'s columns once per key (TableSpec.servingLookup). */
const LOOKUP_TABLE = 'lookup';
/**
 * Of a table with a key summary, each key's `TOP_ROWS` rows with the largest summary `max` (columns as `rows`): what
 * the reader's top index gathers over the partitions (docs/read-path.md, "The top index").
 */
const TOP_TABLE = 'top';

/**
 * Writes the serving copy of the (staged) data file `dataFile` to `servingFile`, attached to the writer's connection
 * under a name of its own, then checkpointed and detached (no WAL is left beside it).
 */
export async function writeServingCopy(conn: DuckDBConnection, spec: TableSpec, dataFile: string, servingFile: string): Promise<void> {
  const fp = await fileFingerprint(dataFile);
  const alias = sqlIdent(`serving_${randomUUID().slice(0, 8)}`);
  // The ingest runs with preserve_insertion_order off (less memory for its own writes); a parallel CREATE TABLE AS
  // could then interleave the file's row groups. The copy must keep the file's order: its min/max zonemaps prune by
  // it, and a page reads the first rows in storage order without sorting (`storageOrder`, api/core/page-query.ts).
  const [{ keep }] = await queryRows(conn, `SELECT current_setting('preserve_insertion_order') AS keep`);
  await conn.run(`ATTACH ${sqlString(servingFile)} AS ${alias}`);
  try {
    await conn.run('SET preserve_insertion_order = true');
    // The reader's own SELECT over this one file: the copy can only ever hold what a read of the file returns.
    const file = selectOver(spec, [dataFile], true);
    const lookup = spec.servingLookup && (await writeLookup(conn, `${alias}.${LOOKUP_TABLE}`, spec.servingLookup, file)) ? spec.servingLookup : null;
    const lifted = new Set(lookup?.columns ?? []);
    const cols = Object.keys(allColumns(spec))
      .filter((c) => !lifted.has(c))
      .map(sqlIdent)
      .join(', ');
    await conn.run(`CREATE TABLE ${alias}.${ROWS_TABLE} AS SELECT ${cols} FROM (${file})`);
    if (spec.summary) {
      const [key, max] = [sqlIdent(spec.summary.key), sqlIdent(spec.summary.max)];
      // Stored in key order: the window hands its rows over in hash order, which DuckDB kept in memory and compressed
      // at the CHECKPOINT below. A real quarter's CUSIP copy (1M lines, 24,000 CUSIPs: 580k top rows) took 0.43–0.46 s
      // more CPU to checkpoint and 72–73 MB on disk instead of 59 MB.
      await conn.run(
        `CREATE TABLE ${alias}.${TOP_TABLE} AS SELECT * FROM ${alias}.${ROWS_TABLE} ` +
          `QUALIFY row_number() OVER (PARTITION BY ${key} ORDER BY ${max} DESC NULLS LAST) <= ${TOP_ROWS} ORDER BY ${key}`,
      );
    }
    const digest = lookup ? (await queryRows(conn, lookupDigestSql(`${alias}.${LOOKUP_TABLE}`, lookup.key)))[0].digest : '';
    await conn.run(
      `CREATE TABLE ${alias}.${META_TABLE} AS SELECT ${sqlString(fp)} AS data_fingerprint, ${sqlString(JSON.stringify(spec.sortBy))} AS ordered_by, ` +
        `${sqlString(lookup ? JSON.stringify(lookup) : '')} AS lookup, ${sqlString(String(digest))} AS lookup_digest`,
    );
    await conn.run(`CHECKPOINT ${alias}`);
  } finally {
    if (keep !== true) await conn.run('SET preserve_insertion_order = false');
    await conn.run(`DETACH ${alias}`);
  }
}

/**
 * Writes the lookup table of `file` (one row per key) when every key of the file holds one value of each lookup
 * column, and says whether it did. A file where some key does not (no ingest of ours writes one) gets a copy with
 * every column on every row instead: a lookup could only give each key one value.
 */
async function writeLookup(conn: DuckDBConnection, target: string, lookup: ServingLookup, file: string): Promise<boolean> {
  const key = sqlIdent(lookup.key);
  const cols = lookup.columns.map(sqlIdent);
  // The distinct (key, columns) tuples: one per key exactly when each key has one value of each column on all its
  // rows (NULL counting as a value). A min/max/count check per column took 1.7–1.8 s of CPU for a real quarter's
  // CUSIP-sorted file (3M lines, the keys scattered), this 0.8–1.1 s; 0.5 s against 0.3 s for the manager-sorted one.
  await conn.run(`CREATE TABLE ${target} AS SELECT DISTINCT ${key}, ${cols.join(', ')} FROM (${file})`);
  // A NULL key is one more key (count(DISTINCT) leaves it out).
  const [{ ok }] = await queryRows(conn, `SELECT count(*) = count(DISTINCT ${key}) + coalesce(max((${key} IS NULL)::INTEGER), 0) AS ok FROM ${target}`);
  if (ok !== true) await conn.run(`DROP TABLE ${target}`);
  return ok === true;
}

/**
 * The digest of a lookup table's content: the MD5 of its rows as JSON, one a line in key order (keys are unique in a
 * lookup). The two copies of a quarter (one per sort order) hold the same lookup, and a reader keeps one of them in
 * memory for both (`LookupCache`): 30 ms of CPU at the copy's write for a quarter's 7,938 filings.
 */
function lookupDigestSql(table: string, key: string): string {
  return `SELECT md5(coalesce(string_agg(to_json(l)::VARCHAR, chr(10) ORDER BY l.${sqlIdent(key)}), '')) AS digest FROM ${table} l`;
}

/**
 * A reader's lookups read so far, by their content's digest: a copy whose meta records a digest already read takes the
 * same values instead of reading them again (the two copies of a quarter: 48 ms of CPU and the values' memory, ≈ 4 MB
 * for a quarter's 7,938 filings, once instead of twice). Held weakly: the values go with the last copy that uses them.
 */
export type LookupCache = Map<string, WeakRef<ReadonlyMap<string, Record<string, unknown>>>>;

/**
 * What identifies a partition's serving file as current: the data file's fingerprint (`fp`, the partition's
 * `baseDataFingerprint`; null: no copy can be current) and the serving file's identity; and its size.
 */
export async function servingIdentity(dir: string, fp: string | null): Promise<{ path: string; key: string; fingerprint: string; bytes: number } | null> {
  if (fp === null) return null;
  const path = join(dir, SERVING_FILE);
  try {
    const s = await stat(path);
    return { path, fingerprint: fp, key: derivedStamp(fp, s), bytes: s.size };
  } catch {
    return null;
  }
}

/**
 * A copy's lookup as read when it was attached: the columns its rows leave out, and per key their values (converted
 * as any page row is). 10,608 filings a 1M-line quarter; a real quarter holds ≈ 10,000 (docs/read-path.md).
 */
export interface AttachedLookup {
  key: string;
  columns: readonly string[];
  values: ReadonlyMap<string, Record<string, unknown>>;
}

/**
 * Attaches `path` read-only as `alias` (ours, never user input) and keeps it only if it was built from the data file
 * with `fingerprint` and holds the columns `columns` in that order, but for those its lookup holds (a copy written
 * before a column was added is not read: its Parquet file is). Returns, when it stayed attached, the columns its rows
 * are in ascending order of (`ordered_by`; none for a copy written before the meta recorded it) and its lookup, read
 * whole; null when it was not kept.
 */
export async function attachServing(
  conn: DuckDBConnection,
  alias: string,
  path: string,
  fingerprint: string,
  columns: readonly string[],
  lookups?: LookupCache,
): Promise<{ orderedBy: string[]; lookup: AttachedLookup | null; top: boolean } | null> {
  const a = sqlIdent(alias);
  try {
    await conn.run(`ATTACH ${sqlString(path)} AS ${a} (READ_ONLY)`);
  } catch {
    return null;
  }
  try {
    const rows = await queryRows(conn, `SELECT * FROM ${a}.${META_TABLE}`);
    const meta = rows.length === 1 ? rows[0] : null;
    const declared = meta ? lookupOf(meta.lookup) : null;
    const lifted = new Set(declared?.columns ?? []);
    // Every table's columns in one read: `duckdb_columns()` walks every attached database, so each call costs more as
    // copies attach (48 calls, three a copy, were 0.23 s of CPU in the 2.0 s open of the 10M-line bench lake's 16).
    const tables = new Map<string, string[]>();
    const listed = await queryRows(
      conn,
      `SELECT table_name, list(column_name ORDER BY column_index) AS cols FROM duckdb_columns() WHERE database_name = ${sqlString(alias)} GROUP BY table_name`,
    );
    for (const r of listed) tables.set(String(r.table_name), (r.cols as unknown[]).map(String));
    const holds = (table: string, expected: readonly string[]) => {
      const cols = tables.get(table) ?? [];
      return cols.length === expected.length && cols.every((c, i) => c === expected[i]);
    };
    // The rows hold the table's columns but the lifted ones; the lookup, its key (a column of the rows) and those.
    const lookupFits = !declared || ([declared.key, ...declared.columns].every((c) => columns.includes(c)) && !lifted.has(declared.key));
    const rowColumns = columns.filter((c) => !lifted.has(c));
    const sameColumns = lookupFits && holds(ROWS_TABLE, rowColumns) && (!declared || holds(LOOKUP_TABLE, [declared.key, ...declared.columns]));
    if (meta && meta.data_fingerprint === fingerprint && sameColumns) {
      const lookup = declared ? { ...declared, values: await lookupValues(conn, a, declared.key, String(meta.lookup_digest ?? ''), lookups) } : null;
      // A copy written before the top table, or one whose top table is not of its rows' columns, has none.
      return { orderedBy: orderedBy(meta.ordered_by), lookup, top: holds(TOP_TABLE, rowColumns) };
    }
  } catch {
    // Not a serving file of ours (no meta table): read the partition from Parquet.
  }
  await conn.run(`DETACH ${a}`).catch(() => undefined);
  return null;
}

/** The lookup table of an attached copy, by key: from `cache` when a lookup of the same digest is held there. */
async function lookupValues(
  conn: DuckDBConnection,
  alias: string,
  key: string,
  digest: string,
  cache: LookupCache | undefined,
): Promise<ReadonlyMap<string, Record<string, unknown>>> {
  const held = digest && cache?.get(digest)?.deref();
  if (held) return held;
  const values = new Map<string, Record<string, unknown>>();
  // Read whole through one JSON text (`rowSet`): a quarter's 7,938 filings in 48 ms of CPU against 103–133 ms value by value.
  for (const row of await rowSet(conn, `SELECT * FROM ${alias}.${LOOKUP_TABLE}`)) {
    const k = String(row[key]);
    delete row[key];
    values.set(k, row);
  }
  if (digest && cache) {
    // Entries whose values went (their copies detached) are dropped as new ones come.
    for (const [d, ref] of cache) if (!ref.deref()) cache.delete(d);
    cache.set(digest, new WeakRef(values));
  }
  return values;
}

/** The meta's `lookup` (JSON `{key, columns}`); null when the rows hold every column (empty, absent, anything else). */
function lookupOf(text: unknown): ServingLookup | null {
  if (typeof text !== 'string' || text === '') return null;
  try {
    const v = JSON.parse(text);
    const ok = typeof v?.key === 'string' && Array.isArray(v.columns) && v.columns.length > 0 && v.columns.every((c: unknown) => typeof c === 'string');
    return ok ? { key: v.key, columns: v.columns } : null;
  } catch {
    return null;
  }
}

/** The meta's `ordered_by` as column names: anything but a JSON list of strings claims no order. */
function orderedBy(text: unknown): string[] {
  if (typeof text !== 'string') return [];
  try {
    const v = JSON.parse(text);
    return Array.isArray(v) && v.every((c) => typeof c === 'string') ? v : [];
  } catch {
    return [];
  }
}

/** The FROM item of an attached serving copy's top rows (`TOP_TABLE`). */
export function servingTopRelation(alias: string): string {
  return `${sqlIdent(alias)}.${TOP_TABLE}`;
}

/** The FROM item reading an attached serving copy. */
export function servingRelation(alias: string): string {
  return `${sqlIdent(alias)}.${ROWS_TABLE}`;
}
