import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { queryRows, sqlIdent, sqlString } from './duck.ts';
import type { Rename } from './commit.ts';
import { APPEND_PREFIX, isAppendFile, partitionDir } from './layout.ts';
import { SERVING_FILE, writeServingCopy } from './serving.ts';
import { SUMMARY_FILE, writePartitionSummary } from './summary.ts';
import { keyIndexFile, writeKeyIndex } from './key-index.ts';
import { keyFilterFile, writeKeyFilters } from './key-filter.ts';
import { createSortCodes, type SortCodes } from './sort-codes.ts';
import { carryOverRows } from './carry-over.ts';
import { DEFAULT_ROW_GROUP_SIZE, type TableSpec } from '../../schemas/table.ts';

const PARTITION_FILE = 'data.parquet';

/** The live lane's append files of a partition folder, oldest first (their names sort by time). */
export async function appendFiles(dir: string): Promise<string[]> {
  if (!existsSync(dir)) return [];
  return (await readdir(dir))
    .filter(isAppendFile)
    .sort()
    .map((f) => join(dir, f));
}

export interface WrittenPartition {
  value: string;
  rows: number;
}

/** A partition file written under a temp name, waiting for the run's commit (ingest/lake/commit.ts) to rename it. */
export interface StagedPartition extends WrittenPartition {
  staged: string;
  target: string;
  /** Live append files folded into (merge) or superseded by (replace) the staged file: removed once it is in place. */
  superseded: string[];
  /** A new append file (the live lane's write): it adds rows to the partition instead of replacing it. */
  appended?: boolean;
  /** The partition's key summary (`spec.summary`), staged beside the file and renamed after it. */
  summary?: Rename;
  /** The partition's serving copy (`spec.serving`), staged beside the file and renamed after it. */
  serving?: Rename;
  /** The partition's key indexes (`spec.keyIndexes`), staged beside the file and renamed after it. */
  keyIndexes?: Rename[];
}

/**
 * A staged partition's renames in commit order: the data file, then its summary (ingest/lake/summary.ts), its
 * serving copy (ingest/lake/serving.ts) and its key indexes (key-index.ts), which describe it by fingerprint and are
 * ignored until they match it.
 */
export function partitionRenames(p: StagedPartition): Rename[] {
  return [{ from: p.staged, to: p.target }, ...[p.summary, p.serving, ...(p.keyIndexes ?? [])].filter((r): r is Rename => r !== undefined)];
}

/** Every file a staged partition left under a temp name (removed when its run commits nothing). */
export function stagedFiles(p: StagedPartition): string[] {
  return [p.staged, ...[p.summary, p.serving, ...(p.keyIndexes ?? [])].flatMap((r) => (r ? [r.from] : []))];
}

/** The partition values present in a staging table (quoted identifiers), in order. */
async function stagedValues(conn: DuckDBConnection, staging: string, part: string): Promise<string[]> {
  const rows = await queryRows(conn, `SELECT DISTINCT CAST(${part} AS VARCHAR) AS v FROM ${staging} WHERE ${part} IS NOT NULL ORDER BY 1`);
  return rows.map((r) => String(r.v));
}

/**
 * Writes every partition present in `staging_<table>` as one file per partition under a temp name beside its
 * target `data.parquet` (same folder, so the commit's rename is atomic: a reader sees the old file or the new one,
 * never half of either). Nothing becomes visible here: the runner validates the staged partitions, then commits
 * all of a run's tables together. Re-running the same period replaces the partition (idempotent).
 * In `merge` mode the partition's existing rows whose primary key is not in the run are carried over first, read
 * from `pending` (a file this run staged for the same target in an earlier batch) or else from the lake.
 * `stagedIn`: a sorted copy (`spec.copyOf`) is written from the staging of the table it copies, once that table's
 * partitions are written: its merge has already carried the partition's other rows into that staging, so none are
 * read here.
 */
export async function writeStagedPartitions(
  conn: DuckDBConnection,
  lakeDir: string,
  spec: TableSpec,
  runId: string,
  pending: ReadonlyMap<string, string> = new Map(),
  alsoRewrite: string[] = [],
  stagedIn?: TableSpec,
  sortCodes?: SortCodes,
): Promise<StagedPartition[]> {
  const codesOf = sortCodes ?? createSortCodes(conn);
  try {
    return await writePartitions(conn, lakeDir, spec, runId, pending, alsoRewrite, stagedIn, codesOf);
  } finally {
    if (!sortCodes) await codesOf.release();
  }
}

async function writePartitions(
  conn: DuckDBConnection,
  lakeDir: string,
  spec: TableSpec,
  runId: string,
  pending: ReadonlyMap<string, string>,
  alsoRewrite: string[],
  stagedIn: TableSpec | undefined,
  sortCodes: SortCodes,
): Promise<StagedPartition[]> {
  const staging = sqlIdent(`staging_${(stagedIn ?? spec).name}`);
  const part = sqlIdent(spec.partitionBy);
  const staged = await stagedValues(conn, staging, part);
  // `alsoRewrite`: partitions rewritten from what they hold though nothing is staged for them (compaction).
  const values = [...new Set([...staged, ...alsoRewrite])].sort();
  const written: StagedPartition[] = [];
  for (const value of values) {
    const dir = partitionDir(lakeDir, spec, value);
    const target = join(dir, PARTITION_FILE);
    const appended = await appendFiles(dir);
    // A file this run staged earlier already holds the partition's append files (folded when it was written).
    const earlier = pending.get(target);
    const existing = earlier ? [earlier] : [...(existsSync(target) ? [target] : []), ...appended];
    if (spec.writeMode === 'merge' && existing.length && !stagedIn) {
      // A column staged as codes takes the values of the rows carried over first (sort-codes.ts).
      await carryOverRows(conn, staging, spec, value, existing, (carried) => sortCodes.admit(spec, carried));
    }
    await mkdir(dir, { recursive: true });
    // The run id ends the name (ingest/lake/scratch.ts tells a dead run's leftovers by it); the prefix keeps two
    // batches of one run apart.
    const mark = `.${randomUUID().slice(0, 8)}`;
    const tmp = join(dir, `${mark}-${PARTITION_FILE}.tmp-${runId}`);
    // The summary is staged beside it under the same prefix and run id (a dead run's leftovers are swept alike).
    const summaryTmp = join(dir, `${mark}-${SUMMARY_FILE}.tmp-${runId}`);
    const servingTmp = join(dir, `${mark}-${SERVING_FILE}.tmp-${runId}`);
    const indexes = (spec.keyIndexes ?? []).map((index) => ({
      index,
      rename: { from: join(dir, `${mark}-${keyIndexFile(index.key)}.tmp-${runId}`), to: join(dir, keyIndexFile(index.key)) },
    }));
    const order = spec.sortBy.map(sqlIdent).join(', ');
    const inPartition = `CAST(${part} AS VARCHAR) = ${sqlString(value)}`;
    const codes = order ? await sortCodes.of(spec, staging, inPartition) : [];
    try {
      const replace = codes.length ? ` REPLACE (${codes.map((c) => `CAST(${sqlIdent(c.column)} AS ${c.type}) AS ${sqlIdent(c.column)}`).join(', ')})` : '';
      await conn.run(
        `COPY (SELECT * EXCLUDE (${part})${replace} FROM ${staging} WHERE ${inPartition}${order ? ` ORDER BY ${order}` : ''}) ` +
          `TO ${sqlString(tmp)} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE ${spec.rowGroupSize ?? DEFAULT_ROW_GROUP_SIZE})`,
      );
      const [{ n }] = await queryRows(conn, `SELECT count(*)::BIGINT AS n FROM read_parquet(${sqlString(tmp)})`);
      let summary: Rename | undefined;
      if (spec.summary) {
        summary = { from: summaryTmp, to: join(dir, SUMMARY_FILE) };
        await writePartitionSummary(conn, spec, tmp, summaryTmp);
      }
      let serving: Rename | undefined;
      if (spec.serving) {
        serving = { from: servingTmp, to: join(dir, SERVING_FILE) };
        await writeServingCopy(conn, spec, tmp, servingTmp);
      }
      for (const { index, rename } of indexes) await writeKeyIndex(conn, spec, index, tmp, rename.from);
      const keyIndexes = indexes.map((x) => x.rename);
      written.push({ value, rows: Number(n), staged: tmp, target, superseded: appended, summary, serving, keyIndexes });
    } catch (err) {
      await rm(tmp, { force: true });
      await rm(summaryTmp, { force: true });
      await rm(servingTmp, { force: true });
      await rm(`${servingTmp}.wal`, { force: true });
      for (const { rename } of indexes) await rm(rename.from, { force: true });
      throw err;
    }
  }
  return written;
}

/**
 * The live lane's write: each staged partition's rows go to a new small file beside the partition's
 * `data.parquet` instead of rewriting it (a quarter of the filing index takes ~30 s to rewrite on 2 cores; see
 * docs/live-lane.md). Staged under a temp name like any partition file, so the run's commit makes it visible with the
 * run's other tables. Readers see every `*.parquet` of a partition; the next merge of the partition, or the live
 * lane's `compactAppends` (ingest/pipeline/live/compact.ts), folds these files back into `data.parquet`.
 */
export async function stageAppendPartitions(
  conn: DuckDBConnection,
  lakeDir: string,
  spec: TableSpec,
  runId: string,
  stagedIn?: TableSpec,
): Promise<StagedPartition[]> {
  const staging = sqlIdent(`staging_${(stagedIn ?? spec).name}`);
  const part = sqlIdent(spec.partitionBy);
  const values = await stagedValues(conn, staging, part);
  const order = spec.sortBy.map(sqlIdent).join(', ');
  const written: StagedPartition[] = [];
  for (const value of values) {
    const dir = partitionDir(lakeDir, spec, value);
    await mkdir(dir, { recursive: true });
    // Zero-padded time first, so names sort oldest to newest (the merge's newest-wins rule reads the name).
    const target = join(dir, `${APPEND_PREFIX}${String(Date.now()).padStart(15, '0')}-${randomUUID().slice(0, 8)}.parquet`);
    const tmp = `${target}.tmp-${runId}`;
    try {
      await conn.run(
        `COPY (SELECT * EXCLUDE (${part}) FROM ${staging} WHERE CAST(${part} AS VARCHAR) = ${sqlString(value)}${order ? ` ORDER BY ${order}` : ''}) ` +
          `TO ${sqlString(tmp)} (FORMAT parquet, COMPRESSION zstd)`,
      );
      const [{ n }] = await queryRows(conn, `SELECT count(*)::BIGINT AS n FROM read_parquet(${sqlString(tmp)})`);
      if (Number(n) === 0) await rm(tmp, { force: true });
      else written.push({ value, rows: Number(n), staged: tmp, target, superseded: [], appended: true });
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }
  return written;
}

/**
 * Appends a new file to a partition (append-only tables such as events): never rewrites what is there.
 */
export async function appendPartitionFile(conn: DuckDBConnection, lakeDir: string, spec: TableSpec, value: string, selectSql: string): Promise<number> {
  const dir = partitionDir(lakeDir, spec, value);
  await mkdir(dir, { recursive: true });
  const name = `part-${Date.now()}-${randomUUID().slice(0, 8)}.parquet`;
  // A temp mark without a run: the cleaner removes it once older than the lock staleness (ingest/lake/scratch.ts).
  const tmp = join(dir, `.${name}.tmp-${randomUUID().slice(0, 8)}`);
  // The file's key filters are written before it is renamed in and renamed after it: a crash between the two renames
  // leaves a file without filters, which makes its partition one a page reads (key-filter.ts).
  const filterTmp = spec.keyFilters ? join(dir, `.${keyFilterFile(name)}.tmp-${randomUUID().slice(0, 8)}`) : null;
  try {
    await conn.run(`COPY (${selectSql}) TO ${sqlString(tmp)} (FORMAT parquet, COMPRESSION zstd)`);
    const [{ n }] = await queryRows(conn, `SELECT count(*)::BIGINT AS n FROM read_parquet(${sqlString(tmp)})`);
    if (Number(n) === 0) {
      await rm(tmp, { force: true });
      return 0;
    }
    if (filterTmp) await writeKeyFilters(conn, spec, tmp, filterTmp);
    await rename(tmp, join(dir, name));
    if (filterTmp) await rename(filterTmp, join(dir, keyFilterFile(name)));
    return Number(n);
  } catch (err) {
    await rm(tmp, { force: true });
    if (filterTmp) await rm(filterTmp, { force: true });
    throw err;
  }
}
