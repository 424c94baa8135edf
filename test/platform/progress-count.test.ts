import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findIngester } from '../../ingest/pipeline/registry.ts';
import { runIngest } from '../../ingest/pipeline/runner.ts';
import { loadSettings, type Settings } from '../../schemas/settings.ts';

/**
 * Only the runner counts appended rows (a dataset counting them too doubled the progress lines: advisers showed 800
 * for 400); a SQL-path loader reports the rows its INSERTs staged. On a fresh lake both equal the rows written.
 */
describe('progress counts every staged row once', () => {
  let dataDir: string;
  let settings: Settings;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'progress-count-'));
    settings = loadSettings({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  async function ingestSample(name: string) {
    const def = (await findIngester(name))!;
    const dir = join(dataDir, 'samples', name);
    await def.sample!(dir, { seed: 42, scale: 1 });
    return runIngest(def, { from: dir }, settings, { quiet: true, skipDiff: true });
  }

  it('advisers (rows appended): the count is exactly the rows written', async () => {
    const s = await ingestSample('advisers');
    expect(s.rowsWritten).toBe(400);
    expect(s.rowsCounted).toBe(s.rowsWritten);
    // The summary's time by step: each step once, in the order the run took them, through the commit.
    const names = s.steps.map((t) => t.name);
    expect(names.slice(0, 3)).toEqual(['checking inputs are whole', 'reading inputs', 'staging rows']);
    expect(names).toContain('writing advisers');
    expect(names.at(-1)).toBe('committing');
    expect(new Set(names).size).toBe(names.length);
    for (const t of s.steps) expect(t.ms >= 0 && t.cpuMs >= 0).toBe(true);
  });

  it('broker-dealers (rows appended after assembling them): the count is exactly the rows written', async () => {
    const s = await ingestSample('broker-dealers');
    expect(s.rowsWritten).toBeGreaterThan(0);
    expect(s.rowsCounted).toBe(s.rowsWritten);
  });

  it('financial-statements (rows inserted with SQL): the loader reports them once', async () => {
    const s = await ingestSample('financial-statements');
    expect(s.rowsWritten).toBeGreaterThan(0);
    expect(s.rowsCounted).toBe(s.rowsWritten);
  });
});
