import { mkdtemp, mkdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLocked, tryLock, withLock } from '../../ingest/lake/lock.ts';

/**
 * Table locks survive restarts: staleness is the heartbeat's age (the lock's mtime, refreshed while its holder
 * lives), never a recorded pid. Thresholds are injected and ages set with utimes: no test waits.
 */
describe('heartbeat locks', () => {
  let dir: string;
  const hourAgo = () => new Date(Date.now() - 3_600_000);
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'filings-locks-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('an empty lock file (a crash between create and write) is stale: taken at once', async () => {
    const path = join(dir, 'empty', '.lock');
    await mkdir(join(dir, 'empty'));
    await writeFile(path, '');
    expect(await withLock(path, async () => 'ran', { timeoutMs: 0 })).toBe('ran');
  });

  it('a lock file holding a live unrelated pid (after a container restart) is taken at once', async () => {
    const path = join(dir, 'pid', '.lock');
    await mkdir(join(dir, 'pid'));
    // The parent process is alive and is not the holder: a bare pid proves nothing about the lock.
    await writeFile(path, String(process.ppid));
    expect(await withLock(path, async () => 'ran', { timeoutMs: 0 })).toBe('ran');
  });

  it('a lock whose heartbeat stopped longer ago than the threshold is taken over; a fresh one is not', async () => {
    const path = join(dir, 'beat', '.lock');
    const releaseDead = await tryLock(path, { staleMs: 60_000 });
    expect(await isLocked(path, 60_000)).toBe(true);
    await expect(withLock(path, async () => 'ran', { timeoutMs: 0, staleMs: 60_000 })).rejects.toThrow(/heartbeat is fresh/);
    // The holder "dies": its heartbeat is an hour old, past the injected 60 s threshold.
    await utimes(path, hourAgo(), hourAgo());
    expect(await isLocked(path, 60_000)).toBe(false);
    expect(await withLock(path, async () => 'ran', { timeoutMs: 0, staleMs: 60_000 })).toBe('ran');
    await releaseDead().catch(() => undefined);
  });

  it('the lock is released when the work throws, and a held lock is a directory with a fresh heartbeat', async () => {
    const path = join(dir, 'throw', '.lock');
    await expect(
      withLock(path, async () => {
        expect((await stat(path)).isDirectory()).toBe(true);
        expect(await isLocked(path)).toBe(true);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await isLocked(path)).toBe(false);
  });
});
