import { stat } from 'node:fs/promises';
import type { DuckDBInstance } from '@duckdb/node-api';
import { openDuck, queryRows, sqlString } from './duck.ts';
import { forEachBounded } from './bounded.ts';

/**
 * Each Parquet file's column signature (names and types), which tells a reader whether a table's files can be read
 * without `union_by_name`. Kept for the life of the process, keyed by path and valid while the file's inode, size and
 * mtime hold (a commit renames a new `data.parquet` over the old one: a new inode), so every reader the process opens
 * shares it: the live lane's diff stage opens one a batch, and on an events feed of 3,650 day files reading the
 * footers again cost 0.4 s of CPU a batch, where a stat of each file costs 0.05 s (docs/events.md, "Known limit").
 */
interface Version {
  ino: number;
  size: number;
  mtimeMs: number;
}

interface Known extends Version {
  signature: string;
}

const known = new Map<string, Known>();
/** Past this many files, the longest-held entries go first (a process serving a lake of many more files re-reads). */
const MAX_KNOWN = 200_000;
const STAT_CONCURRENCY = 16;

let footerReader: Promise<DuckDBInstance> | null = null;

/**
 * The process's DuckDB for reading footers, made on first use and kept: a connection of its own per read. Creating an
 * instance costs ≈ 16 ms of CPU, and a reader's open read each table's footers in one: 35 instances, 0.56 s of a 1.1 s
 * open of the demo lake (35 tables). It holds no data and caches no metadata, so keeping it costs nothing but its
 * handle.
 */
function footerInstance(): Promise<DuckDBInstance> {
  footerReader ??= openDuck(':memory:', { threads: '1' }).then(
    ({ instance, conn }) => {
      conn.closeSync();
      return instance;
    },
    (err) => {
      // Not kept: the next read tries again rather than failing for the life of the process.
      footerReader = null;
      throw err;
    },
  );
  return footerReader;
}

/** Reads the footers of `files`: path → signature. */
async function readSignatures(files: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (!files.length) return out;
  const conn = await (await footerInstance()).connect();
  try {
    const rows = await queryRows(
      conn,
      `SELECT file_name AS f, string_agg(name || ':' || coalesce(type, ''), ',' ORDER BY name) AS cols
         FROM parquet_schema([${files.map(sqlString).join(', ')}]) GROUP BY file_name`,
    );
    for (const r of rows) out.set(String(r.f), String(r.cols));
  } finally {
    conn.closeSync();
  }
  return out;
}

/**
 * path → signature for each of `files`; '' for a file gone or unreadable. Only files not seen before, or changed
 * since, have their footers read. Throws when a footer cannot be read (a torn or foreign file).
 */
export async function fileSignatures(files: readonly string[], onFooters?: (files: readonly string[]) => void): Promise<Map<string, string>> {
  const stats = new Map<string, Version>();
  await forEachBounded(files, STAT_CONCURRENCY, async (f) => {
    const s = await stat(f).catch(() => null);
    if (s) stats.set(f, { ino: s.ino, size: s.size, mtimeMs: s.mtimeMs });
  });
  const current = (f: string): string | null => {
    const s = stats.get(f);
    const k = known.get(f);
    return s && k && k.ino === s.ino && k.size === s.size && k.mtimeMs === s.mtimeMs ? k.signature : null;
  };
  const stale = files.filter((f) => stats.has(f) && current(f) === null);
  if (stale.length) {
    onFooters?.(stale);
    const read = await readSignatures(stale);
    for (const f of stale) {
      const signature = read.get(f);
      if (signature === undefined) continue;
      known.delete(f);
      known.set(f, { ...stats.get(f)!, signature });
    }
    for (const f of known.keys()) {
      if (known.size <= MAX_KNOWN) break;
      known.delete(f);
    }
  }
  return new Map(files.map((f) => [f, current(f) ?? '']));
}
