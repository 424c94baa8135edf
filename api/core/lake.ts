import { statSync } from 'node:fs';
import type { DuckDBConnection } from '@duckdb/node-api';
import { catalogPath, readCatalog, readCatalogEntry, type CatalogEntry } from '../../ingest/lake/index.ts';
import { queryRows, streamRows } from '../../ingest/lake/index.ts';
import { openLakeReader, type LakeReader } from '../../ingest/lake/index.ts';
import type { TableSpec } from '../../schemas/table.ts';

export interface TableInfo {
  /** Last refresh of the table (ISO timestamp), or null before any ingest. */
  refreshedAt: string | null;
  /** The newest partition value (snapshot date, quarter…), or null. */
  latestPartition: string | null;
  records: number;
}

export interface Lake {
  /**
   * Parameterized SQL over the lake views; user input only ever enters as `params`. The views are brought up to
   * date first, unless `refreshed`: the caller already did so for this request (through `partitions`).
   */
  query(sql: string, params?: unknown[], opts?: { refreshed?: boolean }): Promise<Record<string, unknown>[]>;
  /**
   * The same, streamed chunk by chunk (2,048 rows) on one pooled connection held until the iteration ends: for
   * exports, whose results are never held whole.
   */
  stream(sql: string, params?: unknown[]): AsyncGenerator<Record<string, unknown>[]>;
  catalog(): Promise<CatalogEntry[]>;
  /** Partition values of a table that hold files (unordered), after bringing the views up to date. */
  partitions(table: string): Promise<string[]>;
  tableInfo(table: string): Promise<TableInfo>;
  ping(): Promise<boolean>;
  close(): void;
}

/**
 * The API's read side: one long-lived DuckDB instance with the lake views and a small pool of connections,
 * so concurrent requests run in parallel without reopening Parquet footers (the metadata cache is per instance).
 */
export async function openLake(lakeDir: string, opts: { poolSize?: number; extraTables?: TableSpec[] } = {}): Promise<Lake> {
  const poolSize = opts.poolSize ?? 4;
  const reader: LakeReader = await openLakeReader(lakeDir, opts.extraTables);
  const idle: DuckDBConnection[] = [];
  for (let i = 0; i < poolSize; i++) idle.push(await reader.connect());
  const waiters: ((c: DuckDBConnection) => void)[] = [];
  const infoCache = new Map<string, { mtime: number; info: TableInfo }>();

  async function acquire(): Promise<DuckDBConnection> {
    const c = idle.pop();
    if (c) return c;
    return new Promise((resolve) => waiters.push(resolve));
  }
  function release(c: DuckDBConnection): void {
    const w = waiters.shift();
    if (w) w(c);
    else idle.push(c);
  }

  return {
    async query(sql, params = [], opts = {}) {
      if (!opts.refreshed) await reader.refresh();
      const c = await acquire();
      try {
        return await queryRows(c, sql, params);
      } finally {
        release(c);
      }
    },
    async *stream(sql, params = []) {
      await reader.refresh();
      const c = await acquire();
      try {
        yield* streamRows(c, sql, params);
      } finally {
        release(c);
      }
    },
    catalog: () => readCatalog(lakeDir),
    async partitions(table) {
      await reader.refresh();
      return reader.partitions(table);
    },
    async tableInfo(table) {
      let mtime = 0;
      try {
        mtime = statSync(catalogPath(lakeDir, table)).mtimeMs;
      } catch {
        return { refreshedAt: null, latestPartition: null, records: 0 };
      }
      const hit = infoCache.get(table);
      if (hit && hit.mtime === mtime) return hit.info;
      const e = await readCatalogEntry(lakeDir, table);
      const info: TableInfo = {
        refreshedAt: e?.last_refresh ?? null,
        latestPartition: e?.partitions.length ? e.partitions[e.partitions.length - 1].value : null,
        records: e?.record_count ?? 0,
      };
      infoCache.set(table, { mtime, info });
      return info;
    },
    async ping() {
      try {
        const c = await acquire();
        try {
          await queryRows(c, 'SELECT 1 AS ok');
        } finally {
          release(c);
        }
        statSync(lakeDir);
        return true;
      } catch {
        return false;
      }
    },
    close() {
      for (const c of idle) c.closeSync();
      reader.close();
    },
  };
}
