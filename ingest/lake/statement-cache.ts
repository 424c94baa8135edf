import type { DuckDBConnection, DuckDBPreparedStatement } from '@duckdb/node-api';
import { LRUCache } from 'lru-cache';
import { bindTypes, queryRows, resultRows } from './duck.ts';

/**
 * Prepared statements of one connection, keyed by their SQL text: a page of the same shape (same filters, same
 * order, same limit) skips parsing, binding and planning; its values are still bound as parameters on every run,
 * never written into the text. A connection serves one caller at a time (the API's pool), so its cache needs no
 * locking. DuckDB re-binds a prepared statement whose views were replaced since it was prepared
 * (docs/read-path.md), so a statement survives a listing swap.
 */
export interface StatementCache {
  /** Runs `sql` with `params` bound, through the statement prepared for that text (prepared now if absent). */
  run(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  /** Statements held (at most the cache's size). */
  readonly size: number;
  /** Destroys every statement held (before the connection closes). */
  clear(): void;
}

export function createStatementCache(conn: DuckDBConnection, max: number, hooks: { onPrepare?: (sql: string) => void } = {}): StatementCache {
  // A size of 0 turns the cache off: every run prepares, binds and plans afresh (the bench's uncached path).
  if (max <= 0) {
    return { run: (sql, params = []) => queryRows(conn, sql, params), size: 0, clear() {} };
  }
  const held = new LRUCache<string, DuckDBPreparedStatement>({ max, dispose: (p) => p.destroySync() });
  return {
    async run(sql, params = []) {
      let p = held.get(sql);
      if (!p) {
        hooks.onPrepare?.(sql);
        p = await conn.prepare(sql);
        held.set(sql, p);
      }
      // Typed as the uncached path binds them (duck.ts `bindTypes`: an integer past 2^53 as DOUBLE, not a 500).
      if (params.length) p.bind(params as never, bindTypes(params) as never);
      return resultRows(await p.run());
    },
    get size() {
      return held.size;
    },
    clear: () => held.clear(),
  };
}
