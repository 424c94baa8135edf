import { join } from 'node:path';
import { mkdir, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { readCatalogEntry, stageCatalogEntry, type CatalogEntry, type PartitionEntry } from '../lake/catalog.ts';
import type { BadRow } from '../lake/staging.ts';
import type { DatasetIngester } from './contract.ts';
import type { IngestArgs, IngestContext, LoadContext, RawInput } from '../sources/common/context.ts';
import { queryRows, sqlIdent } from '../lake/duck.ts';
import { createHttpClient, type HttpClient } from '../sources/common/http.ts';
import { partitionRenames, stageAppendPartitions, stagedFiles, writeStagedPartitions, type StagedPartition, type WrittenPartition } from '../lake/writer.ts';
import { withLock } from '../lake/lock.ts';
import { createSortCodes } from '../lake/sort-codes.ts';
import { commitRun, type Rename, type RunManifest } from '../lake/commit.ts';
import { startRun } from '../lake/scratch.ts';
import { createProgress, type StepTime } from './progress.ts';
import { explainMemoryError, openWorkDatabase, workMemoryLimit } from '../lake/work-database.ts';
import { findIngester } from './registry.ts';
import type { Settings } from '../../schemas/settings.ts';
import type { TableSpec } from '../../schemas/table.ts';
import { assertStagedKeys, createStagingTable, StagingTable } from '../lake/staging.ts';
import { runDiffStage, type DiffSummary } from '../events/diff-stage.ts';
import { checkComplete } from '../sources/common/complete.ts';
import { checkRejections, checkReplacement, IngestRefused, inputOfRow, type PlannedPartition } from './validate.ts';
import { explainLoadError } from './load-errors.ts';
import { recoverInterruptedRuns } from './recover.ts';

export interface IngestSummary {
  dataset: string;
  tables: { table: string; partitions: WrittenPartition[] }[];
  rowsWritten: number;
  /** What the progress lines counted: rows appended and accepted, plus rows a loader reported staging with SQL. */
  rowsCounted: number;
  badRows: number;
  badRowSamples: BadRow[];
  rederived: string[];
  elapsedMs: number;
  rowsPerSecond: number;
  events: DiffSummary;
  /** Checks that would have refused the run, overridden by `force` (empty otherwise). */
  forced: string[];
  /** Wall and CPU time of each step, the commit and its events included (the CLI prints them). */
  steps: StepTime[];
}

export interface RunOptions {
  http?: HttpClient;
  quiet?: boolean;
  /** Skip the events diff stage (benches measuring the ingest alone). */
  skipDiff?: boolean;
  /**
   * Write each partition's rows as a new small file beside it instead of rewriting it (the live lane's batches;
   * folded back by the partition's next merge). Only for merge-mode tables.
   */
  appendOnly?: boolean;
  /** Replace the lake even when a validation check refuses the run (`--force`). */
  force?: boolean;
  /** Test hook: throw after staging, before any partition is renamed into place (crash simulation). */
  failBeforeCommit?: boolean;
  /** Test hook: called after each rename of the commit (crash simulation between tables). */
  afterRename?: (done: number, r: Rename) => void | Promise<void>;
  /** Heartbeat age after which a lock is stale (tests inject; default ingest/lake/lock.ts). */
  lockStaleMs?: number;
  /** Test hook: called with each statement a dataset's loader runs on the work database (`LoadContext.sql`). */
  onLoadSql?: (sql: string) => void;
}

const BAD_ROW_SAMPLES = 50;

/** Partition values of a table's appended rows, with the raw inputs they came from (for the catalog and the partial-set check). */
class PartitionSources {
  private byTable = new Map<string, Map<string, Set<string>>>();
  private untracked = new Set<string>();

  note(table: string, value: unknown, input: string | null): void {
    if (input == null || value == null) {
      this.untracked.add(table);
      return;
    }
    const key = value instanceof Date ? value.toISOString().slice(0, 10) : String(value);
    let m = this.byTable.get(table);
    if (!m) this.byTable.set(table, (m = new Map()));
    let set = m.get(key);
    if (!set) m.set(key, (set = new Set()));
    set.add(input);
  }

  /** The inputs behind one partition; all of the batch's when rows came through SQL or named no input. */
  of(table: string, value: string, all: string[]): string[] {
    const set = this.byTable.get(table)?.get(value);
    return this.untracked.has(table) || !set ? all : all.filter((p) => set.has(p));
  }
}

/**
 * The one ingest pipeline: inputs (checked whole) → load (parse, validate) → staging → partitions staged under temp
 * names → validation against what they replace → one commit for all tables (manifest, renames, catalog) → diff stage.
 * Work happens in a scratch DuckDB file under data/.work/<run>/ with a memory limit, so a quarter of a large data
 * set spills to disk instead of growing the heap. A refused run leaves the lake as it was and throws IngestRefused.
 */
export async function runIngest(nameOrDef: string | DatasetIngester, args: IngestArgs, settings: Settings, opts: RunOptions = {}): Promise<IngestSummary> {
  const def = typeof nameOrDef === 'string' ? await findIngester(nameOrDef) : nameOrDef;
  if (!def) throw new Error(`unknown dataset '${nameOrDef}' (see: npm run ingest -- --list)`);
  const http = opts.http ?? createHttpClient(settings);
  const progress = createProgress(def.name, { quiet: opts.quiet });
  const log = (m: string) => {
    if (!opts.quiet) process.stderr.write(`[${def.name}] ${m}\n`);
  };
  const ctx: IngestContext = { http, settings, progress, log };
  const staleMs = opts.lockStaleMs;
  const locks = def.tables.map((t) => join(settings.lakeDir, t.name, '.lock'));
  const stagedIn = copiedTables(def);
  const maxDrop = settings.INGEST_MAX_DROP;

  // A run killed mid-commit is finished first, and the scratch of dead runs removed, before this run starts.
  const recovered = await recoverInterruptedRuns(settings, { quiet: opts.quiet, staleMs });
  if (recovered.rolledForward.length) log(`finished the commit of interrupted run(s) ${recovered.rolledForward.join(', ')}`);

  const run = async (): Promise<IngestSummary> => {
    const inputs = await def.inputs(ctx, args);
    const batches: { inputs: RawInput[]; args: IngestArgs; label: string }[] = [{ inputs, args, label: 'requested' }];
    // Partitions written by an older parser version are re-derived from the raw files recorded for them.
    const rederived: string[] = [];
    const prior = new Map<string, CatalogEntry | null>();
    for (const t of def.tables) {
      const entry = await readCatalogEntry(settings.lakeDir, t.name);
      prior.set(t.name, entry);
      for (const p of entry?.partitions ?? []) {
        if (p.parser_version >= def.parserVersion) continue;
        if (p.dataset && p.dataset !== def.name) continue;
        if (!p.inputs.length || !p.inputs.every((i) => existsSync(i.path))) continue;
        const key = JSON.stringify([p.inputs.map((i) => i.path), p.args]);
        if (batches.some((b) => JSON.stringify([b.inputs.map((i) => i.path), b.args]) === key)) continue;
        batches.push({ inputs: p.inputs, args: p.args as IngestArgs, label: `${t.name}/${p.value}` });
        rederived.push(`${t.name}/${p.value}`);
      }
    }
    if (rederived.length) log(`re-deriving ${rederived.length} partition(s) written by an older parser: ${rederived.join(', ')}`);

    const refusals: string[] = [];
    progress.phase('checking inputs are whole');
    for (const path of new Set(batches.flatMap((b) => b.inputs.map((i) => i.path)))) {
      const bad = await checkComplete(path);
      if (bad) refusals.push(`${bad.file}${bad.line != null ? `:${bad.line}` : ''}: ${bad.reason}`);
    }
    if (refusals.length && !opts.force) throw new IngestRefused(def.name, refusals);

    const summary: IngestSummary = {
      dataset: def.name,
      tables: [],
      rowsWritten: 0,
      rowsCounted: 0,
      badRows: 0,
      badRowSamples: [],
      rederived,
      elapsedMs: 0,
      rowsPerSecond: 0,
      events: { handlers: 0, drafted: 0, appended: 0 },
      forced: [],
      steps: [],
    };
    let batchBad = 0;
    let batchFirstBad: BadRow | undefined;
    // Rows read per file (kept, per table, or rejected), against the counts files declare (ctx.declaredRows).
    const kept = new Map<string, Map<string, number>>();
    const rejected = new Map<string, number>();
    const declared = new Map<string, number>();
    const countRead = (file: string | undefined, table?: string) => {
      if (!file) return;
      if (!table) {
        rejected.set(file, (rejected.get(file) ?? 0) + 1);
        return;
      }
      let m = kept.get(file);
      if (!m) kept.set(file, (m = new Map()));
      m.set(table, (m.get(table) ?? 0) + 1);
    };
    // A line may feed several tables (a sorted copy): the table that kept most of a file's rows stands for it.
    const readFrom = (file: string) => Math.max(0, ...(kept.get(file)?.values() ?? [])) + (rejected.get(file) ?? 0);
    const onBad = (b: BadRow) => {
      countRead(b.file);
      summary.badRows++;
      batchBad++;
      batchFirstBad ??= b;
      if (summary.badRowSamples.length < BAD_ROW_SAMPLES) summary.badRowSamples.push(b);
    };

    const scratch = await startRun(settings.dataDir, def.name, staleMs);
    // Staged partition files by target: a later batch re-staging a target supersedes (and merges from) the earlier one.
    const pending = new Map<string, { part: StagedPartition; plan: PlannedPartition; inputs: RawInput[]; args: IngestArgs }>();
    let manifestWritten = false;
    try {
      for (const [bi, batch] of batches.entries()) {
        const workDir = join(scratch.workDir, `batch-${bi}`);
        await mkdir(workDir, { recursive: true });
        const { instance, conn } = await openWorkDatabase(workDir, workMemoryLimit(settings, def.memoryLimit));
        batchBad = 0;
        batchFirstBad = undefined;
        kept.clear();
        rejected.clear();
        declared.clear();
        const inputPaths = batch.inputs.map((i) => i.path);
        const sources = new PartitionSources();
        try {
          const staging = new Map<string, StagingTable>();
          for (const t of def.tables) {
            await createStagingTable(conn, t);
            staging.set(t.name, new StagingTable(t, workDir, def.parserVersion, onBad));
          }
          // One set of sort codes for the batch: the loader's declarations (ctx.codeValues), then the writes, where a
          // sorted copy reuses its source's types (sort-codes.ts).
          const sortCodes = createSortCodes(conn);
          const loadCtx: LoadContext = {
            ...ctx,
            parserVersion: def.parserVersion,
            badRow: onBad,
            declaredRows: (file, rows) => declared.set(file, rows),
            async append(table, row, where) {
              const s = staging.get(table.name);
              if (!s) throw new Error(`${def.name}: append to table ${table.name}, which is not in the dataset's tables`);
              // The one counter of appended rows (see Progress.rows): a rejected row is a bad row, not progress.
              if (await s.append(row, where)) {
                progress.rows(1);
                countRead(where?.file, table.name);
                sources.note(table.name, (row as Record<string, unknown>)[table.partitionBy], inputOfRow(where?.file, inputPaths));
              }
            },
            sql: (sqlText, params) => {
              opts.onLoadSql?.(sqlText);
              return queryRows(conn, sqlText, params ?? []);
            },
            codeValues: (table, column, select) => {
              if (!staging.has(table.name)) throw new Error(`${def.name}: code values of table ${table.name}, which is not in the dataset's tables`);
              opts.onLoadSql?.(select);
              return sortCodes.declare(table, column, select);
            },
          };
          progress.phase(batches.length > 1 ? `reading inputs of ${batch.label}` : 'reading inputs');
          try {
            await def.load(loadCtx, batch.inputs, batch.args);
            progress.phase('staging rows');
            for (const s of staging.values()) {
              await s.close();
              if (s.count) await sortCodes.admit(s.spec, s.relation());
              await s.load(conn);
            }
          } catch (err) {
            throw explainLoadError(err, def.name, batch.inputs);
          }
          let staged = 0;
          for (const t of def.tables) {
            const [{ n }] = await queryRows(conn, `SELECT count(*)::BIGINT AS n FROM ${sqlIdent(`staging_${(stagedIn.get(t.name) ?? t).name}`)}`);
            staged += Number(n);
          }
          const rejection = checkRejections(staged, batchBad, batchFirstBad, maxDrop);
          if (rejection) refusals.push(batches.length > 1 ? `${batch.label}: ${rejection}` : rejection);
          for (const [file, rows] of declared) {
            const read = readFrom(file);
            if (read < rows) refusals.push(`${file}: ${read} row(s) read where the file declares ${rows}: the file is cut short or was partly unread`);
          }
          // Before anything is written: SQL-path loads skip row validation, and no validation sees a repeated key.
          progress.phase('checking primary keys');
          // A sorted copy holds its source's staged rows: checked once, with the source.
          for (const t of def.tables) if (!stagedIn.has(t.name)) await assertStagedKeys(conn, t);
          if (refusals.length && !opts.force) throw new IngestRefused(def.name, refusals);
          for (const t of def.tables) {
            progress.phase(`writing ${t.name}`);
            const earlier = new Map([...pending].map(([k, v]) => [k, v.part.staged]));
            const parts =
              opts.appendOnly && t.writeMode === 'merge'
                ? await stageAppendPartitions(conn, settings.lakeDir, t, scratch.id, stagedIn.get(t.name))
                : await writeStagedPartitions(conn, settings.lakeDir, t, scratch.id, earlier, [], stagedIn.get(t.name), sortCodes);
            for (const part of parts) {
              const superseded = pending.get(part.target);
              if (superseded) for (const f of stagedFiles(superseded.part)) await rm(f, { force: true });
              const plan: PlannedPartition = { table: t, value: part.value, rows: part.rows, inputs: sources.of(t.name, part.value, inputPaths) };
              // An append file adds rows: there is nothing it could drop.
              if (!part.appended) refusals.push(...checkReplacement(def.name, plan, prior.get(t.name) ?? null, maxDrop));
              pending.set(part.target, { part, plan, inputs: batch.inputs.filter((i) => plan.inputs.includes(i.path)), args: batch.args });
            }
            if (parts.length) {
              progress.note(`${t.name}: ${parts.map((p) => `${p.value} (${p.rows.toLocaleString('en-US')} rows)`).join(', ')} staged`);
            }
          }
          await sortCodes.release();
          if (refusals.length && !opts.force) throw new IngestRefused(def.name, refusals);
        } finally {
          conn.closeSync();
          instance.closeSync();
          await rm(workDir, { recursive: true, force: true });
        }
      }
      if (refusals.length) {
        summary.forced = refusals;
        log(`--force: replacing despite:\n  - ${refusals.join('\n  - ')}`);
      }
      if (opts.failBeforeCommit) throw new Error('simulated crash before commit');

      const written = [...pending.values()];
      const changed: { table: string; partitions: string[] }[] = [];
      for (const t of def.tables) {
        const parts = written.filter((w) => w.plan.table.name === t.name).map((w) => w.part);
        if (!parts.length) continue;
        summary.tables.push({ table: t.name, partitions: parts.map(({ value, rows }) => ({ value, rows })) });
        summary.rowsWritten += parts.reduce((a, p) => a + p.rows, 0);
        changed.push({ table: t.name, partitions: parts.map((p) => p.value) });
      }
      progress.stop();
      summary.elapsedMs = progress.elapsedMs();
      summary.rowsCounted = progress.rowsSoFar();
      summary.rowsPerSecond = Math.round(summary.rowsWritten / Math.max(0.001, summary.elapsedMs / 1000));

      // The commit: partitions of every table (in the dataset's order), then their catalog entries, in one manifest.
      const renames: Rename[] = def.tables.flatMap((t) => written.filter((w) => w.plan.table.name === t.name).flatMap((w) => partitionRenames(w.part)));
      for (const t of def.tables) {
        const entry = catalogAfter(prior.get(t.name) ?? null, def, t.name, written, summary);
        if (entry) renames.push(await stageCatalogEntry(settings.lakeDir, entry, scratch.id));
      }
      const manifest: RunManifest = {
        run: scratch.id,
        dataset: def.name,
        tables: def.tables.map((t) => t.name),
        renames,
        removals: [...new Set(written.flatMap((w) => w.part.superseded))],
        changed,
        events: !opts.skipDiff,
        diffMemoryLimit: def.memoryLimit,
      };
      progress.phase('committing');
      await commitRun(settings.lakeDir, manifest, {
        onDurable: () => {
          manifestWritten = true;
        },
        afterRename: opts.afterRename,
        beforeRemove: async () => {
          if (opts.skipDiff || !changed.length) return;
          progress.phase('writing events');
          summary.events = await runDiffStage(settings, changed, { quiet: opts.quiet, datasetMemoryLimit: manifest.diffMemoryLimit });
        },
      });
      summary.steps = progress.steps();
      return summary;
    } catch (err) {
      throw explainMemoryError(err, settings, def.memoryLimit);
    } finally {
      // Without a manifest nothing staged may survive the run; with one, the next start rolls it forward.
      if (!manifestWritten) {
        for (const w of pending.values()) for (const f of stagedFiles(w.part)) await rm(f, { force: true });
        for (const t of def.tables) await rm(join(settings.lakeDir, t.name, `_catalog.json.tmp-${scratch.id}`), { force: true });
      }
      await scratch.finish();
    }
  };

  // Locks are taken in a fixed order (table name) so two ingesters sharing tables cannot deadlock.
  const ordered = [...locks].sort();
  const wrap = ordered.reduceRight<() => Promise<IngestSummary>>((next, lock) => () => withLock(lock, next, { staleMs }), run);
  try {
    return await wrap();
  } finally {
    progress.stop();
  }
}

/**
 * The tables a dataset writes as sorted copies (`copyOf`), each with the table whose staging holds its rows. That
 * table must come earlier in the dataset's tables: its merge carries over the partitions' other rows first.
 */
function copiedTables(def: DatasetIngester): Map<string, TableSpec> {
  const out = new Map<string, TableSpec>();
  for (const [i, t] of def.tables.entries()) {
    if (!t.copyOf) continue;
    const source = def.tables.slice(0, i).find((s) => s.name === t.copyOf);
    if (!source) throw new Error(`${def.name}: table ${t.name} is a copy of ${t.copyOf}, which is not listed before it in the dataset's tables`);
    out.set(t.name, source);
  }
  return out;
}

/** A table's catalog entry once the run's partitions are in place (null for a table the run left untouched and never had). */
function catalogAfter(
  prior: CatalogEntry | null,
  def: DatasetIngester,
  table: string,
  written: { part: StagedPartition; plan: PlannedPartition; inputs: RawInput[]; args: IngestArgs }[],
  s: IngestSummary,
): CatalogEntry | null {
  const mine = written.filter((w) => w.plan.table.name === table);
  if (!prior && !mine.length) return null;
  const spec = def.tables.find((t) => t.name === table)!;
  const now = new Date().toISOString();
  const entry: CatalogEntry = prior
    ? structuredClone(prior)
    : {
        table,
        dataset: def.name,
        description: spec.description,
        source: def.source,
        source_urls: def.sourceUrls,
        partition_key: spec.partitionBy,
        record_count: 0,
        last_refresh: null,
        partitions: [],
      };
  entry.description = spec.description;
  entry.source = def.source;
  entry.source_urls = def.sourceUrls;
  const byValue = new Map(entry.partitions.map((p) => [p.value, p]));
  for (const w of mine) {
    const before = byValue.get(w.part.value);
    // An append adds rows to the partition (and keeps the inputs the partition was last derived from).
    if (w.part.appended && before) {
      byValue.set(w.part.value, { ...before, rows: before.rows + w.part.rows, refreshed_at: now });
      continue;
    }
    const pe: PartitionEntry = {
      value: w.part.value,
      dataset: def.name,
      rows: w.part.rows,
      parser_version: def.parserVersion,
      refreshed_at: now,
      inputs: w.inputs.map((i) => ({ path: i.path, url: i.url })),
      args: { period: w.args.period, date: w.args.date, from: w.args.from, accession: w.args.accession },
    };
    byValue.set(w.part.value, pe);
  }
  entry.partitions = [...byValue.values()].sort((a, b) => a.value.localeCompare(b.value));
  entry.record_count = entry.partitions.reduce((a, p) => a + p.rows, 0);
  if (mine.length) entry.last_refresh = now;
  entry.last_run = {
    at: now,
    rows_written: mine.reduce((a, w) => a + w.part.rows, 0),
    bad_rows: s.badRows,
    bad_row_samples: s.badRowSamples.slice(0, 20),
  };
  return entry;
}
