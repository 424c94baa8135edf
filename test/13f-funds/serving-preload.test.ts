import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/harness.ts';
import holdings13fRoutes from '../../api/13f/routes.ts';
import { openLake } from '../../api/core/lake.ts';
import dataset13f from '../../ingest/datasets/13f/dataset.ts';
import type { AttachedCopy } from '../../ingest/lake/preload.ts';

/**
 * Preloading the serving copies (ingest/lake/preload.ts, LAKE_SERVING_PRELOAD_MB): once attached, copies are read
 * whole in the background, newest partitions first, within the budget; a refresh never waits for them; closing the
 * lake during a read neither hangs nor leaves the process busy; pages are the same.
 */
describe('serving copies preloaded into memory', () => {
  let app: TestApp;
  const lakeDir = () => app.settings.lakeDir;

  beforeAll(async () => {
    app = await createTestApp({ routes: holdings13fRoutes, env: { LAKE_SERVING_PRELOAD_MB: '64' }, lake: { every: () => () => {} } });
    await app.ingestSample(dataset13f, { scale: 0.2, skipDiff: true });
  });
  afterAll(() => app?.close());

  it('reads every copy once, newest partitions first, when the budget holds them all', async () => {
    const seen: AttachedCopy[] = [];
    const lake = await openLake(lakeDir(), { refreshMs: 0, poolSize: 1, servingPreloadBytes: 2 ** 40, hooks: { onPreload: (c) => seen.push(c) } });
    try {
      await lake.preloaded();
      const periods = (await lake.partitions('holdings_13f')).sort().reverse();
      expect(periods.length).toBeGreaterThan(1);
      expect(seen.length).toBe(2 * periods.length);
      expect(seen.map((c) => c.partition)).toEqual(periods.flatMap((p) => [p, p]));
      expect(new Set(seen.map((c) => c.table))).toEqual(new Set(['holdings_13f', 'holdings_13f_by_manager']));
      // Each copy's blocks are in DuckDB's memory: at least the copies' bytes less their headers.
      const [{ bytes }] = await lake.query('SELECT sum(memory_usage_bytes)::BIGINT AS bytes FROM duckdb_memory()');
      const copies = seen.reduce((n, c) => n + c.bytes, 0);
      expect(Number(bytes)).toBeGreaterThan(copies * 0.5);
      // A refresh with nothing new reads nothing again.
      await lake.refresh();
      await lake.preloaded();
      expect(seen.length).toBe(2 * periods.length);
    } finally {
      await lake.close();
    }
  });

  it('stops at the budget: the newest quarter’s two copies only, then none with a budget of 0', async () => {
    const probe = await openLake(lakeDir(), { refreshMs: 0, poolSize: 1 });
    const newest = (await probe.partitions('holdings_13f')).sort().reverse()[0];
    await probe.close();
    const { statSync } = await import('node:fs');
    const { join } = await import('node:path');
    const size = (t: string) => statSync(join(lakeDir(), t, `period=${newest}`, 'data.duckdb')).size;
    const budget = size('holdings_13f') + size('holdings_13f_by_manager');
    for (const [bytes, want] of [
      [budget, [newest, newest]],
      [0, []],
    ] as const) {
      const seen: AttachedCopy[] = [];
      const lake = await openLake(lakeDir(), { refreshMs: 0, poolSize: 1, servingPreloadBytes: bytes, hooks: { onPreload: (c) => seen.push(c) } });
      try {
        await lake.preloaded();
        expect(seen.map((c) => c.partition)).toEqual(want);
      } finally {
        await lake.close();
      }
    }
  });

  it('closing the lake while a copy is being read ends the read and the lake', async () => {
    const lake = await openLake(lakeDir(), { refreshMs: 0, poolSize: 1, servingPreloadBytes: 2 ** 40 });
    const r = await lake.query('SELECT 1 AS one');
    expect(r).toEqual([{ one: 1 }]);
    // The first read is queued at open: close at once, mid-read or before it.
    await lake.close();
    await expect(lake.preloaded()).resolves.toBeUndefined();
  });

  it('pages read while the copies are preloaded equal pages after', async () => {
    const paths = ['/v1/holdings', '/v1/holdings?min_value=1000000', '/v1/holdings?period=2024Q1'];
    // The app's lake preloads what its last refresh attached: refresh again with new copies to race the reads.
    const { utimesSync, readdirSync } = await import('node:fs');
    const { join } = await import('node:path');
    for (const t of ['holdings_13f', 'holdings_13f_by_manager'])
      for (const d of readdirSync(join(lakeDir(), t)).filter((x) => x.startsWith('period='))) {
        const f = join(lakeDir(), t, d, 'data.duckdb');
        utimesSync(f, new Date(), new Date(Date.now() + 1000));
      }
    await app.services.lake.refresh();
    const during = await Promise.all(paths.map((p) => app.get(p)));
    await app.services.lake.preloaded();
    const after = await Promise.all(paths.map((p) => app.get(p)));
    expect(during.map((r) => r.status)).toEqual(paths.map(() => 200));
    expect(after.map((r) => r.body.data)).toEqual(during.map((r) => r.body.data));
  });
});
