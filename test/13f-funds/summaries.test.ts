import { copyFileSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { holdingsPagesToCompare } from './holdings-queries.ts';
import holdings13fRoutes from '../../api/13f/routes.ts';
import dataset13f from '../../ingest/datasets/13f/dataset.ts';
import { openLakeReader } from '../../ingest/lake/reader.ts';
import { recoverInterruptedRuns } from '../../ingest/pipeline/recover.ts';
import { allInTop, FILL_RANK, rowsAtMost, SUMMARY_FILE, TOP_ROWS } from '../../ingest/lake/summary.ts';

/**
 * Per-quarter key summaries of holdings_13f (CUSIPs) and its manager-sorted copy (manager CIKs): pages read with them
 * equal pages read without, a key in no summary opens no file, and a summary never hides rows (docs/read-path.md).
 */
describe('13F holdings key summaries', () => {
  let app: TestApp;
  let sqls: string[] = [];
  const lakeDir = () => app.settings.lakeDir;
  const summaryPaths = (table: string, periods: string[]) => periods.map((p) => join(lakeDir(), table, `period=${p}`, SUMMARY_FILE));
  /** Data files a page's queries named, by quarter folder (the plain view names none). */
  const filesRead = () => sqls.flatMap((s) => [...s.matchAll(/period=(\d{4}Q\d)\/data\.parquet/g)].map((m) => m[1]));
  const holdingsQueries = () => sqls.filter((s) => /holdings_13f/.test(s));

  async function pages(path: string, limit: number, maxPages = 8): Promise<string[]> {
    const out: string[] = [];
    let cursor: string | null = null;
    let n = 0;
    do {
      const r = await app.get(`${path}${path.includes('?') ? '&' : '?'}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      out.push(...r.body.data.map((d: any) => `${d.period}|${d.cusip}|${d.manager_cik}|${d.accession_number}|${d.value_usd}|${d.shares}`));
      cursor = r.body.page.next_cursor;
    } while (cursor && ++n < maxPages);
    return out;
  }

  /** The same pages with the summaries hidden from the page reader: today's path over the views. */
  async function pagesWithout(path: string, limit: number): Promise<string[]> {
    const lake = app.services.lake;
    const real = lake.summaries;
    lake.summaries = () => undefined;
    try {
      return await pages(path, limit);
    } finally {
      lake.summaries = real;
    }
  }

  beforeAll(async () => {
    // The summaries over the Parquet path (which files a page names); with serving copies: serving.test.ts.
    app = await createTestApp({ routes: holdings13fRoutes, env: { LAKE_SERVING: 'off' } });
    await app.ingestSample(dataset13f, { scale: 0.2, skipDiff: true });
    const lake = app.services.lake;
    const query = lake.query.bind(lake);
    lake.query = (sql, params, o) => {
      sqls.push(sql);
      return query(sql, params, o);
    };
  });
  afterAll(() => app.close());

  const periods = async () => (await app.services.lake.partitions('holdings_13f')).sort();

  it('writes one summary per quarter of both tables, in the same commit as the data', async () => {
    const ps = await periods();
    expect(ps.length).toBeGreaterThan(1);
    for (const f of [...summaryPaths('holdings_13f', ps), ...summaryPaths('holdings_13f_by_manager', ps)]) expect(existsSync(f), f).toBe(true);
    const s = app.services.lake.summaries('holdings_13f')!;
    expect([...s.values()].every((x) => x !== null)).toBe(true);
    const [{ n }] = await app.services.lake.query('SELECT count(DISTINCT cusip) AS n FROM holdings_13f WHERE period = $1', [ps[0]]);
    expect(s.get(ps[0])!.keys.size).toBe(Number(n));
  });

  it('pages with summaries equal pages without, for every filter of the list, across quarters', async () => {
    const { cusip, queries } = await holdingsPagesToCompare(app.services.lake);
    for (const q of queries) {
      // Small pages cross quarters on the selective filters; the unselective ones are compared on a few big pages.
      for (const limit of q.includes('cusip=') || /manager=\d/.test(q) ? [3, 25] : [25]) {
        const want = await pagesWithout(q, limit);
        sqls = [];
        expect(await pages(q, limit), `${q} limit ${limit}`).toEqual(want);
      }
    }
    // The CUSIP page walked several quarters, each named by file.
    sqls = [];
    const all = await pages(`/v1/holdings?cusip=${cusip}`, 25, 100);
    expect(new Set(all.map((x) => x.split('|')[0])).size).toBeGreaterThan(1);
    expect(holdingsQueries().every((s) => s.includes('read_parquet'))).toBe(true);
  }, 300_000);

  it('an unknown CUSIP or manager answers an empty page without opening a data file', async () => {
    for (const q of ['/v1/holdings?cusip=000000000', '/v1/holdings?manager=9999999999', '/v1/holdings?cusip=000000000&min_value=5']) {
      sqls = [];
      const r = await app.get(q);
      expect(r.status).toBe(200);
      expect(r.body.data).toEqual([]);
      expect(holdingsQueries(), q).toEqual([]);
    }
  });

  it('skips a quarter whose largest value for the key is below min_value, and only that quarter', async () => {
    // A CUSIP present in several quarters whose largest values differ: a minimum between them rules some out.
    const all = await app.services.lake.query(
      'SELECT cusip, period, max(value_usd) AS m FROM holdings_13f WHERE value_usd IS NOT NULL GROUP BY 1, 2 ORDER BY 1, m',
    );
    const byCusip = new Map<string, Record<string, unknown>[]>();
    for (const r of all) byCusip.set(String(r.cusip), [...(byCusip.get(String(r.cusip)) ?? []), r]);
    const rows = [...byCusip.values()].find((rs) => rs.length >= 2 && Math.floor(Number(rs[0].m)) + 1 <= Number(rs[rs.length - 1].m))!;
    const cusip = String(rows[0].cusip);
    const low = rows[0];
    const min = Math.floor(Number(low.m)) + 1;
    const kept = rows.filter((r) => Number(r.m) >= min).map((r) => String(r.period));
    expect(kept.length).toBeGreaterThan(0);
    const q = `/v1/holdings?cusip=${cusip}&min_value=${min}`;
    const want = await pagesWithout(q, 100);
    sqls = [];
    expect(await pages(q, 100)).toEqual(want);
    expect(new Set(filesRead())).toEqual(new Set(kept));
    expect(filesRead()).not.toContain(String(low.period));
  });

  it("keeps each key's 26th-largest value beside its max, as the data holds it", async () => {
    const ps = await periods();
    const newest = ps[ps.length - 1];
    const s = app.services.lake.summaries('holdings_13f')!.get(newest)!;
    const [{ cusip }] = await app.services.lake.query('SELECT cusip FROM holdings_13f WHERE period = $1 GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1', [
      newest,
    ]);
    const values = (
      await app.services.lake.query('SELECT value_usd FROM holdings_13f WHERE period = $1 AND cusip = $2 AND value_usd IS NOT NULL', [newest, cusip])
    )
      .map((r) => Number(r.value_usd))
      .sort((a, b) => b - a);
    const stats = s.keys.get(String(cusip))!;
    expect(stats.max).toBe(values[0]);
    expect(stats.nth).toBe(values.length >= FILL_RANK ? values[FILL_RANK - 1] : null);
  });

  it('a first quarter that cannot fill the page is read with the later ones in one query; one that can is read alone', async () => {
    // The newest quarter of a CUSIP in several quarters, and how many of its lines that quarter holds.
    const [row] = await app.services.lake.query(
      'WITH q AS (SELECT cusip, period, count(*) AS n, max(period) OVER (PARTITION BY cusip) AS newest, count(*) OVER (PARTITION BY cusip) AS quarters ' +
        'FROM holdings_13f GROUP BY 1, 2) SELECT cusip, n FROM q WHERE period = newest AND quarters > 1 AND n >= 2 ORDER BY n, cusip LIMIT 1',
    );
    const cusip = String(row.cusip);
    const lines = Number(row.n);
    const quarters = (await app.services.lake.query('SELECT DISTINCT period FROM holdings_13f WHERE cusip = $1', [cusip])).map((r) => String(r.period));
    const q = `/v1/holdings?cusip=${cusip}&include_superseded=true`;
    // A page of more rows than the newest quarter's lines: one query over every quarter holding the CUSIP.
    const big = lines + 5;
    const want = await pagesWithout(q, big);
    sqls = [];
    expect(await pages(q, big, 1)).toEqual(want.slice(0, big));
    expect(holdingsQueries()).toHaveLength(1);
    expect(new Set(filesRead())).toEqual(new Set(quarters));
    // A page the newest quarter can fill: that quarter alone.
    sqls = [];
    const r = await app.get(`${q}&limit=1`);
    expect(r.body.data).toHaveLength(1);
    expect(holdingsQueries()).toHaveLength(1);
    expect(filesRead()).toHaveLength(1);
  });

  it("bounds the rows a partition may hold within a page's filters from its summary", () => {
    const summary = {
      max: 100,
      keys: new Map([
        ['A', { rows: 300, max: 100, nth: 50 }],
        ['B', { rows: 10, max: 9, nth: null }],
        ['C', { rows: 40, max: 80 }],
      ]),
    };
    expect(rowsAtMost(summary, { keys: ['A'] })).toBe(300);
    expect(rowsAtMost(summary, { keys: ['A'], min: 50 })).toBe(300);
    expect(rowsAtMost(summary, { keys: ['A'], min: 51 })).toBe(FILL_RANK - 1);
    expect(rowsAtMost(summary, { keys: ['A'], min: 101 })).toBe(0);
    expect(rowsAtMost(summary, { keys: ['B'], min: 1 })).toBe(10);
    expect(rowsAtMost(summary, { keys: ['A', 'B', 'A'], min: 60 })).toBe(FILL_RANK - 1 + 0);
    // A summary written before the rank: only its row counts bound the page.
    expect(rowsAtMost(summary, { keys: ['C'], min: 70 })).toBe(40);
    expect(rowsAtMost(summary, { keys: ['Z'] })).toBe(0);
    expect(rowsAtMost(summary, { min: 1 })).toBe(Number.POSITIVE_INFINITY);
    expect(rowsAtMost(null, { keys: ['A'] })).toBe(Number.POSITIVE_INFINITY);
  });

  it("says when every row within a page's bounds is among its key's top rows (the top index may answer)", () => {
    const summary = {
      max: 100,
      keys: new Map([
        ['A', { rows: 300, max: 100, nth: 50 }],
        ['B', { rows: TOP_ROWS, max: 9, nth: null }],
        ['C', { rows: 40, max: 80 }],
        ['D', { rows: 30, max: 70, nth: null }],
      ]),
    };
    expect(TOP_ROWS).toBe(FILL_RANK - 1);
    // Above the 26th-largest value only the top 25 reach the minimum; at it, a 26th row may.
    expect(allInTop(summary, { keys: ['A'], min: 51 })).toBe(true);
    expect(allInTop(summary, { keys: ['A'], min: 50 })).toBe(false);
    expect(allInTop(summary, { keys: ['A'] })).toBe(false);
    // A key with no more rows than the top keeps, whatever the minimum; one with none reaching it.
    expect(allInTop(summary, { keys: ['B'] })).toBe(true);
    expect(allInTop(summary, { keys: ['A'], min: 101 })).toBe(true);
    // Fewer than 26 values (the rest NULL): every value is in the top, and NULLs never reach a minimum.
    expect(allInTop(summary, { keys: ['D'], min: 1 })).toBe(true);
    expect(allInTop(summary, { keys: ['D'] })).toBe(false);
    // A summary written before the rank, an unknown key, no keys, no summary.
    expect(allInTop(summary, { keys: ['C'], min: 79 })).toBe(false);
    expect(allInTop(summary, { keys: ['Z'], min: 1 })).toBe(true);
    expect(allInTop(summary, { min: 1 })).toBe(false);
    expect(allInTop(null, { keys: ['A'], min: 51 })).toBe(false);
    // Every key must qualify.
    expect(allInTop(summary, { keys: ['A', 'B'], min: 51 })).toBe(true);
    expect(allInTop(summary, { keys: ['A', 'C'], min: 51 })).toBe(false);
  });

  it('a listing reads again only the summaries whose files changed, and reads a rewritten one afresh', async () => {
    const ps = await periods();
    const reads: string[] = [];
    const reader = await openLakeReader(lakeDir(), [], { onSummaryRead: (table, partition) => reads.push(`${table}/${partition}`) });
    try {
      expect(reads).toHaveLength(2 * ps.length);
      const first = reader.summaries('holdings_13f')!;
      reads.length = 0;
      await reader.refresh();
      expect(reads).toEqual([]);
      expect(reader.summaries('holdings_13f')).toEqual(first);
      // The newest quarter's summary written again (a commit renames a new file in): read afresh, alone.
      const path = summaryPaths('holdings_13f', [ps.at(-1)!])[0];
      copyFileSync(path, `${path}.next`);
      renameSync(`${path}.next`, path);
      await reader.refresh();
      expect(reads).toEqual([`holdings_13f/${ps.at(-1)}`]);
      expect(reader.summaries('holdings_13f')).toEqual(first);
      // A summary that no longer describes its data file is not taken from what was read before.
      reads.length = 0;
      const data = join(lakeDir(), 'holdings_13f', `period=${ps[0]}`, 'data.parquet');
      copyFileSync(data, `${data}.keep`);
      try {
        writeFileSync(data, Buffer.concat([readFileSync(`${data}.keep`), Buffer.from('x')]));
        await reader.refresh();
        expect(reader.summaries('holdings_13f')!.get(ps[0])).toBeNull();
      } finally {
        renameSync(`${data}.keep`, data);
      }
      await reader.refresh();
      expect(reader.summaries('holdings_13f')).toEqual(first);
    } finally {
      await reader.close();
    }
  });

  it('a partition file gone under the listing (a compaction) plans the page again over the new listing', async () => {
    const [{ cusip }] = await app.services.lake.query('SELECT cusip FROM holdings_13f GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1');
    const q = `/v1/holdings?cusip=${cusip}`;
    const want = await pages(q, 25, 1);
    const lake = app.services.lake;
    const query = lake.query;
    let failed = 0;
    lake.query = (sql, params, o) => {
      if (!failed && sql.includes('read_parquet')) {
        failed++;
        return Promise.reject(new Error('IO Error: Cannot open file "gone.parquet": No such file or directory'));
      }
      return query(sql, params, o);
    };
    try {
      expect(await pages(q, 25, 1)).toEqual(want);
      expect(failed).toBe(1);
    } finally {
      lake.query = query;
    }
  });

  it('a crash between a partition rename and its summary rename leaves no summary that hides rows; the roll forward restores it', async () => {
    // A second sample over the same quarters, committed until the first holdings file is renamed, then "killed".
    const from = join(app.dataDir, 'samples', 'seed-7');
    await dataset13f.sample!(from, { seed: 7, scale: 0.2 });
    const ps = await periods();
    const newest = ps[ps.length - 1];
    const target = join(lakeDir(), 'holdings_13f', `period=${newest}`, 'data.parquet');
    const { runIngest } = await import('../../ingest/pipeline/index.ts');
    const failing = runIngest(dataset13f, { from }, app.settings, {
      quiet: true,
      skipDiff: true,
      afterRename: (_done, r) => {
        if (r.to === target) throw new Error('simulated crash between data and summary');
      },
    });
    await expect(failing).rejects.toThrow(/simulated crash/);
    await app.services.lake.refresh();
    expect(existsSync(join(lakeDir(), 'holdings_13f', `period=${newest}`, SUMMARY_FILE))).toBe(true);
    // The new file is in place beside the summary of the file it replaced: that summary no longer counts.
    expect(app.services.lake.summaries('holdings_13f')!.get(newest)).toBeNull();
    const [{ cusip }] = await app.services.lake.query('SELECT cusip FROM holdings_13f WHERE period = $1 GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1', [
      newest,
    ]);
    for (const q of [`/v1/holdings?cusip=${cusip}`, `/v1/holdings?cusip=${cusip}&min_value=1`]) expect(await pages(q, 5)).toEqual(await pagesWithout(q, 5));

    const r = await recoverInterruptedRuns(app.settings, { quiet: true });
    expect(r.rolledForward).toHaveLength(1);
    await app.services.lake.refresh();
    expect(app.services.lake.summaries('holdings_13f')!.get(newest)).not.toBeNull();
    const q = `/v1/holdings?cusip=${cusip}`;
    expect(await pages(q, 5)).toEqual(await pagesWithout(q, 5));
  });
  it('a lake without summaries (written before them) still answers, on the plain path', async () => {
    const [{ cusip }] = await app.services.lake.query('SELECT cusip FROM holdings_13f GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1');
    const q = `/v1/holdings?cusip=${cusip}`;
    const want = await pages(q, 4);
    const ps = await periods();
    const removed = summaryPaths('holdings_13f', ps);
    for (const f of removed) rmSync(f);
    await app.services.lake.refresh();
    expect([...app.services.lake.summaries('holdings_13f')!.values()].every((s) => s === null)).toBe(true);
    sqls = [];
    expect(await pages(q, 4)).toEqual(want);
    expect(filesRead()).toEqual([]);
    expect((await pages('/v1/holdings?cusip=000000000', 4)).length).toBe(0);
  });
});
