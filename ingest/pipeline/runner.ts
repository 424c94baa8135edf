import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { readCatalogEntry, writeCatalogEntry, type CatalogEntry, type PartitionEntry } from '../lake/catalog.ts';
import type { BadRow } from '../lake/staging.ts';
import type { DatasetIngester, IngestArgs, IngestContext, LoadContext, RawInput } from './contract.ts';
import { openDuck, queryRows } from '../lake/duck.ts';
import { createHttpClient, type HttpClient } from '../sources/common/http.ts';
import { appendStagedPartitions, writeStagedPartitions, type WrittenPartition } from '../lake/writer.ts';
import { withLock } from '../lake/lock.ts';
import { createProgress } from './progress.ts';
import { findIngester } from './registry.ts';
import type { Settings } from '../../schemas/settings.ts';
import { assertStagedKeys, createStagingTable, StagingTable } from '../lake/staging.ts';
import { runDiffStage, type DiffSummary } from '../events/diff-stage.ts';

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
  /** Test hook: throw after staging, before any partition is renamed into place (crash simulation). */
  failBeforeCommit?: boolean;
}

const BAD_ROW_SAMPLES = 50;

/**
 * The one ingest pipeline: inputs → load (parse, validate) → staging → partitions (atomic) → catalog → diff stage.
 * Work happens in a scratch DuckDB file under data/.work/<run>/ with a memory limit, so a quarter of a large data
 * set spills to disk instead of growing the heap.
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
  const locks = def.tables.map((t) => join(settings.lakeDir, t.name, '.lock'));

  const run = async (): Promise<IngestSummary> => {
    const inputs = await def.inputs(ctx, args);
    const batches: { inputs: RawInput[]; args: IngestArgs; label: string }[] = [{ inputs, args, label: 'requested' }];
    // Partitions written by an older parser version are re-derived from the raw files recorded for them.
    const rederived: string[] = [];
    for (const t of def.tables) {
      const entry = await readCatalogEntry(settings.lakeDir, t.name);
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
    };
    const onBad = (b: BadRow) => {
      summary.badRows++;
      if (summary.badRowSamples.length < BAD_ROW_SAMPLES) summary.badRowSamples.push(b);
    };
    const changed: { table: string; partitions: string[] }[] = [];

    for (const batch of batches) {
      const workDir = join(settings.dataDir, '.work', `${def.name}-${randomUUID().slice(0, 8)}`);
      await mkdir(workDir, { recursive: true });
      const { instance, conn } = await openDuck(join(workDir, 'work.duckdb'), {
        memory_limit: process.env.INGEST_MEMORY_LIMIT ?? '2GB',
        temp_directory: join(workDir, 'spill'),
        threads: '2',
        preserve_insertion_order: 'false',
      });
      try {
        const staging = new Map<string, StagingTable>();
        for (const t of def.tables) {
          await createStagingTable(conn, t);
          staging.set(t.name, new StagingTable(t, workDir, def.parserVersion, onBad));
        }
        const loadCtx: LoadContext = {
          ...ctx,
          parserVersion: def.parserVersion,
          badRow: onBad,
          async append(table, row, where) {
            const s = staging.get(table.name);
            if (!s) throw new Error(`${def.name}: append to table ${table.name}, which is not in the dataset's tables`);
            // The one counter of appended rows (see Progress.rows): a rejected row is a bad row, not progress.
            if (await s.append(row, where)) progress.rows(1);
          },
          sql: (sqlText, params) => queryRows(conn, sqlText, params ?? []),
        };
        progress.phase(batches.length > 1 ? `reading inputs of ${batch.label}` : 'reading inputs');
        await def.load(loadCtx, batch.inputs, batch.args);
        progress.phase('staging rows');
        for (const s of staging.values()) {
          await s.close();
          await s.load(conn);
        }
        // Before anything is written: SQL-path loads skip row validation, and no validation sees a repeated key.
        progress.phase('checking primary keys');
        for (const t of def.tables) await assertStagedKeys(conn, t);
        if (opts.failBeforeCommit) throw new Error('simulated crash before commit');
        for (const t of def.tables) {
          progress.phase(`writing ${t.name}`);
          const parts =
            opts.appendOnly && t.writeMode === 'merge'
              ? await appendStagedPartitions(conn, settings.lakeDir, t)
              : await writeStagedPartitions(conn, settings.lakeDir, t);
          if (!parts.length) continue;
          progress.note(`${t.name}: ${parts.map((p) => `${p.value} (${p.rows.toLocaleString('en-US')} rows)`).join(', ')} written`);
          await updateCatalog(settings, def, t.name, parts, batch.inputs, batch.args, !!opts.appendOnly && t.writeMode === 'merge');
          const existing = summary.tables.find((x) => x.table === t.name);
          if (existing) existing.partitions.push(...parts);
          else summary.tables.push({ table: t.name, partitions: parts });
          summary.rowsWritten += parts.reduce((a, p) => a + p.rows, 0);
          changed.push({ table: t.name, partitions: parts.map((p) => p.value) });
        }
      } finally {
        conn.closeSync();
        instance.closeSync();
        await rm(workDir, { recursive: true, force: true });
      }
    }
    for (const t of def.tables) await recordLastRun(settings, t.name, summary);
    progress.stop();
    summary.elapsedMs = progress.elapsedMs();
    summary.rowsCounted = progress.rowsSoFar();
    summary.rowsPerSecond = Math.round(summary.rowsWritten / Math.max(0.001, summary.elapsedMs / 1000));
    if (!opts.skipDiff && changed.length) summary.events = await runDiffStage(settings, changed, { quiet: opts.quiet });
    return summary;
  };

  // Locks are taken in a fixed order (table name) so two ingesters sharing tables cannot deadlock.
  const ordered = [...locks].sort();
  const wrap = ordered.reduceRight<() => Promise<IngestSummary>>((next, lock) => () => withLock(lock, next), run);
  try {
    return await wrap();
  } finally {
    progress.stop();
  }
}

async function updateCatalog(
  settings: Settings,
  def: DatasetIngester,
  table: string,
  parts: WrittenPartition[],
  inputs: RawInput[],
  args: IngestArgs,
  appended = false,
): Promise<void> {
  const spec = def.tables.find((t) => t.name === table)!;
  const now = new Date().toISOString();
  const entry: CatalogEntry = (await readCatalogEntry(settings.lakeDir, table)) ?? {
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
  for (const p of parts) {
    const before = byValue.get(p.value);
    // An append adds rows to the partition (and keeps the inputs the partition was last derived from).
    if (appended && before) {
      byValue.set(p.value, { ...before, rows: before.rows + p.rows, refreshed_at: now });
      continue;
    }
    const pe: PartitionEntry = {
      value: p.value,
      dataset: def.name,
      rows: p.rows,
      parser_version: def.parserVersion,
      refreshed_at: now,
      inputs: inputs.map((i) => ({ path: i.path, url: i.url })),
      args: { period: args.period, date: args.date, from: args.from, accession: args.accession },
    };
    byValue.set(p.value, pe);
  }
  entry.partitions = [...byValue.values()].sort((a, b) => a.value.localeCompare(b.value));
  entry.record_count = entry.partitions.reduce((a, p) => a + p.rows, 0);
  entry.last_refresh = now;
  await writeCatalogEntry(settings.lakeDir, entry);
}

async function recordLastRun(settings: Settings, table: string, s: IngestSummary): Promise<void> {
  const entry = await readCatalogEntry(settings.lakeDir, table);
  if (!entry) return;
  entry.last_run = {
    at: new Date().toISOString(),
    rows_written: s.tables.find((t) => t.table === table)?.partitions.reduce((a, p) => a + p.rows, 0) ?? 0,
    bad_rows: s.badRows,
    bad_row_samples: s.badRowSamples.slice(0, 20),
  };
  await writeCatalogEntry(settings.lakeDir, entry);
}
