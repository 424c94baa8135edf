import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { openDuck, queryRows, sqlString } from './duck.ts';
import { viewSql } from './layout.ts';
import { ALL_TABLES } from '../../schemas/tables/index.ts';
import type { TableSpec } from '../../schemas/table.ts';

export interface LakeReader {
  instance: DuckDBInstance;
  tables: TableSpec[];
  /** Runs parameterized SQL over the views (one per table). */
  query(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  /** Re-creates views whose partition set changed since the last call (cheap: a few directory reads). */
  refresh(): Promise<void>;
  /** Partition values that hold files, as of the last refresh (unordered; decoded from the folder names). */
  partitions(table: string): string[];
  connect(): Promise<DuckDBConnection>;
  close(): void;
}

/**
 * A fingerprint of a table's partition folders (a view is rebuilt only when files appear or disappear), and the
 * partition values that hold at least one file, read in the same directory pass.
 */
function listing(lakeDir: string, table: string): { fingerprint: string; partitions: string[] } {
  const dir = join(lakeDir, table);
  if (!existsSync(dir)) return { fingerprint: '', partitions: [] };
  const files: string[] = [];
  const partitions: string[] = [];
  for (const p of readdirSync(dir)) {
    const eq = p.indexOf('=');
    if (eq < 0) continue;
    const inPart = readdirSync(join(dir, p)).filter((f) => f.endsWith('.parquet'));
    for (const f of inPart) files.push(`${p}/${f}`);
    if (inPart.length) partitions.push(decodeURIComponent(p.slice(eq + 1)));
  }
  return { fingerprint: files.sort().join('|'), partitions };
}

/** Whether every file of a table has the same columns (checked once per change of the file set). */
async function uniformSchema(lakeDir: string, table: string): Promise<boolean> {
  const { instance, conn } = await openDuck(':memory:', { threads: '1' });
  try {
    const rows = await queryRows(
      conn,
      `SELECT count(DISTINCT cols) AS n FROM (SELECT file_name, string_agg(name || ':' || coalesce(type, ''), ',' ORDER BY name) AS cols
         FROM parquet_schema(${sqlString(join(lakeDir, table, '*', '*.parquet'))}) GROUP BY file_name)`,
    );
    return Number(rows[0]?.n) === 1;
  } catch {
    return false;
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

/**
 * An in-memory DuckDB with one view per lake table. Used by the API, `npm run sql` and the diff stage; it only
 * reads Parquet, so any number of processes can hold one while an ingest writes.
 */
export async function openLakeReader(lakeDir: string, extraTables: TableSpec[] = []): Promise<LakeReader> {
  const tables = [...ALL_TABLES, ...extraTables];
  const { instance, conn } = await openDuck(':memory:', { threads: '2' });
  // Parquet footers cached across queries: the measured p50 drops by a third (docs/engine-notes.md §1).
  await conn.run('SET GLOBAL parquet_metadata_cache = true');
  // DuckDB's late materialization re-reads a sorted `SELECT * … LIMIT` page from a second scan that loses the
  // selective filter; on 2×5M-row holdings it costs a third of the page time (measured p50 30 → 20 ms).
  await conn.run('SET GLOBAL late_materialization_max_rows = 0');
  const prints = new Map<string, string>();
  const partitionValues = new Map<string, string[]>();
  let lastCheck = 0;

  async function refresh(force = false): Promise<void> {
    const now = Date.now();
    if (!force && now - lastCheck < 500) return;
    lastCheck = now;
    for (const t of tables) {
      const { fingerprint: fp, partitions } = listing(lakeDir, t.name);
      partitionValues.set(t.name, partitions);
      if (prints.get(t.name) === fp) continue;
      await conn.run(viewSql(lakeDir, t, fp !== '' && (await uniformSchema(lakeDir, t.name))));
      prints.set(t.name, fp);
    }
  }
  await refresh(true);

  return {
    instance,
    tables,
    async query(sql, params = []) {
      await refresh();
      return queryRows(conn, sql, params);
    },
    refresh: () => refresh(true),
    partitions: (table) => partitionValues.get(table) ?? [],
    connect: () => instance.connect(),
    close() {
      conn.closeSync();
      instance.closeSync();
    },
  };
}
