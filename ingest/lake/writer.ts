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

/**
 * Writes every partition present in `staging_<table>` to the lake. Each partition is one file written under a
 * temp name then renamed over `data.parquet`: POSIX rename is atomic, so a reader sees the old file or the new
 * one, never half of either, and re-running the same period replaces it (idempotent).
 * In `merge` mode the partition's existing rows whose primary key is not in the run are carried over first.
 */
export async function writeStagedPartitions(conn: DuckDBConnection, lakeDir: string, spec: TableSpec): Promise<WrittenPartition[]> {
  const staging = sqlIdent(`staging_${spec.name}`);
  const part = sqlIdent(spec.partitionBy);
  const values = (await queryRows(conn, `SELECT DISTINCT CAST(${part} AS VARCHAR) AS v FROM ${staging} WHERE ${part} IS NOT NULL ORDER BY 1`)).map((r) =>
    String(r.v),
  );
  const written: WrittenPartition[] = [];
  for (const value of values) {
    const dir = partitionDir(lakeDir, spec, value);
    const target = join(dir, PARTITION_FILE);
    if (spec.writeMode === 'merge' && existsSync(target)) {
      const pk = spec.primaryKey.map(sqlIdent);
      const match = pk.map((c) => `s.${c} IS NOT DISTINCT FROM e.${c}`).join(' AND ');
      await conn.run(
        // The file holds no partition column (it is the folder name): add it back so a key may include it.
        `INSERT INTO ${staging} BY NAME SELECT e.* FROM (SELECT *, ${sqlString(value)} AS ${part} FROM ` +
          `read_parquet(${sqlString(target)}, hive_partitioning = false)) e ` +
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
      written.push({ value, rows: Number(n) });
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
