import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCatalogEntry } from '../../ingest/lake/catalog.ts';
import { commitsDir } from '../../ingest/lake/commit.ts';
import { startRun, workRoot } from '../../ingest/lake/scratch.ts';
import { recoverInterruptedRuns } from '../../ingest/pipeline/recover.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import raises from '../../ingest/datasets/raises/dataset.ts';
import { pairsById, pairsByName, twoTableIngester, writePairsCsv } from './toy-two-tables.ts';

const run = promisify(execFile);

/** Every file below `dir` whose name marks it as uncommitted scratch. */
function tempFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((p) => p.includes('.tmp-'));
}

/** Ages every heartbeat lock below `dir` by an hour: what a dead holder's lock looks like once the threshold has passed. */
async function ageLocks(dir: string): Promise<void> {
  const old = new Date(Date.now() - 3_600_000);
  for (const p of readdirSync(dir, { recursive: true, encoding: 'utf8' })) if (p.endsWith('.lock')) await utimes(join(dir, p), old, old);
}

describe('a dataset commits all its tables together (crash safety)', () => {
  let app: TestApp;
  const names = async (table: string) =>
    (await app.services.lake.query(`SELECT DISTINCT split_part(name, ' ', 1) AS label FROM ${table} ORDER BY 1`)).map((r) => r.label);
  const both = async () => ({ byId: await names('toy_pairs'), byName: await names('toy_pairs_by_name') });

  beforeAll(async () => {
    app = await createTestApp({ extraTables: [pairsById, pairsByName] });
    await writePairsCsv(join(app.dataDir, 'v1'), 'v1');
    await app.ingest(twoTableIngester, { from: join(app.dataDir, 'v1') });
  });
  afterAll(() => app.close());

  it('a crash after the first table is renamed is rolled forward by the next start: both tables show the new run', async () => {
    await writePairsCsv(join(app.dataDir, 'v2'), 'v2');
    const crash = app.ingest(
      twoTableIngester,
      { from: join(app.dataDir, 'v2') },
      {
        afterRename: (done) => {
          if (done === 1) throw new Error('simulated crash between tables');
        },
      },
    );
    await expect(crash).rejects.toThrow(/simulated crash between tables/);
    // The hazard the manifest exists for: one table new, its sorted copy old, until the commit is finished.
    expect(await both()).toEqual({ byId: ['v2'], byName: ['v1'] });
    expect(readdirSync(commitsDir(app.settings.lakeDir))).toHaveLength(1);

    const r = await recoverInterruptedRuns(app.settings, { quiet: true });
    expect(r.rolledForward).toHaveLength(1);
    expect(await both()).toEqual({ byId: ['v2'], byName: ['v2'] });
    for (const t of ['toy_pairs', 'toy_pairs_by_name']) {
      const cat = await readCatalogEntry(app.settings.lakeDir, t);
      expect(cat!.partitions[0].inputs[0].path).toContain(join('v2', 'pairs-2026-05-01.csv'));
    }
    expect(readdirSync(commitsDir(app.settings.lakeDir))).toEqual([]);
    expect(tempFiles(app.settings.lakeDir)).toEqual([]);
    expect(await readdir(workRoot(app.dataDir))).toEqual([]);
  });

  it('an ingest process killed (SIGKILL) mid-commit is finished by the next start, and its scratch and locks are removed', async () => {
    await writePairsCsv(join(app.dataDir, 'v3'), 'v3');
    const env = { ...process.env, DATA_DIR: app.dataDir, LOG_LEVEL: 'silent' };
    const killed = await run(process.execPath, ['--import', 'tsx', 'test/platform/crash-ingest-child.ts', join(app.dataDir, 'v3')], { env }).catch(
      (e: { signal?: string }) => e,
    );
    expect((killed as { signal?: string }).signal).toBe('SIGKILL');
    expect(await both()).toEqual({ byId: ['v3'], byName: ['v2'] });
    expect((await readdir(workRoot(app.dataDir))).length).toBeGreaterThan(0);
    expect(tempFiles(app.settings.lakeDir).length).toBeGreaterThan(0);

    // The killed process's locks still look fresh; past the staleness threshold they are taken over (no real wait).
    await ageLocks(app.dataDir);
    const r = await recoverInterruptedRuns(app.settings, { quiet: true });
    expect(r.rolledForward).toHaveLength(1);
    expect(r.cleaned.workDirs).toHaveLength(1);
    expect(await both()).toEqual({ byId: ['v3'], byName: ['v3'] });
    expect(tempFiles(app.settings.lakeDir)).toEqual([]);
    expect(await readdir(workRoot(app.dataDir))).toEqual([]);

    // And the next ingest runs normally on the recovered lake.
    await writePairsCsv(join(app.dataDir, 'v4'), 'v4');
    await app.ingest(twoTableIngester, { from: join(app.dataDir, 'v4') });
    expect(await both()).toEqual({ byId: ['v4'], byName: ['v4'] });
  });

  it("the next start removes a dead run's scratch and temp files and keeps a live run's", async () => {
    const part = join(app.settings.lakeDir, 'toy_pairs', 'snapshot_date=2026-05-01');
    const dead = join(workRoot(app.dataDir), 'toy_pairs-deadbeef');
    await mkdir(join(dead, 'spill'), { recursive: true });
    await writeFile(join(dead, 'spill', 'duckdb_temp_block'), Buffer.alloc(1 << 20));
    await mkdir(`${dead}.lock`);
    await ageLocks(app.dataDir);
    await writeFile(join(part, '.0a1b2c3d-data.parquet.tmp-toy_pairs-deadbeef'), '');
    const live = await startRun(app.dataDir, 'toy_pairs');
    await writeFile(join(part, `.0a1b2c3d-data.parquet.tmp-${live.id}`), '');
    try {
      const r = await recoverInterruptedRuns(app.settings, { quiet: true });
      expect(r.cleaned.workDirs).toEqual([dead]);
      expect(r.cleaned.tempFiles).toEqual([join(part, '.0a1b2c3d-data.parquet.tmp-toy_pairs-deadbeef')]);
      expect((await readdir(workRoot(app.dataDir))).sort()).toEqual([live.id, `${live.id}.lock`]);
      expect(tempFiles(part)).toEqual([`.0a1b2c3d-data.parquet.tmp-${live.id}`]);
    } finally {
      await live.finish();
    }
  });
});

describe('the events of a run killed mid-commit appear with the roll forward, not only after a rerun', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  it('Form D offerings: no events after the crash, their events once the next start finishes the commit', async () => {
    const dir = join(app.dataDir, 'raises');
    await raises.sample!(dir, { seed: 1, scale: 1 });
    const crash = app.ingest(
      // The dataset's own memory limit bounds its diff stage, the roll forward's included (the manifest carries it).
      { ...raises, memoryLimit: '512MB' },
      { from: dir },
      {
        afterRename: (done) => {
          if (done === 1) throw new Error('simulated crash after the first rename');
        },
      },
    );
    await expect(crash).rejects.toThrow(/simulated crash/);
    // The roll forward commits outside the app: its views take the new files in at a refresh.
    const formD = async () => {
      await app.services.lake.refresh();
      return Number((await app.services.lake.query("SELECT count(*) AS n FROM events WHERE event_type LIKE 'sec.formd.%'"))[0].n);
    };
    expect(await formD()).toBe(0);
    const [name] = readdirSync(commitsDir(app.settings.lakeDir));
    const manifestFile = join(commitsDir(app.settings.lakeDir), name);
    const manifest = JSON.parse(await readFile(manifestFile, 'utf8'));
    expect(manifest.diffMemoryLimit).toBe('512MB');
    // A roll forward whose stage cannot fit the recorded limit fails whole: no events, the manifest kept for the next start.
    await writeFile(manifestFile, JSON.stringify({ ...manifest, diffMemoryLimit: '1KB' }));
    await expect(recoverInterruptedRuns(app.settings, { quiet: true })).rejects.toThrow(/Out of Memory/);
    expect(await formD()).toBe(0);
    await writeFile(manifestFile, JSON.stringify(manifest));
    const r = await recoverInterruptedRuns(app.settings, { quiet: true });
    expect(r.rolledForward).toHaveLength(1);
    const n = await formD();
    expect(n).toBeGreaterThan(0);
    // A second start finds nothing to finish and appends nothing twice.
    expect((await recoverInterruptedRuns(app.settings, { quiet: true })).rolledForward).toEqual([]);
    expect(await formD()).toBe(n);
  });
});
