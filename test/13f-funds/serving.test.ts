import { copyFileSync, existsSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { holdingsPagesToCompare } from './holdings-queries.ts';
import holdings13fRoutes from '../../api/13f/routes.ts';
import { openLake, type Lake } from '../../api/core/lake.ts';
import dataset13f from '../../ingest/datasets/13f/dataset.ts';
import { openDuck, sqlString } from '../../ingest/lake/duck.ts';
import { tableFiles } from '../../ingest/lake/layout.ts';
import type { PartitionRelation } from '../../ingest/lake/index.ts';
import { SERVING_FILE } from '../../ingest/lake/serving.ts';
import { TOP_ROWS } from '../../ingest/lake/summary.ts';
import { openSqlSession } from '../../ingest/lake/sql-session.ts';
import { cleanDeadScratch } from '../../ingest/lake/scratch.ts';
import { recoverInterruptedRuns } from '../../ingest/pipeline/recover.ts';
import { ALL_TABLES } from '../../schemas/tables/index.ts';

/**
 * Serving copies of holdings_13f and its manager-sorted copy (ingest/lake/serving.ts): pages read from the native
 * DuckDB copies equal pages read from Parquet; a copy that no longer describes its partition's file is never read;
 * a swap never breaks a query planned or running on the copy it replaced (docs/read-path.md).
 */
describe('13F holdings serving copies', () => {
  let app: TestApp;
  /** The same lake read from Parquet only: its relations (file paths) run on the app's lake as well. */
  let parquetOnly: Lake;
  let sqls: string[] = [];
  const lakeDir = () => app.settings.lakeDir;
  const TABLES = ['holdings_13f', 'holdings_13f_by_manager'];
  const servingPath = (table: string, period: string) => join(lakeDir(), table, `period=${period}`, SERVING_FILE);
  const holdingsQueries = () => sqls.filter((s) => /holdings_13f|serving_\d+|"top_\d+"\.top/.test(s));

  async function pages(path: string, limit: number, maxPages = 8): Promise<string[]> {
    const out: string[] = [];
    let cursor: string | null = null;
    let n = 0;
    do {
      const r = await app.get(`${path}${path.includes('?') ? '&' : '?'}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      out.push(...r.body.data.map((d: any) => JSON.stringify(d)));
      cursor = r.body.page.next_cursor;
    } while (cursor && ++n < maxPages);
    return out;
  }

  /** The same pages with every partition read from its Parquet file (the relations of a lake without serving). */
  async function pagesFromParquet(path: string, limit: number, maxPages = 8): Promise<string[]> {
    const lake = app.services.lake;
    const real = { relation: lake.relation, storageOrder: lake.storageOrder };
    await parquetOnly.refresh();
    lake.relation = (t, ps) => parquetOnly.relation(t, ps);
    lake.storageOrder = (t, p) => parquetOnly.storageOrder(t, p);
    try {
      return await pages(path, limit, maxPages);
    } finally {
      Object.assign(lake, real);
    }
  }

  beforeAll(async () => {
    // No refresh timer: the test refreshes by hand, so "one refresh later" is the one it runs.
    app = await createTestApp({ routes: holdings13fRoutes, lake: { every: () => () => {} } });
    await app.ingestSample(dataset13f, { scale: 0.2, skipDiff: true });
    parquetOnly = await openLake(lakeDir(), { serving: false, refreshMs: 0, poolSize: 1 });
    const lake = app.services.lake;
    const query = lake.query.bind(lake);
    lake.query = (sql, params, o) => {
      sqls.push(sql);
      return query(sql, params, o);
    };
  });
  afterAll(async () => {
    await parquetOnly?.close();
    await app?.close();
  });

  const periods = async () => (await app.services.lake.partitions('holdings_13f')).sort();

  it('writes one copy per quarter of both tables, with the rows, columns and order a read of the Parquet file gives', async () => {
    const ps = await periods();
    expect(ps.length).toBeGreaterThan(1);
    const lake = app.services.lake;
    for (const t of TABLES) {
      for (const p of ps) expect(existsSync(servingPath(t, p)), servingPath(t, p)).toBe(true);
      expect(lake.servedPartitions(t)).toBe(ps.length);
      const native = lake.relation(t, [ps[0]]);
      const parquet = parquetOnly.relation(t, [ps[0]]);
      expect(native.sql).not.toContain('read_parquet');
      expect(parquet.sql).toContain('read_parquet');
      const describe = async (rel: string) => (await lake.query(`DESCRIBE SELECT * FROM ${rel}`)).map((r) => `${r.column_name} ${r.column_type}`);
      expect(await describe(native.sql)).toEqual(await describe(parquet.sql));
      // Same rows in the same order (the file's sort order, which the copy's zonemaps prune by), once completed:
      // the copy gives the filing's text as NULL and its lookup fills it in.
      const rows = async (rel: PartitionRelation) => rel.complete(await lake.query(`SELECT * FROM ${rel.sql}`));
      expect(await rows(native)).toEqual(await rows(parquet));
      // What completes them: the copy's rows leave the filing's text out.
      const raw = await lake.query(`SELECT manager_name, source_url, value_unit_reason FROM ${native.sql} LIMIT 50`);
      expect(raw.length).toBeGreaterThan(0);
      expect(raw.every((r) => r.manager_name === null && r.source_url === null && r.value_unit_reason === null)).toBe(true);
    }
    // Neither the view nor the analysts' file list takes the copy as data.
    for (const f of tableFiles(lakeDir(), 'holdings_13f')) expect(f.endsWith('.parquet')).toBe(true);
  });

  it('pages equal Parquet pages for every filter of the list, both orders, with cursors across quarters', async () => {
    const lake = app.services.lake;
    const { cusip, queries } = await holdingsPagesToCompare(lake);
    for (const q of queries) {
      for (const limit of q.includes('cusip=') || /manager=\d/.test(q) ? [3, 25] : [25]) {
        const want = await pagesFromParquet(q, limit);
        sqls = [];
        expect(await pages(q, limit), `${q} limit ${limit}`).toEqual(want);
        // Every holdings query read the native copies, none a Parquet file or the view.
        expect(holdingsQueries().length, q).toBeGreaterThan(0);
        expect(
          holdingsQueries().every((s) => !s.includes('read_parquet') && !/FROM "holdings_13f/.test(s)),
          q,
        ).toBe(true);
      }
    }
    // The CUSIP's pages walked several quarters.
    const all = await pages(`/v1/holdings?cusip=${cusip}`, 25, 100);
    expect(new Set(all.map((x) => JSON.parse(x).period)).size).toBeGreaterThan(1);
  }, 300_000);

  it('a page whose matches are all among its key’s top rows in every quarter reads the top index: one query, the same page', async () => {
    const lake = app.services.lake;
    await lake.preloaded();
    // A CUSIP in several quarters, with fewer lines in its newest quarter than the page asks for: the first quarter
    // cannot fill the page, and the sample's CUSIPs hold fewer than 26 lines a quarter, so all are among the top rows.
    const [{ cusip, quarters }] = await lake.query(
      'SELECT cusip, count(DISTINCT period) AS quarters FROM holdings_13f GROUP BY 1 ORDER BY count(DISTINCT period) DESC, count(*) DESC, 1 LIMIT 1',
    );
    expect(Number(quarters)).toBeGreaterThan(1);
    const [{ most }] = await lake.query('SELECT max(n) AS most FROM (SELECT count(*) AS n FROM holdings_13f WHERE cusip = $1 GROUP BY period)', [cusip]);
    expect(Number(most)).toBeLessThanOrEqual(TOP_ROWS);
    let table: string | undefined;
    for (const q of [`/v1/holdings?cusip=${cusip}&limit=100`, `/v1/holdings?cusip=${cusip}&min_value=1&limit=100`]) {
      sqls = [];
      const r = await app.get(q);
      expect(r.status).toBe(200);
      expect(holdingsQueries(), q).toHaveLength(1);
      table = holdingsQueries()[0].match(/("top_\d+")\.top/)?.[1];
      expect(table, q).toBeDefined();
      expect(holdingsQueries()[0]).not.toMatch(/serving_\d+|read_parquet/);
      const want = await pagesFromParquet(q, 100, 1);
      expect(r.body.data.map((d: unknown) => JSON.stringify(d))).toEqual(want);
      // Without the index, the same page from the union of the quarters' copies.
      const topRelation = lake.topRelation;
      lake.topRelation = () => null;
      try {
        sqls = [];
        expect(await pages(q, 100, 1)).toEqual(want);
        expect(holdingsQueries()[0]).toMatch(/serving_\d+/);
      } finally {
        lake.topRelation = topRelation;
      }
    }
    // The index holds at most TOP_ROWS lines of a CUSIP a quarter, and every line of one with no more.
    expect(table).toBeDefined();
    const [{ over }] = await lake.query(`SELECT count(*) AS over FROM (SELECT count(*) AS n FROM ${table}.top GROUP BY cusip, period) WHERE n > ${TOP_ROWS}`);
    expect(Number(over)).toBe(0);
    const lines = 'SELECT accession_number, line_no FROM holdings_13f WHERE cusip = $1';
    const [{ missing }] = await lake.query(`SELECT count(*) AS missing FROM (${lines} EXCEPT SELECT accession_number, line_no FROM ${table}.top)`, [cusip]);
    expect(Number(missing)).toBe(0);
  });

  it('a quarter is read in its copy’s stored order, without a sort, unless the page is pinned to a key; a copy that records no order is sorted', async () => {
    const lake = app.services.lake;
    const ps = await periods();
    const newest = ps[ps.length - 1];
    expect(lake.storageOrder('holdings_13f', newest)).toEqual(['cusip', 'manager_cik', 'accession_number', 'line_no']);
    expect(lake.storageOrder('holdings_13f_by_manager', newest)).toEqual(['manager_cik', 'cusip', 'accession_number', 'line_no']);
    const [{ cusip }] = await lake.query('SELECT cusip FROM holdings_13f WHERE period = $1 GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1', [newest]);
    const q = `/v1/holdings?period=${newest}`;
    const stored = /^SELECT \* FROM \(SELECT \* FROM \(SELECT .* FROM "serving_\d+"\.rows\) WHERE .* LIMIT \d+\) ORDER BY /;
    const topN = /ORDER BY "cusip" ASC, .* LIMIT \d+$/;
    sqls = [];
    const want = await pages(q, 3, 3);
    expect(holdingsQueries()[0]).toMatch(stored);
    // A page pinned to one key keeps its top-N, cheaper over a key's rows than an order-preserving LIMIT.
    sqls = [];
    await pages(`/v1/holdings?cusip=${cusip}`, 3, 1);
    expect(holdingsQueries()[0]).toMatch(topN);
    expect(holdingsQueries()[0]).not.toMatch(stored);

    // A copy written before copies recorded their order: same fingerprint and columns, no `ordered_by`.
    const path = servingPath('holdings_13f', newest);
    const saved = `${path}.saved`;
    copyFileSync(path, saved);
    const edited = `${path}.edited`;
    copyFileSync(path, edited);
    const { openDuck } = await import('../../ingest/lake/duck.ts');
    const { instance, conn } = await openDuck(edited);
    await conn.run('ALTER TABLE meta DROP COLUMN ordered_by');
    await conn.run('CHECKPOINT');
    conn.closeSync();
    instance.closeSync();
    renameSync(edited, path);
    try {
      await lake.refresh();
      expect(lake.servedPartitions('holdings_13f')).toBe(ps.length);
      expect(lake.storageOrder('holdings_13f', newest)).toEqual([]);
      sqls = [];
      expect(await pages(q, 3, 3)).toEqual(want);
      expect(holdingsQueries()[0]).not.toMatch(stored);
      expect(holdingsQueries()[0]).toMatch(topN);
    } finally {
      renameSync(saved, path);
      await lake.refresh();
    }
    expect(lake.storageOrder('holdings_13f', newest)).toEqual(['cusip', 'manager_cik', 'accession_number', 'line_no']);
  });

  it('an unknown CUSIP or manager still answers from the summaries alone', async () => {
    for (const q of ['/v1/holdings?cusip=000000000', '/v1/holdings?manager=9999999999', '/v1/holdings?cusip=000000000&min_value=5']) {
      sqls = [];
      const r = await app.get(q);
      expect(r.status).toBe(200);
      expect(r.body.data).toEqual([]);
      expect(holdingsQueries(), q).toEqual([]);
    }
  });

  it('the analysts’ SQL session and the views read the Parquet files, unaffected by the copies', async () => {
    const session = await openSqlSession(lakeDir(), app.dataDir, ALL_TABLES);
    try {
      const [res] = await session.run('SELECT count(*) AS n FROM holdings_13f');
      const [{ n }] = await app.services.lake.query('SELECT count(*) AS n FROM holdings_13f');
      const [{ m }] = await app.services.lake.query(`SELECT count(*) AS m FROM ${app.services.lake.relation('holdings_13f', await periods()).sql}`);
      expect(Number(res.rows[0].n)).toBe(Number(n));
      expect(Number(m)).toBe(Number(n));
    } finally {
      session.close();
    }
  });

  it('live append files beside the data file: the copy is read merged with them, as the Parquet files read', async () => {
    const ps = await periods();
    const newest = ps[ps.length - 1];
    const dir = join(lakeDir(), 'holdings_13f', `period=${newest}`);
    const extra = join(dir, 'part-live-000000000000001-test.parquet');
    const data = sqlString(join(dir, 'data.parquet'));
    // A fifth of the quarter's lines rewritten (value, currency and filer name changed), and 30 lines of a new filing.
    const { instance, conn } = await openDuck();
    try {
      await conn.run(
        `COPY (SELECT * REPLACE (value_usd * 2 AS value_usd, NOT is_current AS is_current, manager_name || ' (RESTATED)' AS manager_name)
                 FROM read_parquet(${data}) WHERE hash(accession_number, line_no) % 5 = 0
               UNION ALL
               SELECT * REPLACE ('0009999999-25-000001' AS accession_number, CAST(row_number() OVER () AS INTEGER) AS line_no)
                 FROM (SELECT * FROM read_parquet(${data}) LIMIT 30))
         TO ${sqlString(extra)} (FORMAT parquet)`,
      );
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
    try {
      await app.services.lake.refresh();
      const lake = app.services.lake;
      expect(lake.servedPartitions('holdings_13f')).toBe(ps.length);
      const sql = lake.relation('holdings_13f', [newest]).sql;
      expect(sql).toMatch(/serving_\d+/);
      // The append file's newest rows, read once at the refresh into a table of the reader's.
      expect(sql).toMatch(/appended_\d+/);
      expect(sql).not.toContain('part-live-');
      expect(lake.storageOrder('holdings_13f', newest)).toEqual([]);
      await lake.preloaded();
      expect(lake.topRelation('holdings_13f', ps)).toBeNull();
      expect(lake.topRelation('holdings_13f', ps.slice(0, -1))).not.toBeNull();
      // A rewritten line of a CUSIP the older quarters hold too.
      const [rewritten] = await lake.query(
        `SELECT cusip, manager_cik FROM holdings_13f WHERE period = $1 AND manager_name LIKE '%(RESTATED)'
           AND cusip IN (SELECT cusip FROM holdings_13f WHERE period <> $1) ORDER BY value_usd DESC LIMIT 1`,
        [newest],
      );
      expect(rewritten).toBeDefined();
      // The worst case: the newest quarter from its copy merged with the append file, the older ones from the index.
      sqls = [];
      expect((await app.get(`/v1/holdings?cusip=${rewritten.cusip}&min_value=1&limit=100`)).status).toBe(200);
      expect(holdingsQueries()).toHaveLength(2);
      expect(holdingsQueries()[0]).toMatch(/appended_\d+/);
      expect(holdingsQueries()[1]).toMatch(/"top_\d+"\.top/);
      for (const q of [
        `/v1/holdings?period=${newest}`,
        `/v1/holdings?cusip=${rewritten.cusip}`,
        `/v1/holdings?cusip=${rewritten.cusip}&include_superseded=true`,
        // The worst case, answered from the top index when every quarter is in it: not this quarter, until the fold.
        `/v1/holdings?cusip=${rewritten.cusip}&min_value=1`,
        `/v1/holdings?manager=${rewritten.manager_cik}&period=${newest}`,
      ]) {
        const got = await pages(q, 25, 3);
        expect(got.length, q).toBeGreaterThan(0);
        expect(got, q).toEqual(await pagesFromParquet(q, 25, 3));
      }
    } finally {
      rmSync(extra);
      await app.services.lake.refresh();
    }
    expect(app.services.lake.servedPartitions('holdings_13f')).toBe(ps.length);
  });

  it('a crash between the data rename and the copy rename: the stale copy is ignored, the roll forward swaps the new one in', async () => {
    const lake = app.services.lake;
    const from = join(app.dataDir, 'samples', 'seed-7');
    await dataset13f.sample!(from, { seed: 7, scale: 0.2 });
    const ps = await periods();
    const newest = ps[ps.length - 1];
    // A relation planned, and a query streaming, over the copy the re-ingest replaces.
    const before = lake.relation('holdings_13f', [newest]);
    const [oldAlias] = before.sql.match(/serving_\d+/)!;
    const long = `SELECT h.cusip FROM ${before.sql} h, range(20) ORDER BY ALL`;
    const [{ n: wantRows }] = await lake.query(`SELECT count(*) AS n FROM (${long})`);
    const stream = lake.stream(long);
    const first = await stream.next();
    let streamed = (first.value as unknown[]).length;

    const target = join(lakeDir(), 'holdings_13f', `period=${newest}`, 'data.parquet');
    const { runIngest } = await import('../../ingest/pipeline/index.ts');
    const failing = runIngest(dataset13f, { from }, app.settings, {
      quiet: true,
      skipDiff: true,
      afterRename: (_done, r) => {
        if (r.to === target) throw new Error('simulated crash between data and serving copy');
      },
    });
    await expect(failing).rejects.toThrow(/simulated crash/);
    await lake.refresh();
    expect(existsSync(servingPath('holdings_13f', newest))).toBe(true);
    expect(lake.servedPartitions('holdings_13f')).toBe(ps.length - 1);
    const [{ cusip }] = await lake.query('SELECT cusip FROM holdings_13f WHERE period = $1 GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1', [newest]);
    for (const q of [`/v1/holdings?cusip=${cusip}`, `/v1/holdings?period=${newest}`]) expect(await pages(q, 5, 3)).toEqual(await pagesFromParquet(q, 5, 3));
    // One refresh after the swap, a relation planned before it still runs (its alias is detached a refresh later).
    expect(lake.relation('holdings_13f', [newest]).sql).not.toContain(oldAlias);
    const [{ n: stillThere }] = await lake.query(`SELECT count(*) AS n FROM ${before.sql}`);
    expect(Number(stillThere)).toBeGreaterThan(0);

    const r = await recoverInterruptedRuns(app.settings, { quiet: true });
    expect(r.rolledForward).toHaveLength(1);
    await lake.refresh();
    expect(lake.servedPartitions('holdings_13f')).toBe(ps.length);
    expect(lake.relation('holdings_13f', [newest]).sql).not.toContain(oldAlias);
    // Detached now: the stream that was running on it finishes all the same.
    for (let c = await stream.next(); !c.done; c = await stream.next()) streamed += (c.value as unknown[]).length;
    expect(streamed).toBe(Number(wantRows));
    // A query planned on the detached alias fails with an error the page re-plans on (MISSING_FILE).
    const { MISSING_FILE } = await import('../../api/core/lake.ts');
    const err = await lake.query(`SELECT count(*) FROM ${before.sql}`).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(MISSING_FILE);
    const q = `/v1/holdings?cusip=${cusip}`;
    expect(await pages(q, 5)).toEqual(await pagesFromParquet(q, 5));
  }, 300_000);

  it('a dead run’s staged copy and its WAL are swept with its other scratch', async () => {
    const dir = join(lakeDir(), 'holdings_13f', `period=${(await periods())[0]}`);
    const staged = join(dir, `.abcd1234-${SERVING_FILE}.tmp-13f-deadbeef`);
    writeFileSync(staged, 'x');
    writeFileSync(`${staged}.wal`, 'x');
    // The run's lock is gone and its files are old: a dead run.
    const r = await cleanDeadScratch(app.dataDir, lakeDir(), new Set(), 1, Date.now() + 60_000);
    expect(r.tempFiles).toEqual(expect.arrayContaining([staged, `${staged}.wal`]));
    expect(readdirSync(dir).some((f) => f.includes('.tmp-'))).toBe(false);
  });

  it('a lake without copies (written before them) is read from Parquet', async () => {
    const [{ cusip }] = await app.services.lake.query('SELECT cusip FROM holdings_13f GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1');
    const q = `/v1/holdings?cusip=${cusip}`;
    const want = await pages(q, 4);
    for (const t of TABLES) for (const p of await periods()) rmSync(servingPath(t, p));
    await app.services.lake.refresh();
    for (const t of TABLES) expect(app.services.lake.servedPartitions(t)).toBe(0);
    sqls = [];
    expect(await pages(q, 4)).toEqual(want);
    // The path before the copies: the table's view.
    expect(holdingsQueries().every((s) => /FROM "holdings_13f/.test(s) || s.includes('read_parquet'))).toBe(true);
    expect(holdingsQueries().some((s) => /serving_\d+/.test(s))).toBe(false);
    expect((await pages('/v1/holdings?cusip=000000000', 4)).length).toBe(0);
  });
});
