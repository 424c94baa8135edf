import { randomUUID } from 'node:crypto';
import { readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { sqlIdent, sqlString } from './duck.ts';
import { processAlive } from './process-alive.ts';
import { servingTopRelation } from './serving.ts';
import type { TableSpec } from '../../schemas/table.ts';

/**
 * The top index of a table with a key summary and serving copies: every served partition's `top` table (each key's
 * `TOP_ROWS` largest rows, ingest/lake/serving.ts) gathered into one native table sorted by the key, in a scratch
 * database of the reader's own. A page whose bounds keep every matching row of each candidate partition among its
 * key's top rows (`allInTop`) reads that one table instead of a union of the partitions' copies: the key is found once,
 * not once per quarter. `?cusip=&min_value=` over the eight copies of the 50M-line bench lake: 1.7–1.8 ms of CPU from
 * the index against 7.6–7.7 ms from the copies, in process (docs/read-path.md, "The top index").
 *
 * Built off the request path, one table at a time, whenever the copies a table is served from change; until then, and
 * for partitions whose copy is not the one the index was built from, `relation` answers null and pages read the copies.
 */
export interface TopIndex {
  /** Rebuilds the table's index over these copies (partition value → alias) when they differ from its last build. */
  update(spec: TableSpec, copies: ReadonlyMap<string, { alias: string; top: boolean }>): void;
  /**
   * A SELECT of the index's rows of `partitions` (values ours, from the listing; the copies' row columns), when the
   * index holds each of them from the copy `aliasOf` names now; else null.
   */
  relation(spec: TableSpec, partitions: readonly string[], aliasOf: (partition: string) => string | undefined): string | null;
  /** Resolves when every build queued so far has ended. */
  settled(): Promise<void>;
  /** Stops: a build in progress is interrupted; resolves when it has ended, the connection is closed and the file gone. */
  close(): Promise<void>;
}

/** Index of one table: the scratch table holding it and, per partition value, the alias of the copy it came from. */
interface Built {
  table: string;
  from: ReadonlyMap<string, string>;
}

const DB = 'top_index';
/** Scratch files are named `<PREFIX><pid>-<id>.duckdb` in the system's temp folder. */
const PREFIX = 'filings-top-';

/** Removes the scratch files of processes that died without closing their reader (as large as their index). */
function sweepDead(): void {
  for (const name of readdirSync(tmpdir())) {
    const pid = Number(name.startsWith(PREFIX) ? name.slice(PREFIX.length).split('-')[0] : Number.NaN);
    if (Number.isInteger(pid) && pid > 0 && !processAlive(pid)) rmSync(join(tmpdir(), name), { force: true });
  }
}

/**
 * Opens the index's connection and scratch database now, with the reader: a connection opened later could still be
 * opening when the reader closes its instance (the promise then never settles).
 */
export async function createTopIndex(instance: DuckDBInstance, onError: (err: Error) => void = () => {}): Promise<TopIndex> {
  sweepDead();
  const file = join(tmpdir(), `${PREFIX}${process.pid}-${randomUUID().slice(0, 8)}.duckdb`);
  const conn: DuckDBConnection = await instance.connect();
  await conn.run(`ATTACH ${sqlString(file)} AS ${DB}`);
  const built = new Map<string, Built>();
  // What each table's index is being built from: a build is queued once per change of its copies.
  const wanted = new Map<string, string>();
  // Tables replaced by a build, dropped at the build after next: a page may still run a query planned on one.
  let retiring: string[] = [];
  let retired: string[] = [];
  let running: Promise<unknown> | null = null;
  let queue: Promise<void> = Promise.resolve();
  let count = 0;
  let closed = false;

  /** Runs one statement unless the index is closed; `close` interrupts the one running. */
  async function exec(sql: string): Promise<boolean> {
    if (closed) return false;
    running = conn.run(sql);
    try {
      await running;
    } finally {
      running = null;
    }
    return true;
  }

  async function build(spec: TableSpec, copies: ReadonlyMap<string, string>, signature: string): Promise<void> {
    if (wanted.get(spec.name) !== signature) return;
    for (const t of retired) if (!(await exec(`DROP TABLE IF EXISTS ${DB}.${sqlIdent(t)}`))) return;
    retired = retiring;
    retiring = [];
    const table = `top_${++count}`;
    const selects = [...copies.values()].map((alias) => `SELECT * FROM ${servingTopRelation(alias)}`).join(' UNION ALL ');
    if (!(await exec(`CREATE TABLE ${DB}.${sqlIdent(table)} AS SELECT * FROM (${selects}) ORDER BY ${sqlIdent(spec.summary!.key)}`))) return;
    const prior = built.get(spec.name);
    if (prior) retiring.push(prior.table);
    built.set(spec.name, { table, from: copies });
  }

  return {
    update(spec, copies) {
      if (!spec.summary) return;
      const from = new Map([...copies].filter(([, c]) => c.top).map(([v, c]) => [v, c.alias]));
      const signature = JSON.stringify([...from].sort());
      if (wanted.get(spec.name) === signature) return;
      wanted.set(spec.name, signature);
      // Only partitions whose copy has a top table are indexed; a page over any other reads the copies.
      if (!from.size) {
        const prior = built.get(spec.name);
        if (prior) retiring.push(prior.table);
        built.delete(spec.name);
        return;
      }
      // A build that fails (a copy detached under it by a later refresh) leaves the last index, which `relation`
      // then refuses for the partitions whose copy changed; the next refresh (the timer's) asks again.
      queue = queue
        .then(() => build(spec, from, signature))
        .catch((err: Error) => {
          if (wanted.get(spec.name) === signature) wanted.delete(spec.name);
          // A build interrupted by close is no error.
          if (!closed) onError(err);
        });
    },
    relation(spec, partitions, aliasOf) {
      const b = built.get(spec.name);
      if (!b || !partitions.length || partitions.some((p) => b.from.get(p) === undefined || b.from.get(p) !== aliasOf(p))) return null;
      const part = sqlIdent(spec.partitionBy);
      return `SELECT * FROM ${DB}.${sqlIdent(b.table)} WHERE CAST(${part} AS VARCHAR) IN (${partitions.map(sqlString).join(', ')})`;
    },
    settled: () => queue,
    async close() {
      if (closed) return;
      closed = true;
      // As the preloader: the build in progress is interrupted and awaited before the connection closes, and the
      // reader closes its instance only after this resolves.
      if (running) conn.interrupt();
      await queue.catch(() => undefined);
      conn.closeSync();
      rmSync(file, { force: true });
      rmSync(`${file}.wal`, { force: true });
    },
  };
}
