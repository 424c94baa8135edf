import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDuck } from '../../ingest/lake/duck.ts';
import { createTopIndex } from '../../ingest/lake/top-index.ts';
import { openLakeReader } from '../../ingest/lake/index.ts';
import { openLake } from '../../api/core/lake.ts';
import { holdings13f } from '../../schemas/tables/13f.ts';

/**
 * The top index's scratch database (ingest/lake/top-index.ts) lives in the system's temp folder, named by the process:
 * a reader removes it at close, and the next reader removes those of processes that died holding one.
 */
describe('top index scratch files', () => {
  it('removes the files of dead processes, keeps those of live ones, and its own at close', async () => {
    const dead = spawnSync(process.execPath, ['-e', 'process.exit(0)']).pid!;
    const deadFile = join(tmpdir(), `filings-top-${dead}-deadbeef.duckdb`);
    const liveFile = join(tmpdir(), `filings-top-${process.pid}-cafebabe.duckdb`);
    writeFileSync(deadFile, 'x');
    writeFileSync(liveFile, 'x');
    const { instance, conn } = await openDuck(':memory:');
    try {
      const index = await createTopIndex(instance);
      expect(existsSync(deadFile)).toBe(false);
      expect(existsSync(liveFile)).toBe(true);
      const [[path]] = (await conn.runAndReadAll("SELECT path FROM duckdb_databases() WHERE database_name = 'top_index'")).getRows();
      const own = String(path);
      expect(own.startsWith(join(tmpdir(), `filings-top-${process.pid}-`))).toBe(true);
      expect(existsSync(own)).toBe(true);
      await index.close();
      expect(existsSync(own)).toBe(false);
    } finally {
      conn.closeSync();
      instance.closeSync();
      rmSync(liveFile, { force: true });
    }
  });

  it('the API’s lake builds one; the ingest’s readers (diff stage, events writer) do not', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'top-index-'));
    const indexes = async (query: (sql: string) => Promise<Record<string, unknown>[]>) =>
      Number((await query("SELECT count(*) AS n FROM duckdb_databases() WHERE database_name = 'top_index'"))[0].n);
    try {
      const reader = await openLakeReader(dir);
      try {
        expect(await indexes((sql) => reader.query(sql))).toBe(0);
      } finally {
        await reader.close();
      }
      const lake = await openLake(dir, { refreshMs: 0 });
      try {
        expect(await indexes((sql) => lake.query(sql, [], { cache: false }))).toBe(1);
      } finally {
        await lake.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a failed build is asked for again by the next update with the same copies; a built index answers for them only', async () => {
    const spec = { ...holdings13f, name: 'top_probe' };
    const { instance, conn } = await openDuck(':memory:');
    const errors: string[] = [];
    const index = await createTopIndex(instance, (err) => errors.push(err.message));
    try {
      const copies = new Map([['2024Q4', { alias: 'serving_probe', top: true }]]);
      // The copy is not attached yet: the build fails, and the same copies are built again on the next update.
      index.update(spec, copies);
      await index.settled();
      expect(errors).toHaveLength(1);
      expect(index.relation(spec, ['2024Q4'], () => 'serving_probe')).toBeNull();
      await conn.run("ATTACH ':memory:' AS serving_probe");
      await conn.run("CREATE TABLE serving_probe.top AS SELECT 'C' || (i % 3) AS cusip, '2024Q4' AS period, i AS value_usd FROM range(9) t(i)");
      index.update(spec, copies);
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
