import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { queryRows, sqlIdent, sqlString } from './duck.ts';
import { catalogPath } from './catalog.ts';
import { tableDir, tableFiles } from './layout.ts';
import type { TableSpec } from '../../schemas/table.ts';

/**
 * Per-file key filters (`TableSpec.keyFilters`): beside a data file, a Bloom filter of each declared column's values in
 * it (`part-….parquet` → `part-….filter`, which the listing's `*.parquet` never reads). A filter answers "maybe" for
 * every value the file holds and "no" for all but about 0.1% of the others, so a page bound to a key skips, without
 * opening it, every partition whose files all answer "no". Made for the events' day folders: a `?cik=` page that
 * matches nothing opened all 3,650 days' files (0.5–1.5 s of CPU), where a lookup index costs as much as the file's
 * own opening (docs/read-path.md). Data files of a partition without their filter make it unknown: it is read.
 */
export const keyFilterFile = (dataFile: string): string => dataFile.replace(/\.parquet$/, '.filter');

/** One column's Bloom filter: `k` probes into the bits. */
export interface KeyFilter {
  k: number;
  bits: Uint8Array;
}

/** Filters of one data file, by column. */
export type FileKeyFilters = ReadonlyMap<string, KeyFilter>;

/**
 * Bits a value for a 0.1% false-positive rate (−ln 0.001 / ln² 2), and the probes that rate wants (ln 2 · bits). At 1%
 * (9.6 bits, 7 probes) a page over 3,650 days still read ≈ 36 days that did not hold its key; at 0.1%, ≈ 4, for half
 * as much memory again (docs/read-path.md). A file's filter keeps its own probes and size, so files written at
 * another rate are read as they are.
 */
const BITS_PER_KEY = 14.4;
const PROBES = 10;

/** Two 32-bit FNV-1a hashes of the value (different offsets), combined per probe as h1 + i·h2 (double hashing). */
function hashes(value: string): [number, number] {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x01000193) + 0x9e3779b9;
  }
  return [h1 >>> 0, (h2 >>> 0) | 1];
}

/** A filter holding `values` (distinct or not). */
export function buildKeyFilter(values: readonly string[]): KeyFilter {
  const bytes = Math.max(8, Math.ceil((values.length * BITS_PER_KEY) / 8));
  const f: KeyFilter = { k: PROBES, bits: new Uint8Array(bytes) };
  const m = bytes * 8;
  for (const v of values) {
    const [h1, h2] = hashes(v);
    for (let i = 0; i < f.k; i++) {
      const bit = ((h1 + Math.imul(i, h2)) >>> 0) % m;
      f.bits[bit >> 3] |= 1 << (bit & 7);
    }
  }
  return f;
}

/** False only when `value` is surely not among the filter's values. */
export function mayHold(f: KeyFilter, value: string): boolean {
  const m = f.bits.length * 8;
  const [h1, h2] = hashes(value);
  for (let i = 0; i < f.k; i++) {
    const bit = ((h1 + Math.imul(i, h2)) >>> 0) % m;
    if ((f.bits[bit >> 3] & (1 << (bit & 7))) === 0) return false;
  }
  return true;
}

/** Writes the filters of `spec.keyFilters` over the (staged) data file `dataFile` to `out`. */
export async function writeKeyFilters(conn: DuckDBConnection, spec: TableSpec, dataFile: string, out: string): Promise<void> {
  const names = spec.keyFilters ?? [];
  // Every column's distinct values in one read of the file (a list aggregate leaves NULLs out).
  const lists = names.map((c, i) => `list(DISTINCT CAST(${sqlIdent(c)} AS VARCHAR)) AS c${i}`).join(', ');
  const [row] = names.length ? await queryRows(conn, `SELECT ${lists} FROM read_parquet(${sqlString(dataFile)})`) : [{}];
  const columns: Record<string, { k: number; bits: string }> = {};
  for (const [i, c] of names.entries()) {
    const f = buildKeyFilter(((row[`c${i}`] as unknown[] | null) ?? []).map(String));
    columns[c] = { k: f.k, bits: Buffer.from(f.bits).toString('base64') };
  }
  await writeFile(out, JSON.stringify({ columns }));
}

/** The filters written beside `dataFile`, or null when there are none (or they cannot be read). */
export async function readKeyFilters(dataFile: string): Promise<FileKeyFilters | null> {
  try {
    const { columns } = JSON.parse(await readFile(keyFilterFile(dataFile), 'utf8')) as { columns: Record<string, { k: number; bits: string }> };
    return new Map(Object.entries(columns).map(([c, f]) => [c, { k: f.k, bits: new Uint8Array(Buffer.from(f.bits, 'base64')) }]));
  } catch {
    return null;
  }
}

/**
 * Writes the filters of every data file of `spec`'s table that has none (an events lake written before key filters,
 * `writeEventDays`'s files, a crash between a file's two renames): staged beside the file and renamed in, so a page
 * sees a whole filter or none. Files are never rewritten under their name, so a filter stays true of its file. A
 * file removed meanwhile (a compaction) is skipped and its filter not left behind. The caller holds the table's
 * writer lock. `progress` hears every file done.
 */
export async function writeMissingKeyFilters(
  conn: DuckDBConnection,
  lakeDir: string,
  spec: TableSpec,
  progress: (done: number, of: number) => void = () => {},
): Promise<{ files: number; written: number; skipped: number }> {
  const files = spec.keyFilters ? tableFiles(lakeDir, spec.name) : [];
  const missing = files.filter((f) => !existsSync(keyFilterFile(f)));
  let written = 0;
  let skipped = 0;
  for (const [i, file] of missing.entries()) {
    const out = keyFilterFile(file);
    const tmp = join(dirname(file), `.${basename(out)}.tmp-${randomUUID().slice(0, 8)}`);
    try {
      await writeKeyFilters(conn, spec, file, tmp);
      await rename(tmp, out);
      if (existsSync(file)) written++;
      else {
        await rm(out, { force: true });
        skipped++;
      }
    } catch (err) {
      await rm(tmp, { force: true });
      if (existsSync(file)) throw err;
      skipped++;
    }
    progress(i + 1, missing.length);
  }
  if (written) {
    // Readers took the files for filterless (ingest/lake/reader.ts): the stamp tells them to look again, and the
    // catalog's new mtime makes a running server list the table at its next check.
    const now = new Date();
    await writeFile(keyFiltersStamp(lakeDir, spec.name), now.toISOString());
    await utimes(catalogPath(lakeDir, spec.name), now, now).catch(() => undefined);
  }
  return { files: files.length, written, skipped };
}

/** Written by `writeMissingKeyFilters` when it wrote any: a reader forgets which of the table's files had none. */
const keyFiltersStamp = (lakeDir: string, table: string): string => join(tableDir(lakeDir, table), '.key-filters');

/** The stamp's mtime, or null before any backfill. */
export async function keyFiltersStampMtime(lakeDir: string, table: string): Promise<number | null> {
  try {
    return (await stat(keyFiltersStamp(lakeDir, table))).mtimeMs;
  } catch {
    return null;
  }
}
