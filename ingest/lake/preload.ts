import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { servingRelation } from './serving.ts';

/** A serving copy just attached: its alias, table, partition value and file size. */
export interface AttachedCopy {
  alias: string;
  table: string;
  partition: string;
  bytes: number;
}

/**
 * Reads serving copies whole once they are attached, so that a page's first read of a key finds the copy's blocks in
 * DuckDB's buffer pool. A page of a 6.25M-line quarter's copy costs 16.3 ms of CPU when its blocks are read for the
 * first time and 4.4 ms after (one thread, 100 CUSIPs each read once); reading the copy whole first costs 3.9 s of CPU
 * (2 s on 2 threads) and holds its 382 MB, the file's size, in memory (docs/read-path.md).
 *
 * Up to `budgetBytes` of copies are read, newest partitions first (pages read newest quarters first), one at a time on
 * a connection of their own: never on the request path, and a refresh never waits for them. A copy superseded before
 * its turn is skipped; one detached while it is read just fails its read. Its bytes count against the budget until it
 * is retired (detached).
 */
export interface Preloader {
  /** Queues the copies of one refresh. */
  add(copies: readonly AttachedCopy[], stillAttached: (alias: string) => boolean): void;
  /** A copy detached: its bytes leave the budget. */
  retire(alias: string): void;
  /** Resolves when every copy queued so far has been read or skipped. */
  settled(): Promise<void>;
  /** Stops: a read in progress is interrupted; resolves when it has ended and the connection is closed. */
  close(): Promise<void>;
}

export function createPreloader(instance: DuckDBInstance, budgetBytes: number, onPreload: (copy: AttachedCopy) => void = () => {}): Preloader {
  const counted = new Map<string, number>();
  let used = 0;
  let queue: Promise<void> = Promise.resolve();
  let conn: DuckDBConnection | null = null;
  let reading: Promise<unknown> | null = null;
  let closed = false;

  async function read(copy: AttachedCopy, stillAttached: (alias: string) => boolean): Promise<void> {
    if (closed || !stillAttached(copy.alias) || used + copy.bytes > budgetBytes) return;
    used += copy.bytes;
    counted.set(copy.alias, copy.bytes);
    conn ??= await instance.connect();
    if (closed) return;
    // hash() of every column: no column is pruned, so every block of the copy is read once.
    reading = conn.run(`SELECT sum(hash(COLUMNS(*))) FROM ${servingRelation(copy.alias)}`);
    try {
      await reading;
      onPreload(copy);
    } catch {
      // Detached meanwhile (superseded), or interrupted by close: nothing to keep.
    } finally {
      reading = null;
    }
  }

  return {
    add(copies, stillAttached) {
      if (budgetBytes <= 0 || !copies.length) return;
      const newestFirst = [...copies].sort((a, b) => (a.partition < b.partition ? 1 : a.partition > b.partition ? -1 : 0));
      for (const c of newestFirst) queue = queue.then(() => read(c, stillAttached));
    },
    retire(alias) {
      used -= counted.get(alias) ?? 0;
      counted.delete(alias);
    },
    settled: () => queue,
    async close() {
      closed = true;
      // The read in progress is interrupted and awaited: the reader closes the instance after this resolves, and an
      // instance closed under a running query crashed the process (SIGSEGV, test/platform/lake-close.test.ts).
      if (reading) conn?.interrupt();
      await queue.catch(() => undefined);
      conn?.closeSync();
      conn = null;
    },
  };
}
