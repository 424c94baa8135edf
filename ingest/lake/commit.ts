import { existsSync, readdirSync } from 'node:fs';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * A run's commit: every file it staged (partitions of all its tables, sorted copies included, and their catalog
 * entries) is listed in a manifest that is written and fsynced before the first rename. A crash before the manifest
 * leaves the lake as it was (the staged files are scratch of a dead run); a crash after it is rolled forward by the
 * next start, which applies the renames still pending. The manifest also names the changed partitions, so the roll
 * forward re-runs the events diff stage the killed run did not reach (events are deduplicated by key, so running it
 * twice appends nothing twice). The manifest is deleted only after the events are written.
 */
export interface Rename {
  from: string;
  to: string;
}

export interface RunManifest {
  run: string;
  dataset: string;
  /** The tables whose locks a roll forward takes, so it never interleaves with a live commit. */
  tables: string[];
  renames: Rename[];
  /** Files the renamed ones supersede (live append files folded into a partition), removed after every rename. */
  removals?: string[];
  changed: { table: string; partitions: string[] }[];
  /** Whether the diff stage should run once the renames are applied (off for benches). */
  events: boolean;
  /**
   * The dataset's own memory limit (`DatasetDef.memoryLimit`), which the diff stage runs within when
   * INGEST_MEMORY_LIMIT is unset: at the commit, and at a roll forward by another process (docs/events.md, "Memory").
   */
  diffMemoryLimit?: string;
}

export function commitsDir(lakeDir: string): string {
  return join(lakeDir, '_commits');
}

function manifestPath(lakeDir: string, run: string): string {
  return join(commitsDir(lakeDir), `${run}.json`);
}

async function fsyncPath(path: string): Promise<void> {
  const fh = await open(path, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** Writes the manifest durably: its bytes, then its name (the folder's entry) reach the disk before any rename. */
async function writeManifest(lakeDir: string, m: RunManifest): Promise<string> {
  const dir = commitsDir(lakeDir);
  await mkdir(dir, { recursive: true });
  const path = manifestPath(lakeDir, m.run);
  // The temp mark names the run, so a manifest half-written by a killed run is removed with the run's other scratch.
  const tmp = `${path}.tmp-${m.run}`;
  const fh = await open(tmp, 'w');
  try {
    await fh.writeFile(JSON.stringify(m));
    await fh.sync();
  } finally {
    await fh.close();
  }
  await rename(tmp, path);
  await fsyncPath(dir);
  return path;
}

/**
 * Applies a manifest's renames in order, then its removals. A rename whose staged file is gone was applied before
 * (by the run itself or an earlier roll forward) and is skipped, so applying twice is harmless; so is removing a
 * file already gone. Until the removals are done a partition's folded append files are read beside the file that
 * holds their rows, so a crash there is finished by the roll forward. `afterRename` is a test hook (crash
 * simulation between tables).
 */
async function applyRenames(m: RunManifest, afterRename?: (done: number, r: Rename) => void | Promise<void>): Promise<number> {
  let applied = 0;
  for (const r of m.renames) {
    if (existsSync(r.from)) {
      await rename(r.from, r.to);
      applied++;
    }
    await afterRename?.(applied, r);
  }
  for (const f of m.removals ?? []) await rm(f, { force: true });
  return applied;
}

async function removeManifest(lakeDir: string, run: string): Promise<void> {
  await rm(manifestPath(lakeDir, run), { force: true });
}

export interface CommitHooks {
  /** Called once the manifest is durable: from then on the run's staged files belong to the commit, not to scratch. */
  onDurable?: () => void;
  /** Called after each rename (crash simulation in tests). */
  afterRename?: (done: number, r: Rename) => void | Promise<void>;
  /** Work that must finish before the manifest goes (the events diff stage), so a crash before it is redone. */
  beforeRemove?: () => Promise<unknown>;
}

/**
 * The second half of a commit, shared by a run and by the roll forward of a dead run's manifest: the renames and
 * removals, the work the manifest still guards, then the manifest's removal.
 */
export async function finishCommit(lakeDir: string, m: RunManifest, hooks: CommitHooks = {}): Promise<void> {
  await applyRenames(m, hooks.afterRename);
  await hooks.beforeRemove?.();
  await removeManifest(lakeDir, m.run);
}

/** A run's whole commit: the durable manifest, then `finishCommit`. Every writer of the lake commits through here. */
export async function commitRun(lakeDir: string, m: RunManifest, hooks: CommitHooks = {}): Promise<void> {
  await writeManifest(lakeDir, m);
  hooks.onDurable?.();
  await finishCommit(lakeDir, m, hooks);
}

/** Manifests left in the lake, of live and dead runs (a half-written one never counts: its run had not started renaming). */
export async function pendingManifests(lakeDir: string): Promise<RunManifest[]> {
  const dir = commitsDir(lakeDir);
  if (!existsSync(dir)) return [];
  const out: RunManifest[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (!name.endsWith('.json')) continue;
    out.push(JSON.parse(await readFile(join(dir, name), 'utf8')) as RunManifest);
  }
  return out;
}
