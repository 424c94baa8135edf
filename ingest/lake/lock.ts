import { lstat, mkdir, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import lockfile from 'proper-lockfile';

export interface LockOptions {
  /** How long to wait for a live holder before failing (a full-quarter ingest holds a table lock for minutes). */
  timeoutMs?: number;
  /**
   * A lock whose heartbeat (the lock's mtime, refreshed every staleMs/2 while its holder lives) is older than this
   * is stale and taken over: a killed process or a container restart stops the heartbeat, whatever pid is recorded.
   */
  staleMs?: number;
  /** Called when the heartbeat could not be refreshed in time: another process may have taken the lock over. */
  onCompromised?: (err: Error) => void;
}

/** 30 s: a dead holder blocks the next run at most this long; proper-lockfile refuses less than 2 s. */
export const LOCK_STALE_MS = 30_000;
const POLL_MS = 100;

/**
 * A lock from an older release (a regular file holding a pid) or an empty file left by a crash between create and
 * write: neither is a heartbeat lock, so it proves nothing about a live holder and is removed.
 */
async function removeLegacyLockFile(path: string): Promise<void> {
  const st = await lstat(path).catch(() => null);
  if (st && !st.isDirectory()) await rm(path, { force: true });
}

/**
 * Takes the lock at `path` (a directory created atomically by proper-lockfile) or throws ELOCKED at once; the
 * returned function releases it. Staleness is judged by the heartbeat's age only.
 */
export async function tryLock(path: string, opts: LockOptions = {}): Promise<() => Promise<void>> {
  await mkdir(dirname(path), { recursive: true });
  await removeLegacyLockFile(path);
  return lockfile.lock(path, {
    lockfilePath: path,
    realpath: false,
    stale: opts.staleMs ?? LOCK_STALE_MS,
    retries: 0,
    // proper-lockfile's default throws from a timer (an uncaught exception that would kill the server): warn instead.
    onCompromised: opts.onCompromised ?? ((err) => process.emitWarning(`lock ${path} compromised: ${err.message}`)),
  });
}

/** Whether a live holder (fresh heartbeat) has the lock at `path`. */
export async function isLocked(path: string, staleMs = LOCK_STALE_MS): Promise<boolean> {
  const st = await lstat(path).catch(() => null);
  if (!st?.isDirectory()) return false;
  return lockfile.check(path, { lockfilePath: path, realpath: false, stale: staleMs }).catch(() => false);
}

/**
 * A lock per table, so two ingests of the same table (the nightly lane inside the server and a CLI run) never
 * interleave their commits. Waits for a live holder up to `timeoutMs`; a stale or legacy lock is taken over.
 */
export async function withLock<T>(path: string, fn: () => Promise<T>, opts: LockOptions = {}): Promise<T> {
  const deadline = Date.now() + (opts.timeoutMs ?? 30 * 60_000);
  let release: () => Promise<void>;
  for (;;) {
    try {
      release = await tryLock(path, opts);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ELOCKED') throw err;
      if (Date.now() >= deadline) throw new Error(`timed out waiting for lock ${path}: another ingest holds it and its heartbeat is fresh`);
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }
  try {
    return await fn();
  } finally {
    await release().catch(() => undefined);
  }
}
