import { mkdir, open, readFile, rm } from 'node:fs/promises';
import { dirname } from 'node:path';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * A lock file per table, so two ingests of the same table (the nightly lane inside the server and a CLI run)
 * never interleave their catalog updates. A lock left by a crashed process (dead pid) is taken over.
 */
export async function withLock<T>(path: string, fn: () => Promise<T>, timeoutMs = 30 * 60_000): Promise<T> {
  await mkdir(dirname(path), { recursive: true });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const fh = await open(path, 'wx');
      await fh.writeFile(String(process.pid));
      await fh.close();
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number(await readFile(path, 'utf8').catch(() => '0'));
      if (pid && pid !== process.pid && !alive(pid)) {
        await rm(path, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`timed out waiting for lock ${path} (held by pid ${pid})`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  try {
    return await fn();
  } finally {
    await rm(path, { force: true });
  }
}
