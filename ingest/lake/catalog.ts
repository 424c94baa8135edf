import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** Per table: what the lake holds and where it came from. Feeds GET /v1/sources and parser-version re-derivation. */
export interface PartitionEntry {
  value: string;
  /** The ingester that wrote it (a table may have several writers, e.g. board_members). */
  dataset?: string;
  rows: number;
  parser_version: number;
  refreshed_at: string;
  /** The raw files and run arguments that produced it, so a parser bump can re-derive it from the raw cache. */
  inputs: { path: string; url: string | null }[];
  args: Record<string, string | undefined>;
}

export interface CatalogEntry {
  table: string;
  dataset: string;
  description: string;
  source: string;
  source_urls: string[];
  partition_key: string;
  record_count: number;
  last_refresh: string | null;
  partitions: PartitionEntry[];
  last_run?: { at: string; rows_written: number; bad_rows: number; bad_row_samples: { file: string; line: number | null; reason: string }[] };
}

export function catalogPath(lakeDir: string, table: string): string {
  return join(lakeDir, table, '_catalog.json');
}

export async function readCatalogEntry(lakeDir: string, table: string): Promise<CatalogEntry | null> {
  const p = catalogPath(lakeDir, table);
  if (!existsSync(p)) return null;
  return JSON.parse(await readFile(p, 'utf8')) as CatalogEntry;
}

export async function readCatalog(lakeDir: string): Promise<CatalogEntry[]> {
  if (!existsSync(lakeDir)) return [];
  const out: CatalogEntry[] = [];
  for (const name of readdirSync(lakeDir).sort()) {
    const e = await readCatalogEntry(lakeDir, name);
    if (e) out.push(e);
  }
  return out;
}

/** Written to a temp file then renamed: a reader never sees half a catalog. */
export async function writeCatalogEntry(lakeDir: string, entry: CatalogEntry): Promise<void> {
  const p = catalogPath(lakeDir, entry.table);
  await mkdir(dirname(p), { recursive: true });
  const tmp = `${p}.tmp-${randomUUID()}`;
  await writeFile(tmp, JSON.stringify(entry, null, 2));
  await rename(tmp, p);
}

/**
 * Writes a catalog entry under the run's temp name, for the run's commit to rename into place with its partitions
 * (ingest/lake/commit.ts): the catalog never describes partitions a crash kept from becoming visible.
 */
export async function stageCatalogEntry(lakeDir: string, entry: CatalogEntry, runId: string): Promise<{ from: string; to: string }> {
  const to = catalogPath(lakeDir, entry.table);
  await mkdir(dirname(to), { recursive: true });
  const from = `${to}.tmp-${runId}`;
  await writeFile(from, JSON.stringify(entry, null, 2));
  return { from, to };
}
