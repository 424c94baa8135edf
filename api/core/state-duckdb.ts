import PQueue from 'p-queue';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { createStatementCache, openDuck } from '../../ingest/lake/index.ts';
import { duckDialect } from './state-dialect.ts';
import { discoverMigrations, MIGRATIONS_TABLE } from './state-migrations.ts';
import { prepareStateDir, restrictStateFiles, withPrivateUmask } from './state-files.ts';
import type { StateStore, StateTx } from './state-types.ts';

/**
 * Runs every statement of a multi-statement script in order. DuckDB's own parser finds the statement
 * boundaries, so a `;` inside a string literal or comment never splits a statement.
 */
async function runScript(conn: DuckDBConnection, sql: string): Promise<void> {
  const statements = await conn.extractStatements(sql);
  for (let i = 0; i < statements.count; i++) {
    const prepared = await statements.prepare(i);
    try {
      await prepared.run();
    } finally {
      prepared.destroySync();
    }
  }
}

/**
 * The embedded store's engine settings. One thread: its statements are small and serialized by one queue.
 * No statistics propagation: DuckDB 1.5 (up to 1.5.6, the latest release) plans a prepared statement with the
 * table's statistics as they are when it is prepared and reuses that plan after the table changes, so a cached
 * `SELECT … WHERE outcome = 'sending'` prepared on an empty table returned no rows forever (duckdb/duckdb#23704; a
 * join's build-side range goes stale the same way, #24182). DuckDB's own fix (#24696) skips statistics propagation
 * for prepared plans; this does the same for the whole store, whose tables are small enough not to need it.
 */
const STATE_DUCK_OPTIONS = { threads: '1', disabled_optimizers: 'statistics_propagation' };

/**
 * Statements kept prepared: the store's texts are a fixed set written in our code (a few dozen). A point read costs
 * 0.56 ms prepared against 1.43 ms parsed and planned each time (docs/read-path.md, "Per-request overhead").
 */
const STATE_STATEMENTS = 256;

/**
 * Keys, usage, monitors, webhooks, alerts and deliveries in one embedded DuckDB file, owned by the server
 * process alone (DuckDB allows one read-write process per file; ingests never open it). Every statement goes
 * through one queue on one connection: each debit or state change is atomic with respect to the others,
 * which is what "concurrent requests can never overdraw" needs.
 */
export async function openDuckStateStore(path: string): Promise<StateStore> {
  const onDisk = path !== ':memory:';
  if (onDisk) await prepareStateDir(path);
  // Every call that may create a state file (open, any statement: the WAL) runs under an owner-only umask.
  const privately = <T>(fn: () => Promise<T>): Promise<T> => (onDisk ? withPrivateUmask(path, fn) : fn());
  let instance: DuckDBInstance;
  let conn: DuckDBConnection;
  try {
    ({ instance, conn } = await privately(() => openDuck(path, STATE_DUCK_OPTIONS)));
    if (onDisk) await restrictStateFiles(path);
  } catch (err) {
    const msg = (err as Error).message;
    if (/lock/i.test(msg)) {
      throw new Error(`the state store ${path} is in use by another process (is the server running?): ${msg}`);
    }
    throw err;
  }
  const queue = new PQueue({ concurrency: 1 });
  const queued = <T>(fn: () => Promise<T>, priority = 0) => queue.add(() => privately(fn), { priority }) as Promise<T>;
  // Every statement runs prepared, once per text (STATE_DUCK_OPTIONS says why that is safe here).
  const statements = createStatementCache(conn, STATE_STATEMENTS);
  const tx: StateTx = {
    dialect: duckDialect,
    all: (sql, params = []) => statements.run(sql, params),
    run: async (sql, params = []) => {
      await statements.run(sql, params);
    },
  };

  await privately(() => migrate(conn, tx));

  return {
    dialect: duckDialect,
    all: (sql, params, opts) => queued(() => tx.all(sql, params), opts?.background ? -1 : 0),
    run: (sql, params) => queued(() => tx.run(sql, params)),
    transaction<T>(fn: (t: StateTx) => Promise<T>): Promise<T> {
      return queued(async () => {
        await conn.run('BEGIN TRANSACTION');
        try {
          const out = await fn(tx);
          await conn.run('COMMIT');
          return out;
        } catch (err) {
          await conn.run('ROLLBACK');
          throw err;
        }
      });
    },
    async ping() {
      try {
        await queue.add(() => tx.all('SELECT 1'));
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      await queue.onIdle();
      // Closing checkpoints, which may write the files: under the same owner-only mask.
      await privately(async () => {
        // The prepared statements go before their connection (as the lake's pool does).
        statements.clear();
        conn.closeSync();
        instance.closeSync();
      });
    },
  };
}

/** Applies the migrations not yet recorded, each in its own transaction. */
async function migrate(conn: DuckDBConnection, tx: StateTx): Promise<void> {
  await conn.run(MIGRATIONS_TABLE);
  const applied = new Set((await tx.all('SELECT id FROM schema_migrations')).map((r) => String(r.id)));
  for (const m of await discoverMigrations()) {
    if (applied.has(m.id)) continue;
    await conn.run('BEGIN TRANSACTION');
    try {
      await runScript(conn, m.sql);
      await tx.run('INSERT INTO schema_migrations VALUES ($1, now())', [m.id]);
      await conn.run('COMMIT');
    } catch (err) {
      await conn.run('ROLLBACK');
      throw new Error(`state migration ${m.id} failed: ${(err as Error).message}`);
    }
  }
}
