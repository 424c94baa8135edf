import pg from 'pg';
import { postgresDialect } from './state-dialect.ts';
import { discoverMigrations, MIGRATIONS_TABLE } from './state-migrations.ts';
import type { StateStore, StateTx } from './state-types.ts';

const OID = { int8: 20, numeric: 1700, timestamp: 1114, timestamptz: 1184 } as const;

/** A timestamp in the form the DuckDB store returns (`queryRows`): ISO-8601 with a `T` and a `Z`. */
const isoTimestamp = (s: string) => `${s.replace(' ', 'T')}Z`;
const numberIfSafe = (s: string) => {
  const n = Number(s);
  return Number.isSafeInteger(n) || !Number.isInteger(n) ? n : s;
};

/**
 * Rows come back in the DuckDB store's shapes, so no caller knows which engine it talks to: 64-bit integers and
 * numerics as numbers (counts, credits), timestamps as ISO strings. Per pool, never pg's global parsers.
 */
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === OID.int8 || oid === OID.numeric) return numberIfSafe;
    if (oid === OID.timestamp) return isoTimestamp;
    if (oid === OID.timestamptz) return (s: string) => new Date(s).toISOString();
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

/** The URL without its password, for messages. */
function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'postgres://…';
  }
}

/** Any fixed 64-bit number: the advisory lock that makes concurrent starts apply each migration once. */
const MIGRATION_LOCK = 7_240_020;

/**
 * The state store on PostgreSQL (STATE_DATABASE_URL): the same tables and migrations as the DuckDB file, shared by
 * any number of API processes and delivery workers. A pool of connections; each transaction holds one connection
 * from BEGIN to COMMIT. Credits are debited under a row lock and deliveries claimed with FOR UPDATE SKIP LOCKED,
 * so processes never overdraw a key or send an attempt twice.
 */
export async function openPostgresStateStore(url: string, opts: { poolSize?: number } = {}): Promise<StateStore> {
  const pool = new pg.Pool({ connectionString: url, max: opts.poolSize ?? 10, types });
  // An idle connection the server closes (restart, failover) must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  const on = (client: pg.Pool | pg.PoolClient): StateTx => ({
    dialect: postgresDialect,
    all: async (sql, params = []) => (await client.query(sql, params)).rows,
    run: async (sql, params = []) => {
      await client.query(sql, params);
    },
  });
  try {
    await migrate(pool);
  } catch (err) {
    await pool.end().catch(() => undefined);
    throw new Error(`the state store ${redactUrl(url)} could not be opened: ${(err as Error).message}`);
  }
  const direct = on(pool);
  return {
    ...direct,
    async transaction<T>(fn: (t: StateTx) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        try {
          const out = await fn(on(client));
          await client.query('COMMIT');
          return out;
        } catch (err) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw err;
        }
      } finally {
        client.release();
      }
    },
    async ping() {
      try {
        await pool.query('SELECT 1');
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      await pool.end();
    },
  };
}

/**
 * Applies the migrations not yet recorded, all in one transaction under an advisory lock: processes starting
 * together wait for the first, then find everything applied. DDL is transactional here, so a failed step leaves
 * no half-made table.
 */
async function migrate(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    try {
      await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      await client.query(MIGRATIONS_TABLE);
      const applied = new Set((await client.query('SELECT id FROM schema_migrations')).rows.map((r) => String(r.id)));
      for (const m of await discoverMigrations()) {
        if (applied.has(m.id)) continue;
        try {
          // No parameters: the simple protocol, which runs a multi-statement script as is.
          await client.query(m.sql);
        } catch (err) {
          throw new Error(`state migration ${m.id} failed: ${(err as Error).message}`);
        }
        await client.query('INSERT INTO schema_migrations VALUES ($1, now())', [m.id]);
      }
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    }
  } finally {
    client.release();
  }
}
