import { realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { openDuck, queryRows, sqlIdent } from './duck.ts';
import { fileSignatures } from './file-signatures.ts';
import { isAppendFile, newestAppended, tableDir, viewSqlOver } from './layout.ts';
import { type AttachedCopy, createPreloader } from './preload.ts';
import { createTopIndex } from './top-index.ts';
import { createPartitionHeads, type HeadUpdate, headPartitions, type StoredHead } from './heads.ts';
import { baseDataFingerprint, readPartitionSummary, type PartitionSummary, SUMMARY_FILE } from './summary.ts';
import { derivedReads } from './derived-reads.ts';
import { keyIndexChecker, keyIndexPath } from './key-index.ts';
import type { FileKeyFilters } from './key-filter.ts';
import { createKeyFilterReads } from './key-filter-reads.ts';
import { catalogMtime, listTable, sameFiles, type TableListing } from './listing.ts';
import { createServedCopies, type ServedCopy, type Superseded } from './served-copies.ts';
import { completer, copyColumns, headSource, type LakeListing, type PartitionRelation, relationOver } from './partition-relation.ts';
import { ALL_TABLES } from '../../schemas/tables/index.ts';
import { allColumns, type TableSpec } from '../../schemas/table.ts';

/**
 * A partition as one of its key indexes describes it: the index (null: none, or stale), the buckets of its keys (null:
 * the index declares none), and the files it does not cover.
 */
export interface IndexedPartition {
  index: string | null;
  buckets: ReadonlySet<string> | null;
  appended: readonly string[];
}

export interface LakeReader {
  instance: DuckDBInstance;
  tables: TableSpec[];
  /** Runs parameterized SQL over the views (one per table), after a refresh when the last is over 500 ms old. */
  query(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  /**
   * Lists every table again and swaps the views whose files changed, in one transaction (a query on any
   * connection sees all old views or all new ones). With `changedOnly`, only tables whose `_catalog.json` mtime
   * moved since their listing are listed (a stat per table: the timer's check).
   */
  refresh(opts?: { changedOnly?: boolean }): Promise<void>;
  /** The listing the views were built from (the last refresh's). */
  listing(): LakeListing;
  /** Partition values that hold files, as of the last refresh (unordered; decoded from the folder names). */
  partitions(table: string): string[];
  /**
   * Per partition value, its key summary (null: none, or stale) as of the last refresh; undefined for a table that
   * declares no summary (ingest/lake/summary.ts).
   */
  summaries(table: string): ReadonlyMap<string, PartitionSummary | null> | undefined;
  /**
   * Per partition value, the key filters of each of its files (null: a file has none, so the partition may hold any
   * key), as of the last refresh; undefined for a table that declares no key filters (ingest/lake/key-filter.ts).
   */
  keyFilters(table: string): ReadonlyMap<string, readonly FileKeyFilters[] | null> | undefined;
  /**
   * Per partition value, its key index file when it describes the partition's `data.parquet` (else null) and its live
   * append files, as of the last refresh; undefined for a table that declares no key index (ingest/lake/key-index.ts).
   */
  keyIndexes(table: string, key: string): ReadonlyMap<string, IndexedPartition> | undefined;
  /**
   * The table's relation over the files of `partitions` only, as the last refresh listed them: SQL text naming our
   * own file paths (never user input), read like the table's view, and what completes its rows.
   */
  relation(table: string, partitions: readonly string[]): PartitionRelation;
  /**
   * The table's top index over `partitions` (ingest/lake/top-index.ts): each key's largest rows of each partition, in
   * one table sorted by the key, read like `relation`; null when the index does not hold every one of them as it is
   * served now. Only a page whose bounds keep every match among its key's top rows (`allInTop`) may read it.
   */
  topRelation(table: string, partitions: readonly string[]): PartitionRelation | null;
  /**
   * The head of one partition (ingest/lake/heads.ts): its first rows in the order `TableSpec.head` declares, read like
   * `relation`, and whether they are all of its rows; null when the reader keeps none for it as it is read now.
   */
  head(table: string, partition: string): PartitionHead | null;
  /** How many of a table's partitions are read from a serving copy (ingest/lake/serving.ts), as of the last refresh. */
  servedPartitions(table: string): number;
  /**
   * The columns the relation of this one partition returns its rows in ascending order of, read in storage order
   * (no ORDER BY): its serving copy's `ordered_by`. Empty when the partition is read from Parquet, whose scans give
   * no order to rely on.
   */
  storageOrder(table: string, partition: string): readonly string[];
  /**
   * Resolves when the serving copies attached so far have been preloaded, or skipped (ingest/lake/preload.ts), and
   * the top indexes over them built (ingest/lake/top-index.ts).
   */
  preloaded(): Promise<void>;
  /** Bumped by every refresh that changed a view or a catalog mtime (prepared-statement caches compare it). */
  generation(): number;
  connect(): Promise<DuckDBConnection>;
  /** Resolves when the background reads (preloads, top-index builds) have ended and the instance is closed. */
  close(): Promise<void>;
}

/** A partition's head as a page reads it: a relation, the order of its rows, and whether it is the whole partition. */
export type PartitionHead = PartitionRelation & Omit<StoredHead, 'sql'>;

export interface ReaderHooks {
  /** Called for every table listing taken (tests count them: no request may cause one). */
  onList?: (table: string) => void;
  /** Called with the files whose footers are read for their column signatures (ingest/lake/file-signatures.ts). */
  onFooters?: (table: string, files: readonly string[]) => void;
  /** Called for every serving copy read whole into DuckDB's buffer pool (ingest/lake/preload.ts). */
  onPreload?: (copy: AttachedCopy) => void;
  /** Called when a top index build fails (ingest/lake/top-index.ts): its pages read the copies meanwhile. */
  onTopIndexError?: (err: Error) => void;
  /** Called for every key summary read from its file (ingest/lake/summary.ts): a listing reads only those that changed. */
  onSummaryRead?: (table: string, partition: string) => void;
  /** Called when this reader builds a top index itself instead of attaching one another reader built (tests count). */
  onTopIndexBuild?: (id: string) => void;
  /** Called for every partition head made anew (ingest/lake/heads.ts): built from the partition, or grown. */
  onHead?: (table: string, partition: string, how: HeadUpdate) => void;
}

export interface ReaderOptions {
  /** Attach the serving copies of tables that declare them (LAKE_SERVING); off: every page reads Parquet. */
  serving?: boolean;
  /** Bytes of serving copies read whole once attached, newest partitions first (LAKE_SERVING_PRELOAD_MB); 0: none. */
  preloadBytes?: number;
  /** DuckDB threads (LAKE_THREADS); 2 when not given. */
  threads?: number;
  /**
   * Build the top indexes over the served copies (ingest/lake/top-index.ts): the API's reader. Off for the ingest's
   * readers (the diff stage, the events writer), which never read a page and would pay for the build.
   */
  topIndex?: boolean;
  /** The folder of the top indexes' files, shared by the host's readers (LAKE_TOP_INDEX_DIR); the system's temp folder. */
  topIndexDir?: string;
  /** Keep the heads of the newest partitions of tables that declare one (ingest/lake/heads.ts): the API's reader. */
  heads?: boolean;
  /**
   * DuckDB settings added when the instance opens: the diff stage bounds its reader's memory with the ingest's
   * (`memoryBounds`, ingest/lake/work-database.ts); the API's reader keeps DuckDB's defaults.
   */
  duckSettings?: Record<string, string>;
}

/**
 * The lake's folder as every process serving it names it: its real path, so processes given it through different
 * symlinks share its top indexes (ingest/lake/top-index.ts).
 */
function lakeIdentity(lakeDir: string): string {
  try {
    return realpathSync(lakeDir);
  } catch {
    return resolve(lakeDir);
  }
}

/**
 * An in-memory DuckDB with one view per lake table. Used by the API, the diff stage and the events writer; it
 * only reads Parquet, so any number of processes can hold one while an ingest writes.
 */
export async function openLakeReader(
  lakeDir: string,
  extraTables: TableSpec[] = [],
  hooks: ReaderHooks = {},
  options: ReaderOptions = {},
): Promise<LakeReader> {
  const tables = [...ALL_TABLES, ...extraTables];
  const { instance, conn } = await openDuck(':memory:', { ...options.duckSettings, threads: String(options.threads ?? 2) });
  // Parquet footers cached across queries: the measured p50 drops by a third (docs/engine-notes.md §1).
  await conn.run('SET GLOBAL parquet_metadata_cache = true');
  // DuckDB's late materialization re-reads a sorted `SELECT * … LIMIT` page from a second scan that loses the
  // selective filter; on 2×5M-row holdings it costs a third of the page time (measured p50 30 → 20 ms).
  await conn.run('SET GLOBAL late_materialization_max_rows = 0');
  let current: LakeListing = new Map();
  let gen = 0;
  let lastCheck = 0;
  // Swapped in with the listing: the summaries of the tables that declare one, per partition value (null: none or
  // stale), and the tables whose files all have the same columns (their views and relations skip union_by_name).
  let summaries = new Map<string, ReadonlyMap<string, PartitionSummary | null>>();
  const summaryReads = derivedReads<PartitionSummary | null>();
  let uniformTables = new Set<string>();
  // Per table, per indexed key, per partition value.
  let keyIndexes = new Map<string, ReadonlyMap<string, ReadonlyMap<string, IndexedPartition>>>();
  const keyIndexCheck = keyIndexChecker(conn);
  // Per table, per partition value, its files' key filters (each file's read once: key-filter-reads.ts).
  let keyFilters = new Map<string, ReadonlyMap<string, readonly FileKeyFilters[] | null>>();
  const filterReads = createKeyFilterReads(lakeDir);
  // Serving copies: per table, the copy of each served partition value (swapped in with the listing). What a refresh
  // supersedes (an attached alias, an append file's or a head's in-memory table) is detached or dropped one refresh
  // later: a page may hold a relation naming one between two queries (a running query keeps its file open).
  let served = new Map<string, ReadonlyMap<string, ServedCopy>>();
  const servedCopies = createServedCopies(conn, lakeDir);
  let retiring: string[] = [];
  let retiringTables: string[] = [];
  const preloader = createPreloader(instance, options.preloadBytes ?? 0, hooks.onPreload);
  const topIndex = options.topIndex
    ? await createTopIndex(instance, lakeIdentity(lakeDir), { dir: options.topIndexDir, onError: hooks.onTopIndexError, onBuild: hooks.onTopIndexBuild })
    : null;
  const heads = options.heads ? createPartitionHeads(conn, hooks.onHead) : null;

  /** Every file of the table has the same columns (signatures shared by the process's readers: file-signatures.ts). */
  async function uniform(table: string, files: string[]): Promise<boolean> {
    let signatures: Map<string, string>;
    try {
      signatures = await fileSignatures(files, hooks.onFooters && ((read) => hooks.onFooters!(table, read)));
    } catch {
      return false;
    }
    const distinct = new Set(signatures.values());
    return distinct.size === 1 && !distinct.has('');
  }

  /**
   * Per partition value of a listing, its data file's fingerprint: `base` when its other files are live append files
   * (what a serving copy may be built from, summary.ts `baseDataFingerprint`), `sole` when it has none (what a key
   * summary must be built from). One read a partition.
   */
  async function fingerprintsOf(l: TableListing): Promise<{ base: ReadonlyMap<string, string | null>; sole: ReadonlyMap<string, string | null> }> {
    const base = new Map<string, string | null>();
    const sole = new Map<string, string | null>();
    for (const [value, files] of l.byPartition) {
      const fp = await baseDataFingerprint(dirname(files[0]), files);
      base.set(value, fp);
      sole.set(value, files.length === 1 ? fp : null);
    }
    return { base, sole };
  }

  /** The key summary of each partition of a listing (a table that declares one). */
  async function summariesOf(table: string, l: TableListing, fps: ReadonlyMap<string, string | null>): Promise<ReadonlyMap<string, PartitionSummary | null>> {
    const out = new Map<string, PartitionSummary | null>();
    for (const [value, files] of l.byPartition) {
      out.set(value, await readPartitionSummary(conn, dirname(files[0]), fps.get(value) ?? null, summaryReads, () => hooks.onSummaryRead?.(table, value)));
    }
    // The summaries of partitions gone from the listing are forgotten.
    summaryReads.forget(`${tableDir(lakeDir, table)}/`, new Set([...l.byPartition.values()].map((files) => join(dirname(files[0]), SUMMARY_FILE))));
    return out;
  }

  /** Each key index of each partition of a listing (a table that declares some), checked against `fps` (base). */
  async function keyIndexesOf(
    spec: TableSpec,
    l: TableListing,
    fps: ReadonlyMap<string, string | null>,
  ): Promise<ReadonlyMap<string, ReadonlyMap<string, IndexedPartition>>> {
    const out = new Map<string, Map<string, IndexedPartition>>();
    const listed = new Set<string>();
    for (const index of spec.keyIndexes ?? []) {
      const of = new Map<string, IndexedPartition>();
      for (const [value, files] of l.byPartition) {
        listed.add(keyIndexPath(dirname(files[0]), index));
        const current = await keyIndexCheck.current(dirname(files[0]), index, fps.get(value) ?? null);
        of.set(value, { index: current?.path ?? null, buckets: current?.buckets ?? null, appended: files.filter(isAppendFile) });
      }
      out.set(index.key, of);
    }
    // The indexes of partitions gone from the listing are forgotten.
    keyIndexCheck.forget(`${tableDir(lakeDir, spec.name)}/`, listed);
    return out;
  }

  async function relist(changedOnly: boolean): Promise<void> {
    for (const alias of retiring) {
      await conn.run(`DETACH DATABASE IF EXISTS ${sqlIdent(alias)}`);
      preloader.retire(alias);
    }
    retiring = [];
    for (const t of retiringTables) await conn.run(`DROP TABLE IF EXISTS ${sqlIdent(t)}`);
    retiringTables = [];
    const superseded: Superseded = { aliases: [], tables: [] };
    const fresh: AttachedCopy[] = [];
    const nextServed = new Map(served);
    const next = new Map(current);
    const nextSummaries = new Map(summaries);
    const nextIndexes = new Map(keyIndexes);
    const nextFilters = new Map(keyFilters);
    const nextUniform = new Set(uniformTables);
    const views: string[] = [];
    let changed = false;
    for (const t of tables) {
      const prior = current.get(t.name);
      if (changedOnly && prior && (await catalogMtime(lakeDir, t.name)) === prior.catalogMtimeMs) continue;
      hooks.onList?.(t.name);
      const l = await listTable(lakeDir, t.name);
      next.set(t.name, l);
      if (prior?.catalogMtimeMs !== l.catalogMtimeMs) changed = true;
      // A commit may rewrite a partition's summary while its file names stay: summaries follow every new listing.
      const serve = t.serving === true && options.serving !== false;
      // Each partition's data file fingerprinted once, for its summary and its serving copy alike.
      const fps =
        t.summary || serve || t.keyIndexes ? await fingerprintsOf(l) : { base: new Map<string, string | null>(), sole: new Map<string, string | null>() };
      if (t.summary) nextSummaries.set(t.name, await summariesOf(t.name, l, fps.sole));
      if (t.keyIndexes) nextIndexes.set(t.name, await keyIndexesOf(t, l, fps.base));
      if (t.keyFilters) nextFilters.set(t.name, await filterReads.of(t.name, l));
      if (serve) {
        const before = nextServed.get(t.name);
        const now = await servedCopies.of(t, l, fps.base, superseded, fresh);
        nextServed.set(t.name, now);
        if (!before || before.size !== now.size || [...now].some(([v, c]) => before.get(v)?.alias !== c.alias || before.get(v)?.appended !== c.appended)) {
          changed = true;
        }
      }
      if (sameFiles(prior, l)) continue;
      const same = l.files.length > 0 && (await uniform(t.name, l.files));
      if (same) nextUniform.add(t.name);
      else nextUniform.delete(t.name);
      views.push(viewSqlOver(t, l.files, same));
    }
    if (views.length) {
      // One transaction: other connections see every table's new view at once, or none of them.
      await conn.run('BEGIN TRANSACTION');
      try {
        for (const v of views) await conn.run(v);
        await conn.run('COMMIT');
      } catch (err) {
        await conn.run('ROLLBACK').catch(() => undefined);
        throw err;
      }
      changed = true;
    }
    if (heads) {
      // The heads follow the listing being swapped in: a page finds one only once it reads the partition the same way.
      const state = { listing: next, served: nextServed, uniform: nextUniform };
      for (const t of tables) {
        if (!t.head) continue;
        const of = headPartitions(t, next.get(t.name)?.partitions ?? []);
        const reads = {
          source: (p: string) => headSource(state, t.name, p),
          relation: (p: string) => relationOver(t, [p], state).sql,
          appended: (files: readonly string[]) => newestAppended(t, files, state.uniform.has(t.name)),
        };
        await heads.update(t, of, reads, superseded.tables);
      }
    }
    current = next;
    served = nextServed;
    retiring = superseded.aliases;
    retiringTables = superseded.tables;
    summaries = nextSummaries;
    keyIndexes = nextIndexes;
    keyFilters = nextFilters;
    uniformTables = nextUniform;
    if (changed) gen++;
    preloader.add(fresh, (alias) => [...served.values()].some((m) => [...m.values()].some((c) => c.alias === alias)));
    if (topIndex) {
      for (const t of tables) {
        const copies = t.summary ? served.get(t.name) : undefined;
        if (!copies) continue;
        // One shape of rows in the index: every copy leaves out the same lookup columns, or no index.
        const shapes = new Set([...copies.values()].map((c) => JSON.stringify(c.lookup?.columns ?? [])));
        topIndex.update(t, shapes.size === 1 ? copies : new Map(), [...shapes][0] ?? '');
      }
    }
  }

  // Refreshes run one after another: two interleaved ones could swap an older listing in after a newer one.
  let chain: Promise<void> = Promise.resolve();
  function refresh(opts: { changedOnly?: boolean } = {}): Promise<void> {
    lastCheck = Date.now();
    const run = chain.then(() => relist(opts.changedOnly ?? false));
    chain = run.catch(() => undefined);
    return run;
  }
  await refresh();

  return {
    instance,
    tables,
    async query(sql, params = []) {
      if (Date.now() - lastCheck >= 500) await refresh();
      return queryRows(conn, sql, params);
    },
    refresh,
    listing: () => current,
    partitions: (table) => current.get(table)?.partitions ?? [],
    summaries(table) {
      if (!tables.find((t) => t.name === table)?.summary) return undefined;
      return summaries.get(table) ?? new Map();
    },
    keyFilters(table) {
      if (!tables.find((t) => t.name === table)?.keyFilters) return undefined;
      return keyFilters.get(table) ?? new Map();
    },
    keyIndexes(table, key) {
      if (!tables.find((t) => t.name === table)?.keyIndexes?.some((x) => x.key === key)) return undefined;
      return keyIndexes.get(table)?.get(key) ?? new Map();
    },
    relation(table, partitions) {
      const spec = tables.find((t) => t.name === table);
      if (!spec) throw new Error(`no table ${table}`);
      return relationOver(spec, partitions, { listing: current, served, uniform: uniformTables });
    },
    head(table, partition) {
      const spec = tables.find((t) => t.name === table);
      const state = { listing: current, served, uniform: uniformTables };
      const head = spec && heads?.get(table, partition, headSource(state, table, partition));
      return head ? { ...head, complete: completer(spec, served.get(table), [partition]) } : null;
    },
    topRelation(table, partitions) {
      const spec = tables.find((t) => t.name === table);
      const aliases = served.get(table);
      if (!spec || !aliases || !topIndex) return null;
      // A copy beside append files does not hold its partition's top rows as the partition reads them: until the fold
      // (whose new copy the index is rebuilt from), the index answers no page over that partition.
      if (partitions.some((p) => aliases.get(p)?.appended)) return null;
      const select = topIndex.relation(spec, partitions, (p) => aliases.get(p)?.alias);
      if (!select) return null;
      // Every copy in the index leaves out the same lookup columns (relist builds none otherwise).
      const sql = `(SELECT ${copyColumns(allColumns(spec), aliases.get(partitions[0])?.lookup ?? null)} FROM (${select}))`;
      return { sql, complete: completer(spec, aliases, partitions) };
    },
    servedPartitions: (table) => served.get(table)?.size ?? 0,
    storageOrder(table, partition) {
      const copy = served.get(table)?.get(partition);
      // Merged with append files, the partition's rows come from two reads: no stored order holds.
      return copy && !copy.appended ? copy.orderedBy : [];
    },
    generation: () => gen,
    connect: () => instance.connect(),
    preloaded: async () => {
      await preloader.settled();
      await topIndex?.settled();
    },
    async close() {
      // The background reads end first: the instance closed under a running query crashed the process (SIGSEGV in
      // about one run in ten of a test closing its app right after a 13F ingest, test/platform/lake-close.test.ts).
      await chain;
      await Promise.all([preloader.close(), topIndex?.close()]);
      conn.closeSync();
      instance.closeSync();
    },
  };
}
