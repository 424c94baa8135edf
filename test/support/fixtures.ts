import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** `../shared` beside the checkout: CI always has it, a user's clone may not. */
const SHARED_DIR = process.env.SHARED_DIR ?? resolve(here, '../../../shared');
const FIXTURES_DIR = join(SHARED_DIR, 'fixtures/edgar');
export const hasFixtures = existsSync(FIXTURES_DIR);
export const fixturesSkipReason = `real fixtures not found at ${FIXTURES_DIR} (clone beside ../shared or set SHARED_DIR)`;

if (!hasFixtures && !process.env.VITEST_QUIET_FIXTURES) {
  // Said once per test file so a skipped run is never silent.
  console.warn(`[fixtures] skipping real-fixture tests: ${fixturesSkipReason}`);
}

export function fixturePath(rel: string): string {
  return join(FIXTURES_DIR, rel);
}

export async function readFixture(rel: string, encoding: BufferEncoding = 'utf8'): Promise<string> {
  return readFile(fixturePath(rel), encoding);
}

export async function readFixtureBytes(rel: string): Promise<Buffer> {
  return readFile(fixturePath(rel));
}
