import { createHash } from 'node:crypto';
import { open, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { DerivedReads } from './derived-reads.ts';
import { rowSet, sqlIdent, sqlString } from './duck.ts';
import { isAppendFile } from './layout.ts';
import type { TableSpec } from '../../schemas/table.ts';

/**
 * Per-partition key summaries (issue #20): beside a partition's `data.parquet`, a small Parquet file (named so the
 * listing, which takes `*.parquet`, never reads it as data) with one row per value of the table's summary key: its
 * row count, the largest value of the summary's `max` column and its `FILL_RANK`-th largest. Each row also carries
 * the fingerprint of the data file it was computed from. The summary is renamed into place by the same run commit as
 * its data file, after it; a crash between the two renames (rolled forward at the next start), a compaction that rewrote the data file, or a
 * live append file beside it all leave a summary whose fingerprint or file set no longer matches, and such a
 * partition is read as if it had no summary (every page still reads it).
 */
export const SUMMARY_FILE = 'data.summary';

export interface KeyStats {
  rows: number;
  max: number | null;
  /**
   * The key's `FILL_RANK`-th largest value (null: fewer values than that; undefined: a summary written before it):
   * below it, a minimum leaves fewer than `FILL_RANK` of the key's rows.
   */
  nth?: number | null;
}

/**
 * The rank kept per key beside its max: a default page (25 rows) plus the row that tells whether another page
 * follows. With it a page knows, before opening a file, that a partition cannot fill it on its own.
 */
export const FILL_RANK = 26;
/**
 * How many of each key's largest rows a serving copy keeps in its `top` table (ingest/lake/serving.ts): every row of
 * a key with no more rows than this, and with a minimum above the key's `FILL_RANK`-th largest value every row that
 * reaches it (`allInTop`).
 */
export const TOP_ROWS = FILL_RANK - 1;

export interface PartitionSummary {
  keys: ReadonlyMap<string, KeyStats>;
  /** The largest value of the partition (null: no value at all). */
  max: number | null;
}

/** Bytes of the file's end hashed: the Parquet footer (row groups' offsets and min/max statistics) sits there. */
const TAIL_BYTES = 4096;

/** Size and a hash of the footer: two writes of a partition differ in it, whatever their names. */
export async function fileFingerprint(path: string): Promise<string> {
  const { size } = await stat(path);
  const fh = await open(path, 'r');
  try {
    const len = Math.min(size, TAIL_BYTES);
    const buf = Buffer.alloc(len);
    await fh.read(buf, 0, len, size - len);
    return `${size}:${createHash('sha256').update(buf).digest('hex').slice(0, 32)}`;
  } finally {
    await fh.close();
  }
}

/** Writes the summary of the (staged) data file `dataFile` to `summaryFile`. */
export async function writePartitionSummary(conn: DuckDBConnection, spec: TableSpec, dataFile: string, summaryFile: string): Promise<void> {
  if (!spec.summary) throw new Error(`table ${spec.name} declares no summary`);
  const fp = await fileFingerprint(dataFile);
  const key = sqlIdent(spec.summary.key);
  const max = sqlIdent(spec.summary.max);
  // A NULL key gets its own row (an equality filter never matches it, but the partition-wide max still counts it).
  await conn.run(
    `COPY (SELECT CAST(${key} AS VARCHAR) AS key, count(*)::BIGINT AS rows, max(${max})::DOUBLE AS max_value, ` +
      `max(${max}, ${FILL_RANK})[${FILL_RANK}]::DOUBLE AS nth_value, ${sqlString(fp)} AS data_fingerprint ` +
      `FROM read_parquet(${sqlString(dataFile)}) GROUP BY 1 ORDER BY 1) TO ${sqlString(summaryFile)} (FORMAT parquet, COMPRESSION zstd)`,
  );
}

/**
 * The fingerprint of a partition's `data.parquet` when every other data file of it is a live append file (`files`:
 * the partition's data files in the listing), else null: what a key summary or a serving copy (serving.ts) must have
 * been built from to describe the partition. A serving copy then still serves it, merged with the append files as
 * every reader merges them (ingest/lake/layout.ts `withAppends`); a key summary only when there are none (the
 * append files may hold keys or values it does not count). The reader takes it once per partition and listing.
 */
export async function baseDataFingerprint(dir: string, files: readonly string[]): Promise<string | null> {
  const data = join(dir, 'data.parquet');
  const rest = files.filter((f) => !isAppendFile(f));
  if (rest.length !== 1 || rest[0] !== data) return null;
  try {
    return await fileFingerprint(data);
  } catch {
    return null;
  }
}

/**
 * The summary in partition folder `dir`, or null when it has none or it does not describe the data there now
 * (stale: see above). `fp`: the partition's `baseDataFingerprint` when it has no append file, else null. A summary
 * read before through `reads` from the same files is not read again (a full listing of the 10M-line bench lake, eight
 * quarters of 20,000 keys in both tables, cost 472–753 ms of CPU when it read every summary, 8–18 ms since:
 * docs/read-path.md, "Opening the lake"); `onRead` is called when one is read.
 */
export async function readPartitionSummary(
  conn: DuckDBConnection,
  dir: string,
  fp: string | null,
  reads: DerivedReads<PartitionSummary | null>,
  onRead?: () => void,
): Promise<PartitionSummary | null> {
  if (fp === null) return null;
  const path = join(dir, SUMMARY_FILE);
  return reads.get(path, fp, () => {
    onRead?.();
    return readSummaryFile(conn, path, fp);
  });
}

async function readSummaryFile(conn: DuckDBConnection, path: string, fp: string): Promise<PartitionSummary | null> {
  // `SELECT *`: a summary written before `nth_value` still reads, without it. Every summary names its data file's
  // fingerprint on each row; compared in SQL, the 20,000 copies of it are not read into JavaScript (`rowSet`: the
  // whole summary as one JSON text, docs/read-path.md "Opening the lake").
  const rows = await rowSet(
    conn,
    `SELECT * EXCLUDE (data_fingerprint), data_fingerprint IS NOT DISTINCT FROM ${sqlString(fp)} AS current FROM read_parquet(${sqlString(path)})`,
  );
  // An empty summary proves nothing about the file beside it: read that partition.
  if (!rows.length || rows.some((r) => r.current !== true)) return null;
  const keys = new Map<string, KeyStats>();
  let max: number | null = null;
  for (const r of rows) {
    const m = r.max_value === null ? null : Number(r.max_value);
    if (m !== null && (max === null || m > max)) max = m;
    const nth = r.nth_value === undefined ? undefined : r.nth_value === null ? null : Number(r.nth_value);
    if (r.key !== null) keys.set(String(r.key), { rows: Number(r.rows), max: m, nth });
  }
  return { keys, max };
}

/** What a page's filters bound: equality on the summary key (any of `keys`), a minimum on its max column. */
export interface SummaryBounds {
  keys?: readonly string[];
  min?: number;
}

/** Whether a largest value of `max` reaches the minimum (always, without one). */
function reaches(max: number | null, min: number | undefined): boolean {
  return min === undefined || (max !== null && max >= min);
}

/**
 * Whether the minimum is above the key's `FILL_RANK`-th largest value, so fewer than `FILL_RANK` of its rows reach
 * it, all among its `TOP_ROWS` largest. Unknown for a summary written before it kept that value (false).
 */
function aboveRank(s: KeyStats, min: number | undefined): boolean {
  return min !== undefined && s.nth !== undefined && (s.nth === null || s.nth < min);
}

/** Whether a partition with this summary (null: none, or stale) may hold a row within the bounds. */
export function mayMatch(summary: PartitionSummary | null, bounds: SummaryBounds): boolean {
  if (!summary) return true;
  const { keys, min } = bounds;
  if (keys === undefined) return reaches(summary.max, min);
  return keys.some((k) => {
    const s = summary.keys.get(k);
    return s !== undefined && reaches(s.max, min);
  });
}

/**
 * Whether every row of a partition with this summary that falls within the bounds is among its key's `TOP_ROWS`
 * largest (by the summary's `max` column, NULLs last): a key with no more rows than that, or a minimum above the key's
 * `FILL_RANK`-th largest value, which only values above it reach, and at most `TOP_ROWS` rows hold those. False without
 * a summary, without keys, or for a summary written before it kept that value.
 */
export function allInTop(summary: PartitionSummary | null, bounds: SummaryBounds): boolean {
  const { keys, min } = bounds;
  if (!summary || keys === undefined) return false;
  for (const k of new Set(keys)) {
    const s = summary.keys.get(k);
    if (!s || !reaches(s.max, min) || s.rows <= TOP_ROWS || aboveRank(s, min)) continue;
    return false;
  }
  return true;
}

/**
 * At most how many rows of a partition with this summary fall within the bounds: its rows holding one of the keys,
 * fewer than `FILL_RANK` of a key's when the minimum is above the key's `FILL_RANK`-th largest value. Infinity without
 * a summary, or without keys (a summary counts rows per key only).
 */
export function rowsAtMost(summary: PartitionSummary | null, bounds: SummaryBounds): number {
  const { keys, min } = bounds;
  if (!summary || keys === undefined) return Number.POSITIVE_INFINITY;
  let total = 0;
  for (const k of new Set(keys)) {
    const s = summary.keys.get(k);
    if (!s || !reaches(s.max, min)) continue;
    total += aboveRank(s, min) ? Math.min(s.rows, TOP_ROWS) : s.rows;
  }
  return total;
}
