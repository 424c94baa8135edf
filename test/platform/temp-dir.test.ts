import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../support/temp-dir.ts';

describe('test temp folders', () => {
  it('are made under the system temp folder and all removed by removeTempDirs (setup.ts runs it after each file)', () => {
    const dirs = [tempDir('temp-dir-a-'), tempDir('temp-dir-b-')];
    for (const d of dirs) {
      expect(d.startsWith(tmpdir())).toBe(true);
      expect(existsSync(d)).toBe(true);
    }
    removeTempDirs();
    for (const d of dirs) expect(existsSync(d)).toBe(false);
  });
});
