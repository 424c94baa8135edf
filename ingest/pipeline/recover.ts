import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { commitsDir, finishCommit, pendingManifests, type RunManifest } from '../lake/commit.ts';
import { withLock } from '../lake/lock.ts';
import { cleanDeadScratch, runIsLive, type CleanupResult } from '../lake/scratch.ts';
import { runDiffStage } from '../events/diff-stage.ts';
import type { Settings } from '../../schemas/settings.ts';

export interface RecoveryResult {
  /** Runs whose interrupted commit was finished (renames applied, events written). */
  rolledForward: string[];
  cleaned: CleanupResult;
}

async function withTableLocks<T>(settings: Settings, tables: string[], fn: () => Promise<T>, staleMs?: number): Promise<T> {
  const locks = tables.map((t) => join(settings.lakeDir, t, '.lock')).sort();
  return locks.reduceRight<() => Promise<T>>((next, lock) => () => withLock(lock, next, { staleMs }), fn)();
}

async function rollForward(settings: Settings, m: RunManifest, quiet?: boolean): Promise<boolean> {
  // Another process may have finished it while this one waited for the locks.
  if (!existsSync(join(commitsDir(settings.lakeDir), `${m.run}.json`))) return false;
  await finishCommit(settings.lakeDir, m, {
    beforeRemove: async () => {
      if (m.events && m.changed.length) await runDiffStage(settings, m.changed, { quiet, datasetMemoryLimit: m.diffMemoryLimit });
    },
  });
  return true;
}

/**
 * Run at the start of every ingest and of the server: finishes the commit of each run that died after writing its
 * manifest (under that run's table locks, so it never interleaves with a live commit), then removes the scratch
 * and temp files of dead runs. A manifest whose run is alive is left to its run.
 */
export async function recoverInterruptedRuns(settings: Settings, opts: { quiet?: boolean; staleMs?: number } = {}): Promise<RecoveryResult> {
  const rolledForward: string[] = [];
  for (const m of await pendingManifests(settings.lakeDir)) {
    if (await runIsLive(settings.dataDir, m.run, opts.staleMs)) continue;
    if (await withTableLocks(settings, m.tables, () => rollForward(settings, m, opts.quiet), opts.staleMs)) rolledForward.push(m.run);
  }
  const keep = new Set((await pendingManifests(settings.lakeDir)).flatMap((m) => m.renames.map((r) => r.from)));
  const cleaned = await cleanDeadScratch(settings.dataDir, settings.lakeDir, keep, opts.staleMs);
  return { rolledForward, cleaned };
}
