import { readdirSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import datasetInsider from '../../ingest/datasets/insider/dataset.ts';
import { runDaily } from '../../api/core/scheduler.ts';
import { createLiveLane } from '../../ingest/pipeline/index.ts';
import { compactAppends } from '../../ingest/pipeline/live/compact.ts';
import { hasFixtures } from '../support/fixtures.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { startFakeRegulator, type FakeRegulator } from '../support/fake-regulator.ts';
import { TestClock } from '../monitors-webhooks/support.ts';
import filingsRoutes from '../../api/filings/routes.ts';
import eventsRoutes from '../../api/events/routes.ts';
import serviceRoutes from '../../api/service/routes.ts';
import { tempDir } from '../support/temp-dir.ts';

/**
 * The live lane against a loopback regulator (real recorded filings under fresh accessions). Polls are driven by
 * hand (`pollOnce`) with an injected clock: nothing waits for the lane's timer.
 */
const MINUTE = 60_000;

describe.skipIf(!hasFixtures)('live lane', () => {
  const clock = new TestClock(Date.parse('2026-01-12T15:00:00.000Z'));
  let sec: FakeRegulator;
  let app: TestApp;
  /** Each partition head the API's reader made: `table:partition:built` or `table:partition:grown`. */
  const heads: string[] = [];

  beforeAll(async () => {
    sec = await startFakeRegulator({ now: clock.now });
    app = await createTestApp({
      routes: [...filingsRoutes, ...eventsRoutes, ...serviceRoutes],
      now: clock.now,
      // Two feed entries a page: a Form 4 (issuer + owner entries) fills a page by itself, so paging is exercised.
      env: {
        SEC_BASE_URL: sec.url,
        SEC_DATA_BASE_URL: sec.url,
        LIVE: 'on',
        LIVE_PAGE_SIZE: '2',
        LIVE_INTERVAL_MS: '30000',
        THROTTLE_PAUSE_MS: '0',
        LIVE_COMPACT_FILES: '4',
      },
      lake: { hooks: { onHead: (table, partition, how) => heads.push(`${table}:${partition}:${how}`) } },
    });
  });
  afterAll(async () => {
    await app?.close();
    await sec?.close();
  });

  // Lanes built here stand for other processes: the app's views take their commits in at the next catalog check
  // (docs/read-path.md), so the test asks for that check before reading.
  const lakeAccessions = async (table: string) => {
    await app.services.lake.refresh();
    return (await app.services.lake.query(`SELECT DISTINCT accession FROM ${table}`)).map((r) => String(r.accession)).sort();
  };
  const feedPages = () => sec.hits.filter((h) => h.startsWith('/cgi-bin/browse-edgar')).length;

  it('a first poll takes the current feed page; the next finds every new filing across several pages', async () => {
    const first = sec.publish('8k');
    await app.services.live.pollOnce();
    expect(await lakeAccessions('filings')).toEqual([first.accession]);

    clock.advance(MINUTE);
    const burst = [sec.publish('form4'), sec.publish('13d'), sec.publish('8k')];
    const before = feedPages();
    await app.services.live.pollOnce();
    // 5 new entries at 2 a page, then the page holding the known 8-K: 3 pages.
    expect(feedPages() - before).toBe(3);
    expect(await lakeAccessions('filings')).toEqual([first, ...burst].map((f) => f.accession).sort());
    expect(await lakeAccessions('insider_transactions')).toEqual([burst[0].accession]);
    expect(await lakeAccessions('beneficial_ownership')).toEqual([burst[1].accession]);
    // The owner and the issuer are both listed, as in the daily index.
    const f4 = await app.services.lake.query('SELECT cik FROM filings WHERE accession = $1 ORDER BY cik', [burst[0].accession]);
    expect(f4.map((r) => String(r.cik))).toEqual(['0000320193', '0001462356']);

    const health = (await app.get('/healthz', null)).body.live;
    expect(health).toMatchObject({ enabled: true, status: 'idle', backlog: 0, lag_seconds: 0, filings_ingested: 4 });
    expect(health.newest_ingested_at).toBe(burst[2].updated.toISOString());
  });

  it('events follow in the same poll, and a poll with nothing new fetches one page and writes nothing', async () => {
    const ev = await app.services.lake.query(`SELECT event_type, accession FROM events WHERE accession LIKE '0001999999-%'`);
    expect(ev.filter((e) => e.event_type === 'sec.filing.new')).toHaveLength(4);
    // The 8-K's item from its header page, as the nightly submissions lane would give it.
    expect(ev.filter((e) => e.event_type === 'sec.8k.executive_change')).toHaveLength(2);
    expect(ev.filter((e) => e.event_type === 'sec.form4.insider_sell')).toHaveLength(1);
    const before = sec.hits.length;
    expect(await app.services.live.pollOnce()).toBeNull();
    expect(sec.hits.length - before).toBe(1);
  });

  it('a batch grows the head of the filing index’s newest quarter by its filings, not a new top-N: the first page leads with them', async () => {
    heads.length = 0;
    clock.advance(MINUTE);
    const next = sec.publish('8k');
    // The lane refreshes the app's views after its commit (an in-process writer), heads included.
    await app.services.live.pollOnce();
    expect(heads).toEqual(['filings:2026Q1:grown']);
    const page = await app.get('/v1/filings?limit=1');
    expect(page.body.data.map((f: { accession: string }) => f.accession)).toEqual([next.accession]);
  });

  it('a restart between polls loses nothing, and a crash during an ingest leaves the batch pending for the next process', async () => {
    clock.advance(MINUTE);
    const a = sec.publish('form4');
    // A process that sees the filing but dies in the ingest (the run throws before anything is written).
    const crashing = createLiveLane({
      settings: app.settings,
      http: app.services.http,
      now: clock.now,
      run: async () => {
        throw new Error('simulated crash');
      },
    });
    await crashing.pollOnce();
    expect(crashing.health()).toMatchObject({ backlog: 1, status: 'degraded' });
    expect(await lakeAccessions('insider_transactions')).not.toContain(a.accession);

    clock.advance(MINUTE);
    const b = sec.publish('8k');
    // A new process over the same data folder: the pending Form 4 and the newer 8-K both arrive.
    const restarted = createLiveLane({ settings: app.settings, http: app.services.http, now: clock.now });
    await restarted.pollOnce();
    expect(restarted.health()).toMatchObject({ backlog: 0, status: 'idle' });
    expect(await lakeAccessions('insider_transactions')).toContain(a.accession);
    expect(await lakeAccessions('filings')).toEqual(expect.arrayContaining([a.accession, b.accession]));
  });

  it('a filing the archive cannot serve yet is retried every poll and shown in health, never dropped', async () => {
    clock.advance(MINUTE);
    const late = sec.publish('13d');
    const other = sec.publish('8k');
    sec.withhold(late.accession, 2);
    const lane = createLiveLane({ settings: app.settings, http: app.services.http, now: clock.now });
    await lane.pollOnce();
    expect(await lakeAccessions('filings')).toContain(other.accession);
    expect(lane.health()).toMatchObject({ backlog: 1, failing: [expect.objectContaining({ accession: late.accession, attempts: 1 })] });

    clock.advance(30_000);
    await lane.pollOnce();
    expect(lane.health().failing).toEqual([expect.objectContaining({ accession: late.accession, attempts: 2 })]);

    clock.advance(30_000);
    await lane.pollOnce();
    expect(lane.health()).toMatchObject({ backlog: 0, failing: [] });
    expect(await lakeAccessions('beneficial_ownership')).toContain(late.accession);
  });

  it('a filing the feed lists late, with an acceptance time older than the newest ingested, is still taken', async () => {
    const lane = createLiveLane({ settings: app.settings, http: app.services.http, now: clock.now });
    const late = sec.publish('8k', new Date(clock.now().getTime() - 10 * MINUTE));
    await lane.pollOnce();
    expect(await lakeAccessions('filings')).toContain(late.accession);
    expect(lane.health().backlog).toBe(0);
  });

  it('a throttled feed doubles the interval (degraded), and a clean poll restores it', async () => {
    const lane = createLiveLane({ settings: app.settings, http: app.services.http, now: clock.now });
    sec.throttleFeed(2);
    await lane.pollOnce();
    expect(lane.health()).toMatchObject({ status: 'degraded', interval_ms: 60_000, errors: 1 });
    await lane.pollOnce();
    expect(lane.health()).toMatchObject({ status: 'degraded', interval_ms: 120_000, errors: 2 });
    await lane.pollOnce();
    expect(lane.health()).toMatchObject({ status: 'idle', interval_ms: 30_000 });
  });

  it('each batch appends a small file to the partition instead of rewriting it; at LIVE_COMPACT_FILES they are folded back', async () => {
    const dir = join(app.settings.lakeDir, 'filings', 'filed_quarter=2026Q1');
    const files = () => readdirSync(dir).filter((f) => f.endsWith('.parquet'));
    const rowsBefore = await lakeAccessions('filings');
    const lane = createLiveLane({ settings: app.settings, http: app.services.http, now: clock.now });
    const counts: number[] = [];
    for (let i = 0; i < 4; i++) {
      clock.advance(30_000);
      sec.publish('8k');
      await lane.pollOnce();
      counts.push(files().filter((f) => f.startsWith('part-live-')).length);
    }
    // Compaction ran whenever a fourth append file appeared: back to the data file alone, never 4 files left.
    expect(counts).toContain(0);
    expect(Math.max(...counts)).toBeLessThan(4);
    expect(files()).toContain('data.parquet');
    expect((await lakeAccessions('filings')).length).toBe(rowsBefore.length + 4);
  });

  it('a batch ingested again after a crash before its state was saved is read once, before any compaction', async () => {
    // No compaction in this test: the rows must read once while both append files sit beside the data file.
    const settings = { ...app.settings, LIVE_COMPACT_FILES: 1_000 };
    const statePath = join(app.settings.dataDir, 'live', 'state.json');
    const saved = await readFile(statePath, 'utf8');
    clock.advance(30_000);
    const f4 = sec.publish('form4');
    await createLiveLane({ settings, http: app.services.http, now: clock.now }).pollOnce();
    await app.services.lake.refresh();
    const once = await app.get(`/v1/filings?accession=${f4.accession}`, app.key);
    expect(once.body.data).toHaveLength(2);
    const insider = async () =>
      (await app.services.lake.query('SELECT count(*)::INTEGER AS n FROM insider_transactions WHERE accession = $1', [f4.accession]))[0].n;
    const lines = await insider();
    // The process died after the lake's commit, before the state file took the filing: the next one ingests it again.
    await writeFile(statePath, saved);
    await createLiveLane({ settings, http: app.services.http, now: clock.now }).pollOnce();
    await app.services.lake.refresh();
    const dir = join(app.settings.lakeDir, 'insider_transactions');
    const appended = readdirSync(dir).flatMap((p) => (p.includes('=') ? readdirSync(join(dir, p)).filter((f) => f.startsWith('part-live-')) : []));
    expect(appended.length).toBeGreaterThanOrEqual(2);
    const again = await app.get(`/v1/filings?accession=${f4.accession}`, app.key);
    expect(again.body.data).toEqual(once.body.data);
    expect(await insider()).toBe(lines);
  });

  it('a compaction runs within the ingest memory bounds; one that fails leaves the partition as it was', async () => {
    // The previous test left append files beside insider_transactions' data files.
    const spec = datasetInsider.tables.find((t) => t.name === 'insider_transactions')!;
    const dir = join(app.settings.lakeDir, spec.name);
    const values = readdirSync(dir)
      .filter((p) => p.includes('='))
      .map((p) => p.split('=')[1]);
    const files = () =>
      readdirSync(dir)
        .filter((p) => p.includes('='))
        .flatMap((p) => readdirSync(join(dir, p)).filter((f) => f.endsWith('.parquet') || f.endsWith('.duckdb')))
        .sort();
    const lines = async () => (await app.services.lake.query('SELECT count(*)::INTEGER AS n FROM insider_transactions'))[0].n;
    const before = files();
    const rows = await lines();
    expect(before.some((f) => f.startsWith('part-live-'))).toBe(true);
    // INGEST_MEMORY_LIMIT reaches the compaction's DuckDB: at 1KB it cannot run (it ran on DuckDB's default before).
    await expect(compactAppends({ ...app.settings, INGEST_MEMORY_LIMIT: '1KB' }, spec, values, 1)).rejects.toThrow(
      /Out of Memory[\s\S]*This ran within 1KB \(INGEST_MEMORY_LIMIT\)/,
    );
    expect(files()).toEqual(before);
    // Unset, the dataset's own limit applies.
    await expect(compactAppends({ ...app.settings, INGEST_MEMORY_LIMIT: undefined }, spec, values, 1, '1KB')).rejects.toThrow(
      /Out of Memory[\s\S]*This ran within 1KB \(the dataset's default\)/,
    );
    expect(files()).toEqual(before);
    await app.services.lake.refresh();
    expect(await lines()).toBe(rows);
    // Within the default bound the append files are folded, and every line reads once as before.
    expect((await compactAppends({ ...app.settings, INGEST_MEMORY_LIMIT: undefined }, spec, values, 1)).length).toBeGreaterThan(0);
    expect(files().some((f) => f.startsWith('part-live-'))).toBe(false);
    await app.services.lake.refresh();
    expect(await lines()).toBe(rows);
  });

  it('/v1/sources shows the lane on the tables it feeds', async () => {
    const r = await app.get('/v1/sources', null);
    const filings = r.body.data.find((d: { table: string }) => d.table === 'filings');
    expect(filings.live).toMatchObject({ enabled: true, datasets: expect.arrayContaining(['filings', 'insider', 'ownership']) });
  });

  it('the daily lane over the same day, and a re-ingest of the owned filings, add no event twice', async () => {
    await app.services.lake.refresh();
    const before = await app.services.lake.query('SELECT count(*)::INTEGER AS n FROM events');
    await runDaily(app.settings, sec.easternDay(clock.now()), () => {});
    await app.services.lake.refresh();
    const dup = await app.services.lake.query('SELECT dedup_key, count(*)::INTEGER AS n FROM events GROUP BY dedup_key HAVING count(*) > 1');
    expect(dup).toEqual([]);
    const after = await app.services.lake.query('SELECT count(*)::INTEGER AS n FROM events');
    expect(after[0].n).toBe(before[0].n);
    // The daily lane's rows merged over the live ones: still one row per (accession, cik).
    const rows = await app.services.lake.query(`SELECT accession, cik, count(*)::INTEGER AS n FROM filings GROUP BY 1, 2 HAVING count(*) > 1`);
    expect(rows).toEqual([]);
    expect((await lakeAccessions('filings')).length).toBe(sec.published.length);
    // The daily lane's merge folded the live append files back into the partition's one data file.
    const quarter = `filed_quarter=${sec.easternDay(clock.now()).slice(0, 4)}Q${Math.ceil(Number(sec.easternDay(clock.now()).slice(5, 7)) / 3)}`;
    expect(readdirSync(join(app.settings.lakeDir, 'filings', quarter)).filter((f) => f.endsWith('.parquet'))).toEqual(['data.parquet']);
    // The 8-K items the live lane took from the header page survive the daily index's merge.
    const items = await app.services.lake.query(`SELECT DISTINCT items FROM filings WHERE form = '8-K' AND accession LIKE '0001999999-%'`);
    expect(items).toEqual([{ items: '5.02' }]);

    // The nightly lane re-reading the same Form 4s (its --from path) adds no event either.
    const dir = tempDir('live-f4-');
    for (const f of sec.published.filter((p) => p.form === '4')) await writeFile(join(dir, `${f.accession}.txt`), f.body);
    const s = await app.ingest(datasetInsider, { from: dir });
    expect(s.rowsWritten).toBeGreaterThan(0);
    expect(s.events.appended).toBe(0);
  });
});
