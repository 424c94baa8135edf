import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Folders made by `tempDir` and not yet removed (the worker's test files share this module: vitest `isolate: false`). */
const made: string[] = [];

/**
 * A fresh folder under the system's temp folder (`<prefix>XXXXXX`), removed when the test file that made it ends
 * (`test/support/setup.ts`): a run of the suite used to leave about 40 such folders behind.
 */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Removes every folder `tempDir` made so far. */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}
