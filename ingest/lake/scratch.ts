import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { lstat, mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { isLocked, LOCK_STALE_MS, tryLock } from './lock.ts';

/**
 * A run's scratch space: `<data>/.work/<run id>/` (its DuckDB work file and spill), owned through a heartbeat lock
 * `<data>/.work/<run id>.lock`. Files a run writes into the lake before its commit carry `.tmp-<run id>` in their
 * names, so the leftovers of a dead run (a killed ingest left 3.3 GB of scratch and zero-byte temp files) can be
 * told from a live run's and removed by the next start.
 */
export interface RunScratch {
  id: string;
  workDir: string;
  /** Removes the work folder and drops the run's lock. */
  finish(): Promise<void>;
}

export function workRoot(dataDir: string): string {
  return join(dataDir, '.work');
}

const TEMP_MARK = '.tmp-';

/**
 * The run id a temp file name carries, or null for a name that is not a temp file. A staged serving copy
 * (ingest/lake/serving.ts) is a DuckDB file: a run killed while writing it also leaves its `<name>.wal`.
 */
function runOfTemp(name: string): string | null {
  const i = name.lastIndexOf(TEMP_MARK);
  if (i < 0) return null;
  const run = name.slice(i + TEMP_MARK.length);
  return run.endsWith('.wal') ? run.slice(0, -'.wal'.length) : run;
}

export async function startRun(dataDir: string, label: string, staleMs = LOCK_STALE_MS): Promise<RunScratch> {
  const id = `${label}-${randomUUID().slice(0, 8)}`;
  const root = workRoot(dataDir);
  const workDir = join(root, id);
  // The lock first: a cleaner that sees the folder always sees the lock of its live owner.
  const release = await tryLock(`${workDir}.lock`, { staleMs });
  await mkdir(workDir, { recursive: true });
  return {
    id,
    workDir,
    async finish() {
      await rm(workDir, { recursive: true, force: true });
      await release().catch(() => undefined);
    },
  };
}

/** Whether the run `id` is alive (its lock's heartbeat is fresh). */
export function runIsLive(dataDir: string, id: string, staleMs = LOCK_STALE_MS): Promise<boolean> {
  return isLocked(join(workRoot(dataDir), `${id}.lock`), staleMs);
}

export interface CleanupResult {
  workDirs: string[];
  tempFiles: string[];
}

/**
 * Removes the scratch of dead runs: work folders whose lock is stale or gone, and temp files in the lake whose run
 * is dead (except files a pending commit manifest still has to rename: `keep`). A temp file naming no run (written
 * outside a run) is removed only once older than `staleMs`, so a write in flight is never pulled away.
 */
export async function cleanDeadScratch(dataDir: string, lakeDir: string, keep: Set<string>, staleMs = LOCK_STALE_MS, now = Date.now()): Promise<CleanupResult> {
  const out: CleanupResult = { workDirs: [], tempFiles: [] };
  const root = workRoot(dataDir);
  const dead = new Set<string>();
  if (existsSync(root)) {
    for (const name of readdirSync(root)) {
      const id = name.endsWith('.lock') ? name.slice(0, -'.lock'.length) : name;
      if (!dead.has(id) && (await runIsLive(dataDir, id, staleMs))) continue;
      dead.add(id);
      await rm(join(root, name), { recursive: true, force: true });
      if (!name.endsWith('.lock')) out.workDirs.push(join(root, name));
    }
  }
  if (!existsSync(lakeDir)) return out;
  const dirs: string[] = [];
  for (const table of readdirSync(lakeDir, { withFileTypes: true })) {
    if (!table.isDirectory()) continue;
    const tdir = join(lakeDir, table.name);
    dirs.push(tdir);
    for (const part of readdirSync(tdir, { withFileTypes: true })) if (part.isDirectory() && part.name.includes('=')) dirs.push(join(tdir, part.name));
  }
  for (const dir of dirs) {
    for (const name of readdirSync(dir)) {
      const run = runOfTemp(name);
      const path = join(dir, name);
      if (run == null || keep.has(path)) continue;
      const known = dead.has(run) || existsSync(join(root, `${run}.lock`));
      if (known ? !dead.has(run) : now - ((await lstat(path).catch(() => null))?.mtimeMs ?? now) < staleMs) continue;
      await rm(path, { recursive: true, force: true });
      out.tempFiles.push(path);
    }
  }
  return out;
}
