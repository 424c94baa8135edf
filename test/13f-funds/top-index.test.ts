import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createTestApp } from '../support/harness.ts';
import dataset13f from '../../ingest/datasets/13f/dataset.ts';
import { openDuck } from '../../ingest/lake/duck.ts';
import { createTopIndex, type TopIndex } from '../../ingest/lake/top-index.ts';
import { openTopIndexFiles } from '../../ingest/lake/top-index-files.ts';
import { openLakeReader } from '../../ingest/lake/index.ts';
import { openLake } from '../../api/core/lake.ts';
import { holdings13f } from '../../schemas/tables/13f.ts';

/** A folder of top index files for one test, removed after it. */
function indexDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'top-index-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The id of a process that has ended. */
const deadPid = () => spawnSync(process.execPath, ['-e', 'process.exit(0)']).pid!;

/** A DuckDB instance with a stand-in serving copy `serving_probe` whose `top` table holds 9 rows of 3 CUSIPs. */
async function withCopy() {
  const { instance, conn } = await openDuck(':memory:');
  await conn.run("ATTACH ':memory:' AS serving_probe");
  await conn.run("CREATE TABLE serving_probe.top AS SELECT 'C' || (i % 3) AS cusip, '2024Q4' AS period, i AS value_usd FROM range(9) t(i)");
  onTestFinished(() => {
    conn.closeSync();
    instance.closeSync();
  });
  return { instance, conn };
}

const spec = { ...holdings13f, name: 'top_probe' };
const copies = (fingerprint: string) => new Map([['2024Q4', { alias: 'serving_probe', top: true, fingerprint }]]);
/** The file attached for the index's relation over 2024Q4. */
async function indexFile(conn: DuckDBConnection, index: TopIndex): Promise<string> {
  const alias = index.relation(spec, ['2024Q4'], () => 'serving_probe')?.match(/"(top_\d+)"\.top/)?.[1];
  expect(alias).toBeDefined();
  const [[path]] = (await conn.runAndReadAll(`SELECT path FROM duckdb_databases() WHERE database_name = '${alias}'`)).getRows();
  return String(path);
}

/** A lake folder for one test (the scope of its indexes), removed after it. */
function lakeDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'top-index-scope-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * The top index's files (ingest/lake/top-index-files.ts) are shared by the readers of a host: named by what the index
 * is built from, built by the first reader that needs one, attached by the others, removed with their last user
 * unless that user closes while the lake is there (then kept for the next start).
 */
describe('top index files', () => {
  it('two readers of the same copies build the index once and share its file, which goes with its last user', async () => {
    const dir = indexDir();
    const built: string[] = [];
    const a = await withCopy();
    const b = await withCopy();
    const ia = await createTopIndex(a.instance, 'lake', { dir, onBuild: (id) => built.push(`a:${id}`) });
    const ib = await createTopIndex(b.instance, 'lake', { dir, onBuild: (id) => built.push(`b:${id}`) });
    ia.update(spec, copies('f1'), '');
    await ia.settled();
    ib.update(spec, copies('f1'), '');
    await ib.settled();
    expect(built).toHaveLength(1);
    expect(built[0]).toMatch(/^a:/);
    const file = await indexFile(a.conn, ia);
    expect(await indexFile(b.conn, ib)).toBe(file);
    expect(readdirSync(dir).filter((n) => n.endsWith('.use'))).toHaveLength(2);
    // Another data file behind the same partition, or another lake: another index.
    const ic = await createTopIndex(b.instance, 'other lake', { dir, onBuild: (id) => built.push(`c:${id}`) });
    ic.update(spec, copies('f1'), '');
    await ic.settled();
    await ic.close();
    ib.update(spec, copies('f2'), '');
    await ib.settled();
    expect(built.map((x) => x.slice(0, 2))).toEqual(['a:', 'c:', 'b:']);
    expect(new Set(built.map((x) => x.slice(2))).size).toBe(3);
    await ia.close();
    // b still uses its first index until its next build retires it: the file stays while it is attached.
    expect(existsSync(file)).toBe(true);
    await ib.close();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('the last reader to close keeps the index while its lake is there: a restart attaches it; newer data or the lake gone removes it', async () => {
    const dir = indexDir();
    const lake = lakeDir();
    const built: string[] = [];
    const onBuild = (id: string) => built.push(id);
    const a = await withCopy();
    const ia = await createTopIndex(a.instance, lake, { dir, onBuild });
    ia.update(spec, copies('f1'), '');
    await ia.settled();
    // Replaced by a build over newer copies: still attached here (a page may hold it), and not kept.
    ia.update(spec, copies('f2'), '');
    await ia.settled();
    const file = await indexFile(a.conn, ia);
    const note = `filings-top-${built[1].slice(0, 16)}.lake`;
    expect(built[0].slice(0, 16)).toBe(built[1].slice(0, 16));
    await ia.close();
    expect(readdirSync(dir).sort()).toEqual([basename(file), note].sort());
    // A restart on the same copies: the kept file is attached, nothing built.
    const b = await withCopy();
    const ib = await createTopIndex(b.instance, lake, { dir, onBuild });
    ib.update(spec, copies('f2'), '');
    await ib.settled();
    expect(built).toHaveLength(2);
    expect(await indexFile(b.conn, ib)).toBe(file);
    await ib.close();
    // The data changed while no reader ran: the next reader builds the new index and removes the kept one.
    const c = await withCopy();
    const ic = await createTopIndex(c.instance, lake, { dir, onBuild });
    ic.update(spec, copies('f3'), '');
    await ic.settled();
    expect(built).toHaveLength(3);
    expect(existsSync(file)).toBe(false);
    const newer = await indexFile(c.conn, ic);
    await ic.close();
    expect(readdirSync(dir).sort()).toEqual([basename(newer), note].sort());
    // The lake folder gone: the next opening removes its index and its note.
    rmSync(lake, { recursive: true });
    openTopIndexFiles(dir);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('waits for an index a living reader is building, and attaches it; takes over the lock of a dead one', async () => {
    const dir = indexDir();
    const built: string[] = [];
    const a = await withCopy();
    const ia = await createTopIndex(a.instance, 'lake', { dir });
    ia.update(spec, copies('f1'), '');
    await ia.settled();
    const file = await indexFile(a.conn, ia);
    const id = /filings-top-([0-9a-f]+)\.duckdb$/.exec(file)![1];
    // As if a living reader were building it: the file out of place, the lock naming a living owner.
    renameSync(file, `${file}.aside`);
    writeFileSync(join(dir, `filings-top-${id}.lock`), `${process.pid}-0000abcd`);
    let waits = 0;
    const b = await withCopy();
    const ib = await createTopIndex(b.instance, 'lake', {
      dir,
      onBuild: (x) => built.push(x),
      // The builder finishes while the reader waits.
      wait: async () => {
        if (++waits === 1) {
          renameSync(`${file}.aside`, file);
          rmSync(join(dir, `filings-top-${id}.lock`));
        }
      },
    });
    ib.update(spec, copies('f1'), '');
    await ib.settled();
    expect(waits).toBe(1);
    expect(built).toEqual([]);
    expect(await indexFile(b.conn, ib)).toBe(file);
    // A lock whose owner died: taken over at once, the index built here.
    const c = await withCopy();
    const ic = await createTopIndex(c.instance, 'lake', { dir, onBuild: (x) => built.push(x), wait: async () => void waits++ });
    writeFileSync(join(dir, `filings-top-${id.replace(/./, '0')}.lock`), `${deadPid()}-0000abcd`);
    ic.update(spec, copies('f3'), '');
    await ic.settled();
    expect(waits).toBe(1);
    expect(built).toHaveLength(1);
    await Promise.all([ia.close(), ib.close(), ic.close()]);
  });

  it('opening removes what dead readers left and indexes no living reader uses of lakes gone; keeps the others', async () => {
    const dir = indexDir();
    const dead = deadPid();
    const names = {
      deadUse: `filings-top-aa.${dead}-00000001.use`,
      deadScratch: `filings-top-aa.${dead}-00000001.tmp`,
      deadLock: 'filings-top-aa.lock',
      unused: 'filings-top-aa.duckdb',
      liveUse: `filings-top-bb.${process.pid}-00000002.use`,
      used: 'filings-top-bb.duckdb',
      building: `filings-top-cc.${process.pid}-00000003.tmp`,
      liveLock: 'filings-top-cc.lock',
      oldDead: `filings-top-${dead}-deadbeef.duckdb`,
      oldLive: `filings-top-${process.pid}-cafebabe.duckdb`,
      other: 'notes.txt',
      // Kept by the last reader of a lake still there; and of a lake removed since.
      kept: `filings-top-${'d'.repeat(16)}${'1'.repeat(16)}.duckdb`,
      keptNote: `filings-top-${'d'.repeat(16)}.lake`,
      orphan: `filings-top-${'e'.repeat(16)}${'1'.repeat(16)}.duckdb`,
      orphanNote: `filings-top-${'e'.repeat(16)}.lake`,
      deadNoteScratch: `filings-top-${'e'.repeat(16)}.${dead}-00000004.tmp`,
    };
    for (const n of Object.values(names)) writeFileSync(join(dir, n), '');
    writeFileSync(join(dir, names.deadLock), `${dead}-00000001`);
    writeFileSync(join(dir, names.liveLock), `${process.pid}-00000003`);
    writeFileSync(join(dir, names.keptNote), lakeDir());
    writeFileSync(join(dir, names.orphanNote), join(tmpdir(), 'top-index-no-such-lake'));
    const { instance } = await withCopy();
    const index = await createTopIndex(instance, 'lake', { dir });
    expect(readdirSync(dir).sort()).toEqual(
      [names.liveUse, names.used, names.building, names.liveLock, names.oldLive, names.other, names.kept, names.keptNote].sort(),
    );
    await index.close();
  });

  it('the API’s lake builds indexes; the ingest’s readers (diff stage, events writer) do not', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'top-index-lake-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const builds: string[] = [];
    const hooks = { onTopIndexBuild: (id: string) => builds.push(id) };
    const app = await createTestApp({ routes: [], lake: { every: () => () => {} } });
    try {
      await app.ingestSample(dataset13f, { scale: 0.05, skipDiff: true });
      const reader = await openLakeReader(app.settings.lakeDir, [], hooks, { serving: true, topIndexDir: dir });
      await reader.preloaded();
      await reader.close();
      expect(builds).toEqual([]);
      const lake = await openLake(app.settings.lakeDir, { refreshMs: 0, hooks, topIndexDir: dir });
      await lake.preloaded();
      // holdings_13f and holdings_13f_by_manager.
      expect(builds).toHaveLength(2);
      // Another process's view of the same lake through a symlink: the same indexes, attached, not built.
      const link = join(dir, 'lake-link');
      symlinkSync(app.settings.lakeDir, link);
      const other = await openLake(link, { refreshMs: 0, hooks, topIndexDir: dir });
      await other.preloaded();
      expect(builds).toHaveLength(2);
      await other.close();
      await lake.close();
    } finally {
      await app.close();
    }
  });

  it('a failed build is asked for again by the next update with the same copies; a built index answers for them only', async () => {
    const { instance, conn } = await openDuck(':memory:');
    const errors: string[] = [];
    const index = await createTopIndex(instance, 'lake', { dir: indexDir(), onError: (err) => errors.push(err.message) });
    try {
      const copies = new Map([['2024Q4', { alias: 'serving_probe', top: true, fingerprint: 'f1' }]]);
      // The copy is not attached yet: the build fails, and the same copies are built again on the next update.
      index.update(spec, copies, '');
      await index.settled();
      expect(errors).toHaveLength(1);
      expect(index.relation(spec, ['2024Q4'], () => 'serving_probe')).toBeNull();
      await conn.run("ATTACH ':memory:' AS serving_probe");
      await conn.run("CREATE TABLE serving_probe.top AS SELECT 'C' || (i % 3) AS cusip, '2024Q4' AS period, i AS value_usd FROM range(9) t(i)");
      index.update(spec, copies, '');
      await index.settled();
      expect(errors).toHaveLength(1);
      const select = index.relation(spec, ['2024Q4'], () => 'serving_probe');
      expect(select).not.toBeNull();
      const rows = (await conn.runAndReadAll(`SELECT cusip, value_usd FROM (${select}) WHERE cusip = 'C1' ORDER BY value_usd`)).getRowObjectsJson();
      expect(rows).toEqual([
        { cusip: 'C1', value_usd: '1' },
        { cusip: 'C1', value_usd: '4' },
        { cusip: 'C1', value_usd: '7' },
      ]);
      // A quarter it does not hold, or held from another copy: no answer.
      expect(index.relation(spec, ['2024Q4', '2024Q3'], () => 'serving_probe')).toBeNull();
      expect(index.relation(spec, ['2024Q4'], () => 'serving_other')).toBeNull();
    } finally {
      await index.close();
      conn.closeSync();
      instance.closeSync();
    }
  });
});
