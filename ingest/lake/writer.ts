import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { queryRows, sqlIdent, sqlString } from './duck.ts';
import { partitionDir } from './layout.ts';
import type { TableSpec } from '../../schemas/table.ts';

const PARTITION_FILE = 'data.parquet';
/** Small files the live lane appends to a partition between rewrites (docs/live-lane.md). */
const APPEND_PREFIX = 'part-live-';

/** The live lane's append files of a partition folder, oldest first (their names sort by time). */
export async function appendFiles(dir: string): Promise<string[]> {
  if (!existsSync(dir)) return [];
  return (await readdir(dir))
    .filter((f) => f.startsWith(APPEND_PREFIX) && f.endsWith('.parquet'))
    .sort()
    .map((f) => join(dir, f));
}

export interface WrittenPartition {
  value: string;
  rows: number;
}

/**
 * Writes every partition present in `staging_<table>` to the lake. Each partition is one file written under a
 * temp name then renamed over `data.parquet`: POSIX rename is atomic, so a reader sees the old file or the new
 * one, never half of either, and re-running the same period replaces it (idempotent).
 * In `merge` mode the partition's existing rows whose primary key is not in the run are carried over first.
 */
export async function writeStagedPartitions(conn: DuckDBConnection, lakeDir: string, spec: TableSpec, alsoRewrite: string[] = []): Promise<WrittenPartition[]> {
  const staging = sqlIdent(`staging_${spec.name}`);
  const part = sqlIdent(spec.partitionBy);
  const staged = (await queryRows(conn, `SELECT DISTINCT CAST(${part} AS VARCHAR) AS v FROM ${staging} WHERE ${part} IS NOT NULL ORDER BY 1`)).map((r) =>
    String(r.v),
  );
  // `alsoRewrite`: partitions rewritten from what they hold though nothing is staged for them (compaction).
  const values = [...new Set([...staged, ...alsoRewrite])].sort();
  const written: WrittenPartition[] = [];
  for (const value of values) {
    const dir = partitionDir(lakeDir, spec, value);
    const target = join(dir, PARTITION_FILE);
    const appended = await appendFiles(dir);
    const existing = [...(existsSync(target) ? [target] : []), ...appended];
    if (spec.writeMode === 'merge' && existing.length) {
      const pk = spec.primaryKey.map(sqlIdent);
      const match = pk.map((c) => `s.${c} IS NOT DISTINCT FROM e.${c}`).join(' AND ');
      // The live lane's append files are folded in here (compaction): for a key in several files the newest file
      // wins (`data.parquet` sorts before `part-live-<time>`), so a retried live batch never leaves two rows.
      const files = existing.map(sqlString).join(', ');
      await conn.run(
        // The file holds no partition column (it is the folder name): add it back so a key may include it.
        `INSERT INTO ${staging} BY NAME SELECT e.* EXCLUDE (filename) FROM (SELECT *, ${sqlString(value)} AS ${part} FROM ` +
          `read_parquet([${files}], hive_partitioning = false, filename = true, union_by_name = true) ` +
          `QUALIFY row_number() OVER (PARTITION BY ${pk.join(', ')} ORDER BY filename DESC) = 1) e ` +
          `WHERE NOT EXISTS (SELECT 1 FROM ${staging} s WHERE CAST(s.${part} AS VARCHAR) = ${sqlString(value)} AND ${match})`,
      );
    }
    await mkdir(dir, { recursive: true });
    const tmp = join(dir, `.${PARTITION_FILE}.tmp-${randomUUID()}`);
    const order = spec.sortBy.map(sqlIdent).join(', ');
    try {
      await conn.run(
        `COPY (SELECT * EXCLUDE (${part}) FROM ${staging} WHERE CAST(${part} AS VARCHAR) = ${sqlString(value)}` +
          `${order ? ` ORDER BY ${order}` : ''}) TO ${sqlString(tmp)} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE ${spec.rowGroupSize ?? 122_880})`,
      );
      const [{ n }] = await queryRows(conn, `SELECT count(*)::BIGINT AS n FROM read_parquet(${sqlString(tmp)})`);
      await rename(tmp, target);
      // Folded into (merge) or superseded by (replace) the new file. A crash before this leaves rows the next
      // rewrite folds again (newest wins), never a lost row.
      for (const f of appended) await rm(f, { force: true });
      written.push({ value, rows: Number(n) });
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }
  return written;
}

/**
 * The live lane's write: each staged partition's rows go to a new small file beside the partition's
 * `data.parquet` instead of rewriting it (a quarter of the filing index takes ~30 s to rewrite on 2 cores; see
 * docs/live-lane.md). Readers see every `*.parquet` of a partition; the next merge of the partition, or the
 * live lane's `compactAppends` (ingest/pipeline/live/compact.ts), folds these files back into `data.parquet`.
 */
export async function appendStagedPartitions(conn: DuckDBConnection, lakeDir: string, spec: TableSpec): Promise<WrittenPartition[]> {
  const staging = sqlIdent(`staging_${spec.name}`);
  const part = sqlIdent(spec.partitionBy);
  const values = (await queryRows(conn, `SELECT DISTINCT CAST(${part} AS VARCHAR) AS v FROM ${staging} WHERE ${part} IS NOT NULL ORDER BY 1`)).map((r) =>
    String(r.v),
  );
  const order = spec.sortBy.map(sqlIdent).join(', ');
  const written: WrittenPartition[] = [];
  for (const value of values) {
    // Zero-padded time first, so names sort oldest to newest (the merge's newest-wins rule reads the name).
    const name = `${APPEND_PREFIX}${String(Date.now()).padStart(15, '0')}-${randomUUID().slice(0, 8)}.parquet`;
    const select = `SELECT * EXCLUDE (${part}) FROM ${staging} WHERE CAST(${part} AS VARCHAR) = ${sqlString(value)}${order ? ` ORDER BY ${order}` : ''}`;
    const n = await appendPartitionFile(conn, lakeDir, spec, value, select, name);
    if (n) written.push({ value, rows: n });
  }
  return written;
}

/**
 * Appends a new file to a partition (append-only tables such as events): never rewrites what is there.
 */
export async function appendPartitionFile(
  conn: DuckDBConnection,
  lakeDir: string,
  spec: TableSpec,
  value: string,
  selectSql: string,
  name = `part-${Date.now()}-${randomUUID().slice(0, 8)}.parquet`,
): Promise<number> {
  const dir = partitionDir(lakeDir, spec, value);
  await mkdir(dir, { recursive: true });
  const tmp = join(dir, `.${name}.tmp`);
  try {
    await conn.run(`COPY (${selectSql}) TO ${sqlString(tmp)} (FORMAT parquet, COMPRESSION zstd)`);
    const [{ n }] = await queryRows(conn, `SELECT count(*)::BIGINT AS n FROM read_parquet(${sqlString(tmp)})`);
    if (Number(n) === 0) {
      await rm(tmp, { force: true });
      return 0;
    }
    await rename(tmp, join(dir, name));
    return Number(n);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}
