import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { defineIngester } from '../../ingest/pipeline/contract.ts';
import { openDuck, queryRows } from '../../ingest/lake/duck.ts';
import { DEFAULT_INGEST_MEMORY_LIMIT } from '../../ingest/lake/work-database.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { firmsTable, toyIngester, writeToyCsv } from './toy-dataset.ts';

/**
 * An ingest's DuckDB runs within INGEST_MEMORY_LIMIT (1GB unless set) and hands freed memory back early: what keeps a
 * real 13F window (3M lines) and a 10M-line N-PORT data set under 1.5 GB of RSS (figures: docs/13f-funds.md, "Memory").
 * A toy dataset reads the settings of the connection its load runs on.
 */
describe('ingest memory: the work database’s limit and allocator', () => {
  let app: TestApp;
  const seen: Record<string, unknown>[] = [];
  const toy = toyIngester();
  const recording = defineIngester({
    ...toy,
    async load(ctx, inputs, args) {
      seen.push(
        ...(await ctx.sql(
          `SELECT current_setting('memory_limit') AS memory_limit, current_setting('allocator_flush_threshold') AS flush,
                  current_setting('allocator_background_threads') AS background, current_setting('threads') AS threads`,
        )),
      );
      return toy.load(ctx, inputs, args);
    },
  });

  beforeAll(async () => {
    app = await createTestApp({ extraTables: [firmsTable] });
    await writeToyCsv(join(app.dataDir, 'in'), '2026-01-01', 20);
  });
  afterAll(() => app.close());
  afterEach(() => {
    seen.length = 0;
  });

  it('1GB by default, with freed memory handed back past 4 MB a thread, and the rows written', async () => {
    const summary = await app.ingest(recording, { from: join(app.dataDir, 'in') });
    expect(summary.rowsWritten).toBe(20);
    // DuckDB reports limits in binary units: 1GB is 953.6 MiB, 4MB 3.8 MiB. Its own defaults: 128.0 MiB, false.
    expect(seen).toEqual([{ memory_limit: '953.6 MiB', flush: '3.8 MiB', background: true, threads: 2 }]);
  });

  it('unset, a dataset lowers the limit for its own runs (13F: 768MB); others keep the 1GB default', async () => {
    const summary = await app.ingest(defineIngester({ ...recording, memoryLimit: '768MB' }), { from: join(app.dataDir, 'in') });
    expect(summary.rowsWritten).toBe(20);
    expect(seen).toMatchObject([{ memory_limit: '732.4 MiB', flush: '3.8 MiB' }]);
    const { findIngester } = await import('../../ingest/pipeline/registry.ts');
    expect((await findIngester('13f'))?.memoryLimit).toBe('768MB');
    expect((await findIngester('nport'))?.memoryLimit).toBeUndefined();
    expect(DEFAULT_INGEST_MEMORY_LIMIT).toBe('1GB');
  });

  it('INGEST_MEMORY_LIMIT sets the limit; a value DuckDB would not read is refused at start, naming the setting', async () => {
    const big = await createTestApp({ extraTables: [firmsTable], env: { INGEST_MEMORY_LIMIT: '3GB' } });
    try {
      await writeToyCsv(join(big.dataDir, 'in'), '2026-01-01', 20);
      await big.ingest(recording, { from: join(big.dataDir, 'in') });
      expect(seen).toMatchObject([{ memory_limit: '2.7 GiB', flush: '3.8 MiB' }]);
    } finally {
      await big.close();
    }
    // The setting also wins over a dataset's own default.
    const lower = defineIngester({ ...recording, memoryLimit: '768MB' });
    const set = await createTestApp({ extraTables: [firmsTable], env: { INGEST_MEMORY_LIMIT: '1500MB' } });
    try {
      await writeToyCsv(join(set.dataDir, 'in'), '2026-01-01', 20);
      seen.length = 0;
      await set.ingest(lower, { from: join(set.dataDir, 'in') });
      expect(seen).toMatchObject([{ memory_limit: '1.3 GiB' }]);
    } finally {
      await set.close();
    }
    const { loadSettings } = await import('../../schemas/settings.ts');
    expect(loadSettings({ DATA_DIR: app.dataDir, INGEST_MEMORY_LIMIT: '1500MB' }).INGEST_MEMORY_LIMIT).toBe('1500MB');
    for (const bad of ['lots', '1 GBs', '-1GB', '80%']) {
      expect(() => loadSettings({ DATA_DIR: app.dataDir, INGEST_MEMORY_LIMIT: bad }), bad).toThrow(/INGEST_MEMORY_LIMIT/);
    }
  });
  // Rows a parser hands over are staged as JSON lines, loaded by DuckDB's reader, which allocates each buffer at twice
  // its longest-object setting, whatever the file's size: at the 100 MB every load set before, a 200 MiB block, so no
  // ingest of such rows could run under a limit below that.
  it('rows staged from JS load within a 160MB limit', async () => {
    const small = await createTestApp({ extraTables: [firmsTable], env: { INGEST_MEMORY_LIMIT: '160MB' } });
    try {
      await writeToyCsv(join(small.dataDir, 'in'), '2026-01-01', 20);
      const summary = await small.ingest(recording, { from: join(small.dataDir, 'in') });
      expect(summary.rowsWritten).toBe(20);
      expect(seen).toMatchObject([{ memory_limit: '152.5 MiB' }]);
    } finally {
      await small.close();
    }
  });

  it("a staged row longer than the reader's default object size (16 MiB) still loads whole", async () => {
    const dir = join(app.dataDir, 'long');
    await mkdir(dir, { recursive: true });
    const name = 'N'.repeat(20_000_000);
    await writeFile(join(dir, 'firms-2026-02-01.csv'), `id,name,state,aum,active\nF1,${name},NY,1000,Y\nF2,Firm 2,CA,2000,N\n`);
    const summary = await app.ingest(recording, { from: dir });
    expect(summary.rowsWritten).toBe(2);
    const { instance, conn } = await openDuck();
    try {
      const file = join(app.dataDir, 'lake', firmsTable.name, 'snapshot_date=2026-02-01', 'data.parquet');
      expect(await queryRows(conn, `SELECT id, length(name) AS n FROM read_parquet('${file}') ORDER BY id`)).toEqual([
        { id: 'F1', n: 20_000_000 },
        { id: 'F2', n: 6 },
      ]);
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
  });
});
