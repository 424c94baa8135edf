import { dirname } from 'node:path';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { openDuck, queryRows, sqlIdent } from './duck.ts';
import { fileSignatures } from './file-signatures.ts';
import { isAppendFile, newestAppended, selectOver, tableDir, viewSqlOver, withAppends } from './layout.ts';
import { type AttachedLookup, attachServing, servingIdentity, servingRelation } from './serving.ts';
import { type AttachedCopy, createPreloader } from './preload.ts';
import { createTopIndex } from './top-index.ts';
import { createPartitionHeads, type HeadSource, type HeadUpdate, headPartitions, type StoredHead } from './heads.ts';
import { baseDataFingerprint, readPartitionSummary, type PartitionSummary } from './summary.ts';
import { keyIndexChecker } from './key-index.ts';
import { type FileKeyFilters, keyFiltersStampMtime, readKeyFilters } from './key-filter.ts';
import { catalogMtime, listTable, sameFiles, type TableListing } from './listing.ts';
import { ALL_TABLES } from '../../schemas/tables/index.ts';
import { allColumns, type ColumnSpec, type TableSpec } from '../../schemas/table.ts';

/**
 * A partition as one of its key indexes describes it: the index (null: none, or stale), the buckets of its keys (null:
 * the index declares none), and the files it does not cover.
 */
export interface IndexedPartition {
  index: string | null;
  buckets: ReadonlySet<string> | null;
  appended: readonly string[];
}

/** Every table's listing as of one refresh: replaced whole, never edited, so a reader of it sees one moment. */
export type LakeListing = ReadonlyMap<string, TableListing>;

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

/**
 * A FROM item over some partitions of a table (`LakeReader.relation`). `complete` fills in, on rows it returned, the
 * columns a serving copy keeps in its lookup (TableSpec.servingLookup): the relation gives them as NULL, so a page
 * runs its top-N over the narrow rows and completes only the rows it keeps. Rows read from Parquet are left alone.
 */
export interface PartitionRelation {
  sql: string;
  complete(rows: Record<string, unknown>[]): Record<string, unknown>[];
}

/** A partition's head as a page reads it: a relation, the order of its rows, and whether it is the whole partition. */
export type PartitionHead = PartitionRelation & Omit<StoredHead, 'sql'>;

/**
 * A partition read from its serving copy: the alias it is attached under, the order its rows are stored in, and the
 * lookup its rows leave out (null: they hold every column).
 */
interface ServedCopy {
  alias: string;
  orderedBy: readonly string[];
  lookup: AttachedLookup | null;
  /** The copy holds its keys' top rows (a table with a key summary). */
  top: boolean;
  /**
   * Beside the copy's data file, live append files: the in-memory table holding each key's newest row of them (null:
   * none). The partition then reads the copy merged with it (ingest/lake/layout.ts `withAppends`), in no stored order
   * and outside the top index, until the fold.
   */
  appended: string | null;
}

export interface ReaderHooks {
  /** Called for every table listing taken (tests count them: no request may cause one). */
  onList?: (table: string) => void;
  /** Called with the files whose footers are read for their column signatures (ingest/lake/file-signatures.ts). */
  onFooters?: (table: string, files: readonly string[]) => void;
  /** Called for every serving copy read whole into DuckDB's buffer pool (ingest/lake/preload.ts). */
  onPreload?: (copy: AttachedCopy) => void;
  /** Called when a top index build fails (ingest/lake/top-index.ts): its pages read the copies meanwhile. */
  onTopIndexError?: (err: Error) => void;
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
  /** Keep the heads of the newest partitions of tables that declare one (ingest/lake/heads.ts): the API's reader. */
  heads?: boolean;
  /**
   * DuckDB settings added when the instance opens: the diff stage bounds its reader's memory with the ingest's
   * (`memoryBounds`, ingest/lake/work-database.ts); the API's reader keeps DuckDB's defaults.
   */
  duckSettings?: Record<string, string>;
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
  // Per table, per indexed key, per partition value.
  let keyIndexes = new Map<string, ReadonlyMap<string, ReadonlyMap<string, IndexedPartition>>>();
  const currentKeyIndex = keyIndexChecker(conn);
  // Per table, per partition value, its files' key filters; and every file's filters read so far (files never change
  // under their name), or null for a file seen without filters at two listings: one is renamed in just after its file,
  // so a first miss is looked for again, and a second means none is coming (an older file, a crash between the
  // renames), not looked for at every listing after (3,650 failed reads).
  let keyFilters = new Map<string, ReadonlyMap<string, readonly FileKeyFilters[] | null>>();
  const filtersRead = new Map<string, FileKeyFilters | null>();
  const missedOnce = new Set<string>();
  // Per table, the key filters' backfill stamp as last seen (`writeMissingKeyFilters`).
  const filtersStamp = new Map<string, number | null>();
  let uniformTables = new Set<string>();
  // Serving copies: per table, the alias of each served partition value (swapped in with the listing), and per
  // partition folder what is attached for it. An alias is a fresh name per attached file, never reused, so a query
  // planned over one always reads the file it was planned on. Superseded aliases are detached one refresh later: a
  // page may hold a relation naming one between two queries (a running query keeps its file open through DETACH).
  let served = new Map<string, ReadonlyMap<string, ServedCopy>>();
  const attached = new Map<string, Omit<ServedCopy, 'appended'> & { key: string }>();
  let retiring: string[] = [];
  let attachCount = 0;
  // Per partition folder with a served copy and live append files, the table of the appends' newest rows: built once
  // per set of append files (a few thousand rows a poll), read by every page of the partition; a superseded one is
  // dropped one refresh later, as a superseded alias is detached.
  const appendedTables = new Map<string, { key: string; table: string }>();
  let retiringTables: string[] = [];
  let appendedCount = 0;
  const preloader = createPreloader(instance, options.preloadBytes ?? 0, hooks.onPreload);
  const topIndex = options.topIndex ? await createTopIndex(instance, hooks.onTopIndexError) : null;
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
  async function summariesOf(l: TableListing, fps: ReadonlyMap<string, string | null>): Promise<ReadonlyMap<string, PartitionSummary | null>> {
    const out = new Map<string, PartitionSummary | null>();
    for (const [value, files] of l.byPartition) out.set(value, await readPartitionSummary(conn, dirname(files[0]), fps.get(value) ?? null));
    return out;
  }

  /** Each key index of each partition of a listing (a table that declares some), checked against `fps` (base). */
  async function keyIndexesOf(
    spec: TableSpec,
    l: TableListing,
    fps: ReadonlyMap<string, string | null>,
  ): Promise<ReadonlyMap<string, ReadonlyMap<string, IndexedPartition>>> {
    const out = new Map<string, Map<string, IndexedPartition>>();
    for (const index of spec.keyIndexes ?? []) {
      const of = new Map<string, IndexedPartition>();
      for (const [value, files] of l.byPartition) {
        const current = await currentKeyIndex(dirname(files[0]), index, fps.get(value) ?? null);
        of.set(value, { index: current?.path ?? null, buckets: current?.buckets ?? null, appended: files.filter(isAppendFile) });
      }
      out.set(index.key, of);
    }
    return out;
  }

  /** Each partition's files' key filters (a table that declares some); null for a partition with a file without. */
  async function keyFiltersOf(table: string, l: TableListing): Promise<ReadonlyMap<string, readonly FileKeyFilters[] | null>> {
    const out = new Map<string, readonly FileKeyFilters[] | null>();
    // The filters of this table's files that are gone (a test's rewrite, an operator's clean-up) are forgotten.
    const listed = new Set(l.files);
    const dir = `${tableDir(lakeDir, table)}/`;
    for (const f of filtersRead.keys()) if (f.startsWith(dir) && !listed.has(f)) filtersRead.delete(f);
    for (const f of missedOnce) if (f.startsWith(dir) && !listed.has(f)) missedOnce.delete(f);
    // A backfill wrote filters for files taken for filterless: those are read again, once.
    const stamp = await keyFiltersStampMtime(lakeDir, table);
    if (filtersStamp.has(table) && filtersStamp.get(table) !== stamp) {
      for (const [f, read] of filtersRead) if (read === null && f.startsWith(dir)) filtersRead.delete(f);
    }
    filtersStamp.set(table, stamp);
    for (const [value, files] of l.byPartition) {
      const filters: FileKeyFilters[] = [];
      for (const f of files) {
        const read = filtersRead.has(f) ? filtersRead.get(f)! : await readKeyFilters(f);
        if (read || missedOnce.has(f)) {
          filtersRead.set(f, read);
          missedOnce.delete(f);
        } else missedOnce.add(f);
        if (!read) break;
        filters.push(read);
      }
      out.set(value, filters.length === files.length ? filters : null);
    }
    return out;
  }

  /**
   * The serving aliases of a listing's partitions, attaching the copies not attached yet; `superseded` collects the
   * aliases of this table's folders that no longer hold the file attached.
   */
  async function servingOf(
    spec: TableSpec,
    l: TableListing,
    fps: ReadonlyMap<string, string | null>,
    superseded: { aliases: string[]; tables: string[] },
    fresh: AttachedCopy[],
  ): Promise<ReadonlyMap<string, ServedCopy>> {
    const out = new Map<string, ServedCopy>();
    const dirs = new Set<string>();
    const names = Object.keys(allColumns(spec));
    for (const [value, files] of l.byPartition) {
      const dir = dirname(files[0]);
      dirs.add(dir);
      const id = await servingIdentity(dir, fps.get(value) ?? null);
      const prior = attached.get(dir);
      if (prior && prior.key === id?.key) {
        const appended = await appendedOf(spec, dir, prior.alias, files, superseded.tables);
        if (appended !== undefined) out.set(value, { ...prior, appended });
        continue;
      }
      if (prior) {
        superseded.aliases.push(prior.alias);
        attached.delete(dir);
      }
      if (!id) {
        retireAppended(dir, superseded.tables);
        continue;
      }
      const alias = `serving_${++attachCount}`;
      const copy = await attachServing(conn, alias, id.path, id.fingerprint, names);
      if (!copy) {
        retireAppended(dir, superseded.tables);
        continue;
      }
      const entry = { key: id.key, alias, orderedBy: copy.orderedBy, lookup: copy.lookup, top: copy.top };
      attached.set(dir, entry);
      fresh.push({ alias, table: spec.name, partition: value, bytes: id.bytes });
      const appended = await appendedOf(spec, dir, alias, files, superseded.tables);
      if (appended !== undefined) out.set(value, { ...entry, appended });
    }
    for (const [dir, a] of attached) {
      if (dir.startsWith(`${tableDir(lakeDir, spec.name)}/`) && !dirs.has(dir)) {
        superseded.aliases.push(a.alias);
        attached.delete(dir);
      }
    }
    for (const dir of [...appendedTables.keys()]) {
      if (dir.startsWith(`${tableDir(lakeDir, spec.name)}/`) && !dirs.has(dir)) retireAppended(dir, superseded.tables);
    }
    return out;
  }

  /** Sends the appended-rows table of a partition folder (if any) to be dropped one refresh later. */
  function retireAppended(dir: string, superseded: string[]): void {
    const prior = appendedTables.get(dir);
    if (!prior) return;
    superseded.push(prior.table);
    appendedTables.delete(dir);
  }

  /**
   * The table of the newest rows of a served partition's live append files (null: it has none), built when its
   * append files changed; undefined when it cannot be built (an append file folded away meanwhile): the partition
   * is then read from Parquet until the next refresh.
   */
  async function appendedOf(spec: TableSpec, dir: string, alias: string, files: readonly string[], superseded: string[]): Promise<string | null | undefined> {
    const appended = files.filter(isAppendFile);
    const key = JSON.stringify([alias, appended]);
    const prior = appendedTables.get(dir);
    if (prior?.key === key) return prior.table;
    retireAppended(dir, superseded);
    if (!appended.length) return null;
    const table = `appended_${++appendedCount}`;
    try {
      await conn.run(`CREATE TABLE ${sqlIdent(table)} AS ${newestAppended(spec, appended, false)}`);
    } catch {
      return undefined;
    }
    appendedTables.set(dir, { key, table });
    return table;
  }

  async function relist(changedOnly: boolean): Promise<void> {
    for (const alias of retiring) {
      await conn.run(`DETACH DATABASE IF EXISTS ${sqlIdent(alias)}`);
      preloader.retire(alias);
    }
    retiring = [];
    for (const t of retiringTables) await conn.run(`DROP TABLE IF EXISTS ${sqlIdent(t)}`);
    retiringTables = [];
    const superseded = { aliases: [] as string[], tables: [] as string[] };
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
      if (t.summary) nextSummaries.set(t.name, await summariesOf(l, fps.sole));
      if (t.keyIndexes) nextIndexes.set(t.name, await keyIndexesOf(t, l, fps.base));
      if (t.keyFilters) nextFilters.set(t.name, await keyFiltersOf(t.name, l));
      if (serve) {
        const before = nextServed.get(t.name);
        const now = await servingOf(t, l, fps.base, superseded, fresh);
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
        topIndex.update(t, shapes.size === 1 ? copies : new Map());
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

/** What a partition read is over: a listing, the serving copies of its tables and the tables whose files share columns. */
interface ReadState {
  listing: LakeListing;
  served: ReadonlyMap<string, ReadonlyMap<string, ServedCopy>>;
  uniform: ReadonlySet<string>;
}

/** The table's relation over the files of `partitions` only, as `state` reads them (`LakeReader.relation`). */
function relationOver(spec: TableSpec, partitions: readonly string[], state: ReadState): PartitionRelation {
  const parts = state.listing.get(spec.name)?.byPartition;
  const aliases = state.served.get(spec.name);
  const uniform = state.uniform.has(spec.name);
  const files = partitions.filter((v) => !aliases?.has(v)).flatMap((v) => parts?.get(v) ?? []);
  const copies = partitions.flatMap((v) => aliases?.get(v) ?? []);
  if (!copies.length) return { sql: `(${selectOver(spec, files, uniform)})`, complete: (rows) => rows };
  // The same column list in the same order on both kinds of read: UNION ALL matches columns by position.
  const columns = allColumns(spec);
  const cols = Object.keys(columns).map(sqlIdent).join(', ');
  const selects = copies.flatMap((c) => {
    const base = { from: servingRelation(c.alias), columns: copyColumns(columns, c.lookup) };
    return c.appended ? withAppends(spec, base, sqlIdent(c.appended)) : [`SELECT ${base.columns} FROM ${base.from}`];
  });
  if (files.length) selects.push(`SELECT ${cols} FROM (${selectOver(spec, files, uniform)})`);
  return { sql: `(${selects.join(' UNION ALL ')})`, complete: completer(spec, aliases, partitions) };
}

/**
 * How `state` reads one partition (heads.ts): its files, its serving copy when it has one, and its live append files
 * apart (a copy's table of their newest rows is made from them alone).
 */
function headSource(state: ReadState, table: string, partition: string): HeadSource {
  const files = state.listing.get(table)?.byPartition.get(partition) ?? [];
  const alias = state.served.get(table)?.get(partition)?.alias ?? null;
  return { base: JSON.stringify([files.filter((f) => !isAppendFile(f)), alias]), appends: files.filter(isAppendFile).sort() };
}

/** A copy's select list: every column of the table in order, those its lookup holds as typed NULLs. */
function copyColumns(columns: Record<string, ColumnSpec>, lookup: AttachedLookup | null): string {
  const lifted = new Set(lookup?.columns ?? []);
  return Object.entries(columns)
    .map(([c, s]) => (lifted.has(c) ? `NULL::${s.type} AS ${sqlIdent(c)}` : sqlIdent(c)))
    .join(', ');
}

/**
 * What fills in the lookup columns of rows read from these partitions' copies (by the row's partition value). The
 * lookups are taken now: a refresh between the query and its completion swaps `served`, not these.
 */
function completer(spec: TableSpec, aliases: ReadonlyMap<string, ServedCopy> | undefined, partitions: readonly string[]): PartitionRelation['complete'] {
  const lookups = new Map<string, AttachedLookup>();
  for (const v of partitions) {
    const lookup = aliases?.get(v)?.lookup;
    if (lookup) lookups.set(v, lookup);
  }
  return (rows) => {
    if (!lookups.size) return rows;
    for (const row of rows) {
      const lookup = lookups.get(String(row[spec.partitionBy]));
      // A row of the copy holds every lookup column as NULL; a row of an append file beside it holds its own values.
      if (!lookup || lookup.columns.some((c) => row[c] != null)) continue;
      const values = lookup.values.get(String(row[lookup.key]));
      if (values) Object.assign(row, values);
    }
    return rows;
  };
}
