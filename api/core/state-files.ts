import { chmod, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * The state store holds webhook secrets and API key hashes, so its files are the owner's alone: 0600 for the
 * DuckDB file and its write-ahead log, 0700 for the directory when we create it.
 */
const STATE_FILE_MODE = 0o600;
const STATE_DIR_MODE = 0o700;
const PRIVATE_UMASK = 0o077;

/** Creates the state file's directory (owner-only) if missing; an existing directory keeps its mode. */
export async function prepareStateDir(path: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: STATE_DIR_MODE });
}

/** Sets 0600 on the state file and its WAL when they exist (also heals a file an older version left 0644). */
export async function restrictStateFiles(path: string): Promise<void> {
  for (const f of [path, `${path}.wal`]) await chmod(f, STATE_FILE_MODE).catch(() => undefined);
}

/**
 * Runs `fn` with the process umask at 077, so a file DuckDB creates meanwhile is owner-only from its first byte:
 * DuckDB creates the WAL lazily, on the first write after each checkpoint (measured: a chmod after open left the
 * next WAL 0644). Statements run one at a time (the store's queue), so the mask is set around exactly the calls
 * that may create a file; a file the process creates elsewhere meanwhile is only made more private. Worker threads
 * cannot set the umask: there the chmod after each statement does the job.
 */
export async function withPrivateUmask<T>(path: string, fn: () => Promise<T>): Promise<T> {
  let previous: number | null = null;
  try {
    previous = process.umask(PRIVATE_UMASK);
  } catch {
    previous = null;
  }
  try {
    return await fn();
  } finally {
    if (previous !== null) process.umask(previous);
    else await restrictStateFiles(path);
  }
}
