import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { sqlIdent, sqlString } from './duck.ts';
import { servingTopRelation } from './serving.ts';
import { openTopIndexFiles, SCOPE_LENGTH } from './top-index-files.ts';
import type { TableSpec } from '../../schemas/table.ts';

/**
 * The top index of a table with a key summary and serving copies: every served partition's `top` table (each key's
 * `TOP_ROWS` largest rows, ingest/lake/serving.ts) gathered into one native table sorted by the key, in a database
 * file shared by the host's readers of the lake (top-index-files.ts). A page whose bounds keep every matching row of
 * each candidate partition among its key's top rows (`allInTop`) reads that one table instead of a union of the
 * partitions' copies: the key is found once, not once per quarter. `?cusip=&min_value=` over the eight copies of the
 * 50M-line bench lake: 1.7–1.8 ms of CPU from the index against 7.6–7.7 ms from the copies, in process
 * (docs/read-path.md, "The top index").
 *
 * Built off the request path, one table at a time, whenever the copies a table is served from change; until then, and
 * for partitions whose copy is not the one the index was built from, `relation` answers null and pages read the copies.
 * The file is named by what it is built from (the partitions and their data files' fingerprints), so the API processes
 * serving one lake build it once: the first builds it, the others wait for it and attach it read-only. Building it is
 * writing ≈ 4M rows at 8 quarters of 20,000 CUSIPs (14.6 s of CPU on the 10M-line bench lake) after every 13F ingest:
 * once for the host instead of once a process, and not again when the last process restarts (its close keeps it).
 */
export interface TopIndex {
  /**
   * Rebuilds the table's index over these copies (per partition value) when they differ from its last build. `shape`:
   * what the copies' rows leave out (their lookup columns), the same for all.
   */
  update(spec: TableSpec, copies: ReadonlyMap<string, IndexedCopy>, shape: string): void;
  /**
   * A SELECT of the index's rows of `partitions` (values ours, from the listing; the copies' row columns), when the
   * index holds each of them from the copy `aliasOf` names now; else null.
   */
  relation(spec: TableSpec, partitions: readonly string[], aliasOf: (partition: string) => string | undefined): string | null;
  /** Resolves when every build queued so far has ended. */
  settled(): Promise<void>;
  /**
   * Stops: a build in progress is interrupted; resolves when it has ended, the files are detached (each removed when no
   * other reader uses it) and the connection is closed.
   */
  close(): Promise<void>;
}

/** Index of one table: the alias its file is attached as, its id, and per partition value the alias of its copy. */
interface Built {
  alias: string;
  id: string;
  from: ReadonlyMap<string, string>;
}

/** What a served copy gives the index: its alias here, whether it has a `top` table, and its data file's fingerprint. */
export interface IndexedCopy {
  alias: string;
  top: boolean;
  fingerprint: string;
}

/**
 * Bumped when what an index holds for the same copies changes: files of other versions are then not shared. 2: ids
 * begin with their scope (top-index-files.ts), so version 1's files, having no lake note, are swept as unused.
 */
const FORMAT = 2;
/** How long a reader waits before looking again for an index another process is building. */
const WAIT_MS = 200;

export interface TopIndexOptions {
  /** The folder of the indexes' files, shared by the host's readers (LAKE_TOP_INDEX_DIR); the system's temp folder. */
  dir?: string;
  onError?: (err: Error) => void;
  /** Called when this reader builds an index itself (tests count them), with its id. */
  onBuild?: (id: string) => void;
  /** Waits before looking again for an index another reader is building (tests pass their own). */
  wait?: () => Promise<void>;
}

class Closed extends Error {}

const hash = (value: unknown, length: number) => createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, length);

/**
 * Opens the index's connection now, with the reader: a connection opened later could still be opening when the reader
 * closes its instance (the promise then never settles). `scope` is the lake's folder, which the copies' partitions
 * belong to (its real path): an index is shared only within it, and kept past its last reader only while the folder
 * is there.
 */
export async function createTopIndex(instance: DuckDBInstance, scope: string, options: TopIndexOptions = {}): Promise<TopIndex> {
  const files = openTopIndexFiles(options.dir ?? tmpdir());
  const onError = options.onError ?? (() => {});
  const wait = options.wait ?? (() => new Promise<void>((resolve) => setTimeout(resolve, WAIT_MS).unref()));
  const conn: DuckDBConnection = await instance.connect();
  const built = new Map<string, Built>();
  // Every index file attached here, by id: a change of copies back to an earlier set takes its attached file again.
  const held = new Map<string, string>();
  // What each table's index is being built from: a build is queued once per change of its copies.
  const wanted = new Map<string, string>();
  // Indexes replaced by a build, detached at the build after next: a page may still run a query planned on one.
  let retiring: string[] = [];
  let retired: string[] = [];
  let running: Promise<unknown> | null = null;
  let queue: Promise<void> = Promise.resolve();
  let count = 0;
  let closed = false;

  /** Runs one statement unless the index is closed; `close` interrupts the one running. */
  async function exec(sql: string): Promise<void> {
    if (closed) throw new Closed('top index closed');
    running = conn.run(sql);
    try {
      await running;
    } finally {
      running = null;
    }
  }

  /** Detaches index `id` and lets go of its file, unless a table's index is it again. */
  async function drop(id: string): Promise<void> {
    const alias = held.get(id);
    if (!alias || [...built.values()].some((b) => b.id === id)) return;
    held.delete(id);
    await conn.run(`DETACH ${sqlIdent(alias)}`);
    // Replaced by a build over newer copies: nobody starting later wants it.
    files.release(id);
  }

  /** Writes index `id` from the copies into this reader's scratch file, then moves it into place. */
  async function write(id: string, spec: TableSpec, copies: ReadonlyMap<string, string>): Promise<void> {
    const scratch = `top_build_${++count}`;
    await exec(`ATTACH ${sqlString(files.scratch(id))} AS ${scratch}`);
    try {
      const selects = [...copies.values()].map((alias) => `SELECT * FROM ${servingTopRelation(alias)}`).join(' UNION ALL ');
      await exec(`CREATE TABLE ${scratch}.top AS SELECT * FROM (${selects}) ORDER BY ${sqlIdent(spec.summary!.key)}`);
      await exec(`CHECKPOINT ${scratch}`);
    } finally {
      await conn.run(`DETACH ${scratch}`);
    }
    files.publish(id);
    options.onBuild?.(id);
  }

  /** Attaches index `id`: the file when another reader has built it, else built here (or waited for). */
  async function attach(id: string, spec: TableSpec, copies: ReadonlyMap<string, string>): Promise<string> {
    const prior = held.get(id);
    if (prior) return prior;
    files.use(id, scope);
    try {
      for (;;) {
        if (existsSync(files.index(id))) {
          const alias = `top_${++count}`;
          try {
            await exec(`ATTACH ${sqlString(files.index(id))} AS ${alias} (READ_ONLY)`);
            held.set(id, alias);
            // An index of the same table kept from before the data changed (by a reader closed since) is old now.
            files.prune(id);
            return alias;
          } catch (err) {
            // Removed by its last other user between the look and the attach: built again below.
            if (err instanceof Closed || existsSync(files.index(id))) throw err;
            continue;
          }
        }
        if (files.lock(id) === 'taken') {
          try {
            await write(id, spec, copies);
          } finally {
            files.unlock(id);
          }
          continue;
        }
        await wait();
        if (closed) throw new Closed('top index closed');
      }
    } catch (err) {
      files.release(id);
      throw err;
    }
  }

  async function build(spec: TableSpec, copies: ReadonlyMap<string, string>, signature: string): Promise<void> {
    if (wanted.get(spec.name) !== signature) return;
    for (const id of retired) await drop(id);
    retired = retiring;
    retiring = [];
    // The scope (the lake's table) first, so that the files of one table's indexes share a prefix.
    const id = hash([FORMAT, scope, spec.name], SCOPE_LENGTH) + hash(signature, 32 - SCOPE_LENGTH);
    const alias = await attach(id, spec, copies);
    const prior = built.get(spec.name);
    built.set(spec.name, { alias, id, from: copies });
    if (prior && prior.id !== id) retiring.push(prior.id);
  }

  return {
    update(spec, copies, shape) {
      if (!spec.summary) return;
      const indexed = [...copies].filter(([, c]) => c.top);
      const from = new Map(indexed.map(([v, c]) => [v, c.alias]));
      // What the index is built from, the same in every reader of the lake: partitions and their data files' contents.
      const signature = JSON.stringify([shape, indexed.map(([v, c]) => [v, c.fingerprint]).sort()]);
      if (wanted.get(spec.name) === signature) return;
      wanted.set(spec.name, signature);
      // Only partitions whose copy has a top table are indexed; a page over any other reads the copies.
      if (!from.size) {
        const prior = built.get(spec.name);
        if (prior) retiring.push(prior.id);
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
      return `SELECT * FROM ${sqlIdent(b.alias)}.top WHERE CAST(${part} AS VARCHAR) IN (${partitions.map(sqlString).join(', ')})`;
    },
    settled: () => queue,
    async close() {
      if (closed) return;
      closed = true;
      // As the preloader: the build in progress is interrupted and awaited before the connection closes, and the
      // reader closes its instance only after this resolves.
      if (running) conn.interrupt();
      await queue.catch(() => undefined);
      for (const [id, alias] of held) {
        await conn.run(`DETACH ${sqlIdent(alias)}`).catch(() => undefined);
        // A table's current index is kept for the next start while its lake is there; a replaced one is not.
        files.release(
          id,
          [...built.values()].some((b) => b.id === id),
        );
      }
      held.clear();
      conn.closeSync();
    },
  };
}
