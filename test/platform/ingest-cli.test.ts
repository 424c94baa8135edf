import { copyFile, mkdir, mkdtemp, readFile, readdir, rm, truncate } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCatalogEntry } from '../../ingest/lake/catalog.ts';
import { writeRosterSample } from '../../ingest/datasets/advisers/sample.ts';
import dataset13f from '../../ingest/datasets/13f/dataset.ts';
import { commandOutcome } from '../support/processes.ts';

/**
 * `npm run ingest` on the advisers roster, whose monthly snapshot is two files (registered and exempt-reporting
 * advisers): a partial set or a cut download exits 3 and leaves the snapshot as it was; `--force` replaces it. Run
 * through the launcher, as the npm script does (the prebuilt bundle, ingest/cli-bundle.cjs).
 */
describe('ingest CLI: refusals, exit codes and --force', () => {
  let dataDir: string;
  let full: string;
  let ria: string;
  let era: string;
  const cli = (...args: string[]) =>
    commandOutcome(process.execPath, ['ingest/cli-launch.cjs', 'ingest', 'advisers', '--quiet', ...args], { env: { DATA_DIR: dataDir } });
  const rows = async () => (await readCatalogEntry(join(dataDir, 'lake'), 'advisers'))!.record_count;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'filings-cli-'));
    full = join(dataDir, 'full');
    ({ ria, era } = await writeRosterSample(full, { seed: 7, scale: 1 }));
    const first = await cli('--from', full);
    expect(first.code).toBe(0);
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('one file of a two-file snapshot exits 3, naming the missing file; the snapshot keeps both', async () => {
    const before = await rows();
    const r = await cli('--from', ria);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('not replacing the lake');
    expect(r.stderr).toContain(`this run lacks ${era.split('/').pop()}`);
    expect(await rows()).toBe(before);
  });

  it('a run out of memory exits 1, names the limit it ran within and the setting that raises it; the snapshot stays', async () => {
    const before = await rows();
    const r = await commandOutcome(process.execPath, ['ingest/cli-launch.cjs', 'ingest', 'advisers', '--quiet', '--from', full], {
      env: { DATA_DIR: dataDir, INGEST_MEMORY_LIMIT: '1KB' },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('advisers: ingest failed: Out of Memory Error');
    expect(r.stderr).toContain('This ran within 1KB (INGEST_MEMORY_LIMIT); set INGEST_MEMORY_LIMIT to a larger size');
    expect(await rows()).toBe(before);
    expect(await readdir(join(dataDir, '.work'))).toEqual([]);
  });

  it('a roster zip cut short exits 3 naming it, and --force replaces anyway (exit 0)', async () => {
    const before = await rows();
    const cut = join(dataDir, 'cut');
    await mkdir(cut);
    for (const f of [ria, era]) await copyFile(f, join(cut, f.split('/').pop()!));
    const cutRia = join(cut, ria.split('/').pop()!);
    await truncate(cutRia, Math.floor((await readFile(cutRia)).length / 2));
    const r = await cli('--from', cut);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/ia\d+\.zip: the zip has no central directory at its end/);
    expect(await rows()).toBe(before);

    const forced = await cli('--from', ria, '--force');
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain('replaced despite (--force)');
    expect(await rows()).toBeLessThan(before);
    // Nothing of the refused or forced runs is left behind.
    expect(await readdir(join(dataDir, '.work'))).toEqual([]);
  });
});

/**
 * The summary's events line tells what the diff stage drafted and what was new: a rerun of the same input drafts the
 * same events and appends none (docs/events.md).
 */
describe('ingest CLI: the events line', () => {
  let dataDir: string;
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('prints the events appended of those drafted, and none appended on a rerun', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'filings-cli-events-'));
    const src = join(dataDir, 'src');
    await dataset13f.sample!(src, { seed: 7, scale: 1 });
    const run = () => commandOutcome(process.execPath, ['ingest/cli-launch.cjs', 'ingest', '13f', '--quiet', '--from', src], { env: { DATA_DIR: dataDir } });
    const first = await run();
    expect(first.code).toBe(0);
    const [, appended, drafted] = first.stdout.match(/events: (\d+) new of (\d+) drafted/)!.map(Number);
    expect(appended).toBeGreaterThan(100);
    expect(drafted).toBe(appended);
    const again = await run();
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`events: 0 new of ${drafted} drafted`);
  });
});
