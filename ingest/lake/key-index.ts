import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { derivedReads } from './derived-reads.ts';
import { queryRows, sqlIdent, sqlString } from './duck.ts';
import { fileFingerprint } from './summary.ts';
import type { KeyIndexSpec, TableSpec } from '../../schemas/table.ts';

/**
 * Per-partition key indexes (`TableSpec.keyIndexes`): beside a partition's `data.parquet`, a small Parquet file per
 * index (named so the listing, which takes `*.parquet`, never reads it as data) with one row per (key value, value of
 * the table's first sort column) on the same rows, their row count, and the fingerprint of the data file it was
 * computed from, sorted by key so a lookup reads one row group of it. The data file is sorted by that first column, so
 * its values as an `IN` filter let DuckDB skip every row group that cannot hold the key by statistics: an insider's
 * page (`?owner_cik=`) otherwise scans the owners column of every quarter it walks (docs/layouts.md). Renamed into
 * place by the same commit as its data file, after it; an index that does not describe the `data.parquet` there now
 * (a crash between the renames, a compaction) is not used, and the partition is read as if it had none.
 */
export const keyIndexFile = (key: string): string => `data.${key}.keys`;

/** Rows per row group of an index: a lookup decodes one (measured: 1.2 ms a file at 1,024–8,192 rows, so the default). */
const INDEX_ROW_GROUP = 8_192;

/**
 * The index of `spec` over its key, as SQL over `from` (rows of data files): key, locate (the first sort column's value
 * as text), rows; with `file`, per file too (`from` then reads with `filename = true`).
 */
function indexSelect(spec: TableSpec, { key, list }: KeyIndexSpec, from: string, file = false): string {
  const locate = sqlIdent(spec.sortBy[0]);
  const items = list ? `unnest(string_split(${sqlIdent(key)}, ','))` : `CAST(${sqlIdent(key)} AS VARCHAR)`;
  // NULL keys are left out: an equality filter never matches them.
  return (
    `SELECT ${file ? 'file, ' : ''}trim(k) AS key, CAST(${locate} AS VARCHAR) AS locate, count(*)::BIGINT AS rows ` +
    `FROM (SELECT ${file ? 'filename AS file, ' : ''}${items} AS k, ${locate} FROM ${from}) WHERE k IS NOT NULL AND trim(k) <> '' GROUP BY ALL`
  );
}

/** Writes the key index `index` of the (staged) data file `dataFile` to `indexFile`. */
export async function writeKeyIndex(conn: DuckDBConnection, spec: TableSpec, index: KeyIndexSpec, dataFile: string, indexFile: string): Promise<void> {
  const fp = await fileFingerprint(dataFile);
  const rows = indexSelect(spec, index, `read_parquet(${sqlString(dataFile)})`);
  // The keys' buckets as a list on every row (one value to the encodings): the reader takes them with the fingerprint
  // from the first row, where working them out from the keys costs 45–90 ms of CPU a 300,000-key index.
  const buckets = index.bucket
    ? `, (SELECT list(DISTINCT b ORDER BY b) FILTER (WHERE b IS NOT NULL) FROM (SELECT ${index.bucket.sql('key')} AS b FROM ix)) AS key_buckets`
    : '';
  await conn.run(
    `COPY (WITH ix AS MATERIALIZED (${rows}) SELECT *, ${sqlString(fp)} AS data_fingerprint${buckets} FROM ix ORDER BY key, locate) ` +
      `TO ${sqlString(indexFile)} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE ${INDEX_ROW_GROUP})`,
  );
}

/** Writes every key index of `spec` for the data file `dataFile` into folder `dir` (the test and bench lakes' layout). */
export async function writeKeyIndexes(conn: DuckDBConnection, spec: TableSpec, dataFile: string, dir: string): Promise<void> {
  for (const index of spec.keyIndexes ?? []) await writeKeyIndex(conn, spec, index, dataFile, keyIndexPath(dir, index));
}

/** A partition's current index file, and the buckets of its keys when the index declares a bucket (else null). */
export interface CurrentKeyIndex {
  path: string;
  buckets: ReadonlySet<string> | null;
}

/** Checks of a reader's key index files against their partitions' data. */
export interface KeyIndexCheck {
  /**
   * The index `index` in partition folder `dir` when it describes the data there now (`fp`: the partition's
   * `baseDataFingerprint`, its `data.parquet` whatever live append files sit beside it), else null.
   */
  current(dir: string, index: KeyIndexSpec, fp: string | null): Promise<CurrentKeyIndex | null>;
  /** Forgets the index files under folder `dir` other than `keep` (partitions gone from a listing). */
  forget(dir: string, keep: ReadonlySet<string>): void;
}

/** Where index `index` of partition folder `dir` is. */
export const keyIndexPath = (dir: string, index: KeyIndexSpec): string => join(dir, keyIndexFile(index.key));

/**
 * A `KeyIndexCheck` that reads an index's recorded fingerprint (and its keys' buckets) only when the index file or
 * the data file changed since it last looked (a stat otherwise): the reader checks every partition of a table on each
 * new listing, and the live lane lists the filing index and insider transactions again after every batch.
 */
export function keyIndexChecker(conn: DuckDBConnection): KeyIndexCheck {
  const reads = derivedReads<CurrentKeyIndex | null>();
  return {
    async current(dir, index, fp) {
      if (fp === null) return null;
      const path = keyIndexPath(dir, index);
      return reads.get(path, fp, async () => {
        const columns = index.bucket ? 'data_fingerprint, key_buckets' : 'data_fingerprint';
        const rows = await queryRows(conn, `SELECT ${columns} FROM read_parquet(${sqlString(path)}) LIMIT 1`).catch(() => []);
        // An empty index may be of an empty file: nothing to prove with it, read the partition.
        return rows.length && rows[0].data_fingerprint === fp
          ? { path, buckets: index.bucket ? new Set((rows[0].key_buckets as unknown[]).map(String)) : null }
          : null;
      });
    },
    forget: (dir, keep) => reads.forget(dir, keep),
  };
}

/**
 * SQL answering, for the `keys` keys bound to `$1` … `$keys`, the (file, locate, rows) rows of the index files
 * `indexes`, and of the live append files `appended` (computed from their rows: they are small, and no index describes
 * them).
 */
export function keyLookupSql(spec: TableSpec, index: KeyIndexSpec, indexes: readonly string[], appended: readonly string[], keys = 1): string {
  const list = (files: readonly string[]) => files.map(sqlString).join(', ');
  const matches = keys === 1 ? 'key = $1' : `key IN (${Array.from({ length: keys }, (_, i) => `$${i + 1}`).join(', ')})`;
  const ofAppended = indexSelect(spec, index, `read_parquet([${list(appended)}], union_by_name = true, filename = true)`, true);
  const selects = [
    ...(indexes.length ? [`SELECT filename AS file, locate, rows FROM read_parquet([${list(indexes)}], filename = true) WHERE ${matches}`] : []),
    ...(appended.length ? [`SELECT file, locate, rows FROM (${ofAppended}) WHERE ${matches}`] : []),
  ];
  return selects.join(' UNION ALL ');
}
