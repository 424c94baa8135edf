import { stat } from 'node:fs/promises';
import type { DuckDBConnection } from '@duckdb/node-api';
import { readCatalog, readCatalogEntry, type CatalogEntry } from '../../ingest/lake/index.ts';
import { createStatementCache, queryRows, streamRows, type StatementCache } from '../../ingest/lake/index.ts';
import { openLakeReader, type LakeReader, type ReaderHooks } from '../../ingest/lake/index.ts';
import type { TableSpec } from '../../schemas/table.ts';
import { MAX_PAGE_LIMIT } from './params.ts';

export interface TableInfo {
  /** Last refresh of the table (ISO timestamp), or null before any ingest. */
  refreshedAt: string | null;
  /** The newest partition value (snapshot date, quarter…), or null. */
  latestPartition: string | null;
  records: number;
}

export interface QueryOptions {
  /** false: no prepared statement (a statement whose text is unique each time). */
  cache?: boolean;
  /** Run with DuckDB's late materialization for pages up to the largest (`TableSpec.lateMaterialization`). */
  lateMaterialization?: boolean;
}

/** What pages read of the reader's state as of the last refresh, as the reader states it (ingest/lake/reader.ts). */
type ReaderState = 'summaries' | 'keyFilters' | 'keyIndexes' | 'relation' | 'topRelation' | 'head' | 'servedPartitions' | 'storageOrder' | 'preloaded';

export interface Lake extends Pick<LakeReader, ReaderState> {
  /**
   * Parameterized SQL over the lake views; user input only ever enters as `params`. Runs on the listing of the last
   * refresh (never lists folders itself), through the connection's prepared statement for this text unless
   * `cache: false` (a statement whose text is unique each time, such as an export's COPY to a fresh file).
   */
  query(sql: string, params?: unknown[], opts?: QueryOptions): Promise<Record<string, unknown>[]>;
  /**
   * The same, streamed chunk by chunk (2,048 rows) on one pooled connection held until the iteration ends: for
   * exports, whose results are never held whole.
   */
  stream(sql: string, params?: unknown[]): AsyncGenerator<Record<string, unknown>[]>;
  catalog(): Promise<CatalogEntry[]>;
  /** Partition values of a table that hold files (unordered), as of the last refresh. */
  partitions(table: string): Promise<string[]>;
  tableInfo(table: string): Promise<TableInfo>;
  /**
   * Lists the lake again now and swaps the views (resolves once they are swapped): what an in-process writer
   * (the live lane, a test's ingest) calls after its commit so the next request sees it. Others wait for the timer.
   */
  refresh(): Promise<void>;
  ping(): Promise<boolean>;
  /** Resolves when the timer's refresh in progress and the reader's background reads have ended, and all is closed. */
  close(): Promise<void>;
}

export interface LakeOptions {
  poolSize?: number;
  extraTables?: TableSpec[];
  /** How often the catalogs' mtimes are checked (LAKE_REFRESH_MS); 0: never, only `refresh()`. */
  refreshMs?: number;
  /** Prepared statements kept per pooled connection (LAKE_STATEMENT_CACHE); 0: none. */
  statementCache?: number;
  /** Read partitions from their serving copies when current (LAKE_SERVING, on by default); false: from Parquet only. */
  serving?: boolean;
  /** Keep the newest partitions' heads (LAKE_HEADS, on by default; ingest/lake/heads.ts); false: pages read the partitions. */
  heads?: boolean;
  /** Bytes of serving copies read whole into memory once attached, newest first (LAKE_SERVING_PRELOAD_MB); 0: none. */
  servingPreloadBytes?: number;
  /** DuckDB threads of the reader (LAKE_THREADS; 2 when not given). */
  threads?: number;
  /** The folder of the top indexes' files shared by the host's API processes (LAKE_TOP_INDEX_DIR); the temp folder. */
  topIndexDir?: string;
  /**
   * Runs `tick` every `ms` and returns its stop: setInterval by default; tests pass their own and tick by hand
   * (the tick resolves when its refresh is done).
   */
  every?: (ms: number, tick: () => Promise<void>) => () => void;
  /** Listing and preparing hooks (tests count them). */
  hooks?: ReaderHooks & { onPrepare?: (sql: string) => void };
  /** Where a failed timer refresh is reported (the next tick tries again). */
  onError?: (err: Error) => void;
}

interface Pooled {
  conn: DuckDBConnection;
  statements: StatementCache;
  /** The reader's generation the statements were prepared under. */
  generation: number;
  /** The connection's `late_materialization_max_rows` (the reader's default: 0, off). */
  lateRows: number;
}

/** A page's LIMIT: the largest page and the row that tells whether another follows. */
const LATE_ROWS = MAX_PAGE_LIMIT + 1;

function everyInterval(ms: number, tick: () => Promise<void>): () => void {
  const t = setInterval(() => void tick(), ms);
  t.unref();
  return () => clearInterval(t);
}

/**
 * A file the views list was removed (a compaction folded it, a re-run superseded it) since the last refresh, or a
 * serving copy a relation named was detached (superseded two refreshes ago), or a top index table dropped (replaced two
 * builds ago), before the query ran.
 */
export const MISSING_FILE = new RegExp(
  ['No files found that match', 'No such file or directory', 'Cannot open file', '(?:schema|Catalog) "(?:serving|top)_\\d+" does not exist'].join('|'),
  'i',
);

/**
 * The API's read side: one long-lived DuckDB instance with the lake views and a small pool of connections,
 * so concurrent requests run in parallel without reopening Parquet footers (the metadata cache is per instance).
 * The views follow the lake through refreshes off the request path (docs/read-path.md).
 */
export async function openLake(lakeDir: string, opts: LakeOptions = {}): Promise<Lake> {
  const poolSize = opts.poolSize ?? 4;
  const reader: LakeReader = await openLakeReader(lakeDir, opts.extraTables, opts.hooks, {
    serving: opts.serving,
    preloadBytes: opts.servingPreloadBytes,
    threads: opts.threads,
    topIndex: true,
    topIndexDir: opts.topIndexDir,
    heads: opts.heads ?? true,
  });
  const idle: Pooled[] = [];
  for (let i = 0; i < poolSize; i++) {
    const conn = await reader.connect();
    const statements = createStatementCache(conn, opts.statementCache ?? 256, { onPrepare: opts.hooks?.onPrepare });
    idle.push({ conn, statements, generation: reader.generation(), lateRows: 0 });
  }
  const waiters: ((c: Pooled) => void)[] = [];
  const infoCache = new Map<string, { mtime: number; info: TableInfo }>();

  async function acquire(): Promise<Pooled> {
    const c = idle.pop() ?? (await new Promise<Pooled>((resolve) => waiters.push(resolve)));
    // Statements prepared before a swap would be re-bound by DuckDB anyway; dropping them keeps nothing planned
    // against a listing (or a file rewritten in place) that is gone.
    if (c.generation !== reader.generation()) {
      c.statements.clear();
      c.generation = reader.generation();
    }
    return c;
  }
  function release(c: Pooled): void {
    const w = waiters.shift();
    if (w) w(c);
    else idle.push(c);
  }

  async function run(sql: string, params: unknown[], o: QueryOptions): Promise<Record<string, unknown>[]> {
    const c = await acquire();
    try {
      // A session setting, switched only when the connection last ran a page of the other kind (a statement is planned
      // at prepare, under the setting its table asks for: each SQL text belongs to one table).
      const lateRows = o.lateMaterialization ? LATE_ROWS : 0;
      if (c.lateRows !== lateRows) {
        await c.conn.run(`SET late_materialization_max_rows = ${lateRows}`);
        c.lateRows = lateRows;
      }
      return (o.cache ?? true) ? await c.statements.run(sql, params) : await queryRows(c.conn, sql, params);
    } finally {
      release(c);
    }
  }

  // A slow check (thousands of folders on a loaded disk) is never stacked under the next one.
  let ticking: Promise<void> | null = null;
  const tick = (): Promise<void> => {
    ticking ??= reader
      .refresh({ changedOnly: true })
      .catch((err: Error) => opts.onError?.(err))
      .finally(() => {
        ticking = null;
      });
    return ticking;
  };
  const refreshMs = opts.refreshMs ?? 2000;
  const stopTimer = refreshMs > 0 ? (opts.every ?? everyInterval)(refreshMs, tick) : () => {};

  return {
    async query(sql, params = [], o = {}) {
      try {
        return await run(sql, params, o);
      } catch (err) {
        if (!MISSING_FILE.test((err as Error).message)) throw err;
        // Files went away under the listing (no catalog change announces a compaction): list again, once.
        await reader.refresh();
        return run(sql, params, o);
      }
    },
    async *stream(sql, params = []) {
      const c = await acquire();
      try {
        yield* streamRows(c.conn, sql, params);
      } finally {
        release(c);
      }
    },
    catalog: () => readCatalog(lakeDir),
    partitions: async (table) => reader.partitions(table),
    summaries: (table) => reader.summaries(table),
    keyIndexes: (table, key) => reader.keyIndexes(table, key),
    keyFilters: (table) => reader.keyFilters(table),
    relation: (table, partitions) => reader.relation(table, partitions),
    topRelation: (table, partitions) => reader.topRelation(table, partitions),
    head: (table, partition) => reader.head(table, partition),
    servedPartitions: (table) => reader.servedPartitions(table),
    storageOrder: (table, partition) => reader.storageOrder(table, partition),
    preloaded: () => reader.preloaded(),
    async tableInfo(table) {
      // The catalog's mtime as of the last listing: no file is touched per request unless the catalog changed.
      const mtime = reader.listing().get(table)?.catalogMtimeMs ?? null;
      if (mtime === null) return { refreshedAt: null, latestPartition: null, records: 0 };
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
    refresh: () => reader.refresh(),
    async ping() {
      try {
        await run('SELECT 1 AS ok', [], { cache: false });
        await stat(lakeDir);
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      stopTimer();
      await ticking;
      for (const c of idle) {
        c.statements.clear();
        c.conn.closeSync();
      }
      await reader.close();
    },
  };
}
