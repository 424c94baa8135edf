import type { StateDialect } from './state-dialect.ts';

/** Statements on the state store; `$n` placeholders on both engines. */
export interface StateTx {
  all(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  run(sql: string, params?: unknown[]): Promise<void>;
  /** The engine's few differing SQL fragments (api/core/state-dialect.ts). */
  readonly dialect: StateDialect;
}

export interface StateStore extends StateTx {
  /**
   * As `StateTx.all`; `background` queues the read behind every other statement waiting on the embedded store (a
   * lookup of a key never seen before: a flood of unknown keys then delays itself, not the tenants' debits and reads).
   * PostgreSQL has a pool, not one queue: the option changes nothing there.
   */
  all(sql: string, params?: unknown[], opts?: { background?: boolean }): Promise<Record<string, unknown>[]>;
  /**
   * Runs `fn` inside BEGIN/COMMIT (ROLLBACK on error). DuckDB: nothing else touches the store meanwhile (one queue).
   * PostgreSQL: READ COMMITTED on one pooled connection; what must be exclusive across processes takes row locks
   * (`dialect.forUpdate`, `dialect.skipLocked`) or is one conditional statement.
   */
  transaction<T>(fn: (tx: StateTx) => Promise<T>): Promise<T>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}
