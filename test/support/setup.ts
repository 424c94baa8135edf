import { afterAll } from 'vitest';
import { removeTempDirs } from './temp-dir.ts';

// Run for every test file (vitest `setupFiles`): the folders a file made with `tempDir` go when it ends.
afterAll(removeTempDirs);
