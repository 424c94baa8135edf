import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBResult } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openLake } from '../../api/core/lake.ts';
import { selectPage } from '../../api/core/page-query.ts';
import { openDuck, queryRows } from '../../ingest/lake/duck.ts';
import { createStatementCache } from '../../ingest/lake/statement-cache.ts';
import { runIngest } from '../../ingest/pipeline/runner.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { firmsTable, toyEndpoints, toyIngester, writeToyCsv } from './toy-dataset.ts';

/**
 * The read path's per-request overheads (docs/read-path.md): requests never list the lake's folders (listings are
 * counted through the reader's hook), a commit becomes visible at the next catalog check or an explicit refresh,
 * and the prepared-statement cache answers the rows the unprepared path answers while holding a bounded number.
 */
describe('lake listing off the request path', () => {
  let app: TestApp;
  const listed: string[] = [];
  let tick: () => Promise<void> = async () => {};
  beforeAll(async () => {
    app = await createTestApp({
      routes: toyEndpoints,
      extraTables: [firmsTable],
      // The timer under test (test apps run none by default), its ticks taken by hand.
      env: { LAKE_REFRESH_MS: '2000' },
      lake: {
        every: (_ms, t) => {
          tick = t;
          return () => {};
        },
        hooks: { onList: (table) => listed.push(table) },
      },
    });
    await writeToyCsv(join(app.dataDir, 'in1'), '2026-01-01', 40);
    await app.ingest(toyIngester(), { from: join(app.dataDir, 'in1') }, { skipDiff: true });
  });
  afterAll(() => app.close());

  const history = async () => (await app.get('/v1/toy-firms-history?limit=5')).body;

  it('serves pages, lookups and latest-partition lists without listing a folder', async () => {
    const before = listed.length;
    for (let i = 0; i < 10; i++) {
      expect((await app.get('/v1/toy-firms?limit=3')).status).toBe(200);
      expect((await app.get('/v1/toy-firms/F00001')).status).toBe(200);
      const h = await history();
      expect(h.data).toHaveLength(5);
      expect((await app.get(`/v1/toy-firms-history?limit=5&cursor=${h.page.next_cursor}`)).status).toBe(200);
    }
    expect(listed.length).toBe(before);
  });

  it('takes in a commit made behind its back at the next catalog check, listing only the table that changed', async () => {
    await writeToyCsv(join(app.dataDir, 'in2'), '2026-02-01', 7);
    // Not app.ingest (which refreshes): a commit the app does not hear of, as from `npm run ingest`.
    await runIngest(toyIngester(), { from: join(app.dataDir, 'in2') }, app.settings, { quiet: true, skipDiff: true });
    // The latest snapshot (scope latest_partition) is still the 40-firm one, and the history holds 40 rows.
    const latest = async () => (await app.get('/v1/toy-firms?limit=50')).body.data.length;
    const historyRows = async () => (await app.get('/v1/toy-firms-history?limit=100')).body.data.length;
    expect(await latest()).toBe(40);
    expect(await historyRows()).toBe(40);

    listed.length = 0;
    await tick();
    expect(listed).toEqual(['toy_firms']);
    expect(await latest()).toBe(7);
    expect(await historyRows()).toBe(47);

    listed.length = 0;
    await tick();
    expect(listed).toEqual([]);
  });

  it('lists again when a file it names is gone (a compaction announces itself by no catalog change)', async () => {
    const part = join(app.settings.lakeDir, 'toy_firms', 'snapshot_date=2026-02-01');
    await rename(join(part, 'data.parquet'), join(part, 'part-folded.parquet'));
    listed.length = 0;
    const [{ n }] = await app.services.lake.query('SELECT count(*)::INTEGER AS n FROM toy_firms WHERE snapshot_date = $1', ['2026-02-01']);
    expect(n).toBe(7);
    expect(listed).toContain('toy_firms');
    await rename(join(part, 'part-folded.parquet'), join(part, 'data.parquet'));
    await app.services.lake.refresh();
  });

  it('answers the same pages through cached statements as without them', async () => {
    const cached = await openLake(app.settings.lakeDir, { extraTables: [firmsTable], refreshMs: 0 });
    const plain = await openLake(app.settings.lakeDir, { extraTables: [firmsTable], refreshMs: 0, statementCache: 0 });
    try {
      const order = toyEndpoints[1].kind === 'list' ? toyEndpoints[1].orderBy : [];
      const filters = [
        { where: [], params: [] },
        { where: ['"state" = $1'], params: ['NY'] },
        { where: ['"aum" >= $1'], params: [500_000] },
      ];
      for (const f of filters) {
        let cursor: unknown[] | null = null;
        // Several pages of each shape: the second and later reuse the statements the first prepared.
        for (let page = 0; page < 4; page++) {
          const a = await selectPage(cached, firmsTable, order, f, 6, cursor);
          const b = await selectPage(plain, firmsTable, order, f, 6, cursor);
          expect(a).toEqual(b);
          if (!a.length) break;
          const last = a[a.length - 1];
          cursor = order.map((o) => last[o.column]);
        }
      }
    } finally {
      await cached.close();
      await plain.close();
    }
  });

  it('runs its reader on the DuckDB threads LAKE_THREADS names, with the same pages', async () => {
    const { loadSettings } = await import('../../schemas/settings.ts');
    expect(loadSettings({ DATA_DIR: app.dataDir }).LAKE_THREADS).toBe(1);
    expect(() => loadSettings({ DATA_DIR: app.dataDir, LAKE_THREADS: '0' })).toThrow(/LAKE_THREADS/);
    const one = await createTestApp({ routes: toyEndpoints, extraTables: [firmsTable], env: { LAKE_THREADS: '2' } });
    try {
      await writeToyCsv(join(one.dataDir, 'in1'), '2026-01-01', 40);
      await one.ingest(toyIngester(), { from: join(one.dataDir, 'in1') }, { skipDiff: true });
      expect(await one.services.lake.query("SELECT current_setting('threads') AS n")).toEqual([{ n: 2 }]);
      expect(await app.services.lake.query("SELECT current_setting('threads') AS n")).toEqual([{ n: 1 }]);
      expect((await one.get('/v1/toy-firms-history?limit=50')).body.data).toHaveLength(40);
      const two = await openLake(one.settings.lakeDir, { extraTables: [firmsTable], refreshMs: 0 });
      try {
        const order = toyEndpoints[1].kind === 'list' ? toyEndpoints[1].orderBy : [];
        const f = { where: ['"aum" >= $1'], params: [500_000] };
        const page = await selectPage(one.services.lake, firmsTable, order, f, 50, null);
        expect(page.length).toBeGreaterThan(0);
        expect(page).toEqual(await selectPage(two, firmsTable, order, f, 50, null));
      } finally {
        await two.close();
      }
    } finally {
      await one.close();
    }
  });
});

describe('prepared-statement cache', () => {
  it('prepares a text once, binds its values on every run, and holds at most its size', async () => {
    const { instance, conn } = await openDuck();
    const prepared: string[] = [];
    const cache = createStatementCache(conn, 3, { onPrepare: (sql) => prepared.push(sql) });
    try {
      await conn.run('CREATE TABLE t AS SELECT i, i % 7 AS k FROM range(100) r(i)');
      const sql = 'SELECT i FROM t WHERE k = $1 ORDER BY i LIMIT 5';
      for (const k of [1, 2, 3, 1]) expect(await cache.run(sql, [k])).toEqual(await queryRows(conn, sql, [k]));
      expect(prepared).toEqual([sql]);
      for (let n = 1; n <= 10; n++) {
        const text = `SELECT count(*)::INTEGER AS c FROM t WHERE k = $1 AND i < ${n * 10}`;
        expect(await cache.run(text, [n % 7])).toEqual(await queryRows(conn, text, [n % 7]));
        expect(cache.size).toBeLessThanOrEqual(3);
      }
      // The evicted first text is prepared again when it comes back.
      await cache.run(sql, [4]);
      expect(prepared.filter((s) => s === sql)).toHaveLength(2);
    } finally {
      cache.clear();
      conn.closeSync();
      instance.closeSync();
    }
  });
});

describe('rows read from the materialized result', () => {
  it('returns every chunk of a result in order, converted, without a worker call per chunk', async () => {
    const { instance, conn } = await openDuck();
    const cache = createStatementCache(conn, 4);
    // A fetch per chunk (the client's runAndReadAll) is a trip through libuv's pool each: the rows are read from the
    // result itself (duck.ts resultRows), so no query of ours fetches a chunk.
    const fetches = vi.spyOn(DuckDBResult.prototype, 'fetchChunk');
    try {
      const sql = `SELECT i, i * 10_000_000_000 AS big, (i / 4)::DECIMAL(18, 2) AS dec, TIMESTAMP '2024-01-02 03:04:05' + INTERVAL (i) SECOND AS ts,
        'n' || i AS "name", NULL::VARCHAR AS gone FROM range($1) r(i) ORDER BY i`;
      // 5,000 rows span three of DuckDB's 2,048-row chunks.
      for (const rows of [await queryRows(conn, sql, [5000]), await cache.run(sql, [5000])]) {
        expect(rows).toHaveLength(5000);
        expect(rows.map((r) => r.i)).toEqual(Array.from({ length: 5000 }, (_, i) => i));
        expect(rows[4999]).toEqual({ i: 4999, big: 49_990_000_000_000, dec: 1249.75, ts: '2024-01-02T04:27:24Z', name: 'n4999', gone: null });
      }
      // Past 2^53 a BIGINT stays an exact string; an empty result has no rows.
      expect(await queryRows(conn, 'SELECT 9007199254740993::BIGINT AS b')).toEqual([{ b: '9007199254740993' }]);
      expect(await cache.run('SELECT i FROM range(3) r(i) WHERE i > $1', [5])).toEqual([]);
      expect(fetches).not.toHaveBeenCalled();
    } finally {
      fetches.mockRestore();
      cache.clear();
      conn.closeSync();
      instance.closeSync();
    }
  });
});
