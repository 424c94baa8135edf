import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { catalogPath } from './catalog.ts';
import { tableDir } from './layout.ts';
import { forEachBounded } from './bounded.ts';

/** What one table's folders hold, read in one asynchronous pass (never on the request path). */
export interface TableListing {
  /** Absolute paths of the visible Parquet files, sorted (temp files never match `*.parquet`). */
  files: string[];
  /** Partition values that hold at least one file (decoded from the folder names), unordered. */
  partitions: string[];
  /** Each of those partition values with its files (absolute paths, sorted). */
  byPartition: ReadonlyMap<string, readonly string[]>;
  /** mtime of `_catalog.json` when the listing was taken (null: no catalog yet); every commit rewrites it. */
  catalogMtimeMs: number | null;
}

/** Partition folders read at once: enough to keep the thread pool busy without queueing thousands of reads. */
const READ_CONCURRENCY = 16;

async function entriesOf(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return [];
    throw err;
  }
}

/** The catalog's mtime, or null when the table has none yet. */
export async function catalogMtime(lakeDir: string, table: string): Promise<number | null> {
  try {
    return (await stat(catalogPath(lakeDir, table))).mtimeMs;
  } catch {
    return null;
  }
}

/**
 * Lists a table's partition folders with fs/promises, a few folders at a time: 3,650 day folders of events take
 * tens of milliseconds of directory reads, which the synchronous listing spent on the event loop.
 */
export async function listTable(lakeDir: string, table: string): Promise<TableListing> {
  // The catalog first: a commit renames its partitions before its catalog, so a listing taken during a commit
  // records the older mtime and the next check of the catalogs takes it again.
  const catalogMtimeMs = await catalogMtime(lakeDir, table);
  const dir = tableDir(lakeDir, table);
  const folders = (await entriesOf(dir)).filter((p) => p.includes('='));
  const files: string[] = [];
  const partitions: string[] = [];
  const byPartition = new Map<string, string[]>();
  await forEachBounded(folders, READ_CONCURRENCY, async (p) => {
    const inPart = (await entriesOf(join(dir, p)))
      .filter((f) => f.endsWith('.parquet'))
      .sort()
      .map((f) => join(dir, p, f));
    if (!inPart.length) return;
    files.push(...inPart);
    const value = decodeURIComponent(p.slice(p.indexOf('=') + 1));
    partitions.push(value);
    byPartition.set(value, inPart);
  });
  return { files: files.sort(), partitions, byPartition, catalogMtimeMs };
}

/** Two listings of a table name the same files (the view over them needs no rebuild). */
export function sameFiles(a: TableListing | undefined, b: TableListing): boolean {
  return !!a && a.files.length === b.files.length && a.files.every((f, i) => f === b.files[i]);
}
