import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { queryRows, sqlIdent, sqlString } from './duck.ts';
import { partitionDir } from './layout.ts';
import type { TableSpec } from '../../schemas/table.ts';

const PARTITION_FILE = 'data.parquet';

export interface WrittenPartition {
  value: string;
  rows: number;
}

/** A partition file written under a temp name, waiting for the run's commit (ingest/lake/commit.ts) to rename it. */
export interface StagedPartition extends WrittenPartition {
  staged: string;
  target: string;
}

/**
 * Writes every partition present in `staging_<table>` as one file per partition under a temp name beside its
 * target `data.parquet` (same folder, so the commit's rename is atomic: a reader sees the old file or the new one,
 * never half of either). Nothing becomes visible here: the runner validates the staged partitions, then commits
 * all of a run's tables together. Re-running the same period replaces the partition (idempotent).
 * In `merge` mode the partition's existing rows whose primary key is not in the run are carried over first, read
 * from `pending` (a file this run staged for the same target in an earlier batch) or else from the lake.
 */
export async function writeStagedPartitions(
  conn: DuckDBConnection,
  lakeDir: string,
  spec: TableSpec,
  runId: string,
  pending: ReadonlyMap<string, string> = new Map(),
): Promise<StagedPartition[]> {
  const staging = sqlIdent(`staging_${spec.name}`);
  const part = sqlIdent(spec.partitionBy);
  const values = (await queryRows(conn, `SELECT DISTINCT CAST(${part} AS VARCHAR) AS v FROM ${staging} WHERE ${part} IS NOT NULL ORDER BY 1`)).map((r) =>
    String(r.v),
  );
  const written: StagedPartition[] = [];
  for (const value of values) {
    const dir = partitionDir(lakeDir, spec, value);
    const target = join(dir, PARTITION_FILE);
    const existing = pending.get(target) ?? (existsSync(target) ? target : null);
    if (spec.writeMode === 'merge' && existing) {
      const pk = spec.primaryKey.map(sqlIdent);
      const match = pk.map((c) => `s.${c} IS NOT DISTINCT FROM e.${c}`).join(' AND ');
      await conn.run(
        // The file holds no partition column (it is the folder name): add it back so a key may include it.
        `INSERT INTO ${staging} BY NAME SELECT e.* FROM (SELECT *, ${sqlString(value)} AS ${part} FROM ` +
          `read_parquet(${sqlString(existing)}, hive_partitioning = false)) e ` +
          `WHERE NOT EXISTS (SELECT 1 FROM ${staging} s WHERE CAST(s.${part} AS VARCHAR) = ${sqlString(value)} AND ${match})`,
      );
    }
    await mkdir(dir, { recursive: true });
    // The run id ends the name (ingest/lake/scratch.ts tells a dead run's leftovers by it); the prefix keeps two
    // batches of one run apart.
    const tmp = join(dir, `.${randomUUID().slice(0, 8)}-${PARTITION_FILE}.tmp-${runId}`);
    const order = spec.sortBy.map(sqlIdent).join(', ');
    try {
      await conn.run(
        `COPY (SELECT * EXCLUDE (${part}) FROM ${staging} WHERE CAST(${part} AS VARCHAR) = ${sqlString(value)}` +
          `${order ? ` ORDER BY ${order}` : ''}) TO ${sqlString(tmp)} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE ${spec.rowGroupSize ?? 122_880})`,
      );
      const [{ n }] = await queryRows(conn, `SELECT count(*)::BIGINT AS n FROM read_parquet(${sqlString(tmp)})`);
      written.push({ value, rows: Number(n), staged: tmp, target });
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }
  return written;
}

/**
 * Appends a new file to a partition (append-only tables such as events): never rewrites what is there.
 */
export async function appendPartitionFile(conn: DuckDBConnection, lakeDir: string, spec: TableSpec, value: string, selectSql: string): Promise<number> {
  const dir = partitionDir(lakeDir, spec, value);
  await mkdir(dir, { recursive: true });
  const name = `part-${Date.now()}-${randomUUID().slice(0, 8)}.parquet`;
  // A temp mark without a run: the cleaner removes it once older than the lock staleness (ingest/lake/scratch.ts).
  const tmp = join(dir, `.${name}.tmp-${randomUUID().slice(0, 8)}`);
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
