import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keysetCursor } from '../../api/core/cursor.ts';
import { selectPage } from '../../api/core/page-query.ts';
import eventsRoutes from '../../api/events/routes.ts';
import { appendEvents } from '../../ingest/events/writer.ts';
import type { EventDraft } from '../../schemas/events.ts';
import { eventsTable } from '../../schemas/tables/events.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { pageAll as walk } from '../support/page-all.ts';

/**
 * /v1/events walks its day folders newest first (api/core/page-query.ts, windowed walk). Its pages must be exactly the
 * rows of the one-query `seq DESC` scan, whatever the page size against the day sizes, the filters and the gaps; and a
 * page must read only the days it needs.
 */

const DAYS = 24;
const START = Date.UTC(2025, 0, 1, 9, 30);
const day = (i: number) => new Date(START + i * 86_400_000).toISOString().slice(0, 10);
/** Events appended on day i: every fifth day none (no folder), else 1 to 11; two appends on the days divisible by 3. */
const sizes = Array.from({ length: DAYS }, (_, i) => (i % 5 === 4 ? 0 : ((i * 7) % 11) + 1));

function draft(d: number, j: number): EventDraft {
  const k = d * 100 + j;
  return {
    event_type: k % 3 === 0 ? 'sec.8k.executive_change' : k % 3 === 1 ? 'sec.formd.new_offering' : 'sec.filing.new',
    importance: k % 4 === 0 ? 'high' : k % 4 === 1 ? 'medium' : 'low',
    confidence: 1,
    entity_cik: k % 2 ? '0000320193' : '0000789019',
    entity_ticker: k % 2 ? 'AAPL' : 'MSFT',
    entity_name: null,
    accession: null,
    summary: `event ${k}`,
    details: {},
    evidence: [],
    dedup_key: `walk|${k}`,
    occurred_at: null,
  };
}

describe('/v1/events: the partition-first walk over day folders', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ routes: eventsRoutes, env: { METERING: 'off', RATE_LIMIT_RPS: '100000' } });
    for (let d = 0; d < DAYS; d++) {
      const drafts = Array.from({ length: sizes[d] }, (_, j) => draft(d, j));
      if (!drafts.length) continue;
      // Through the writer itself, so the (day, seq) order it produces is the one tested; a second append the
      // same day later on, as the scheduler would make.
      const now = new Date(START + d * 86_400_000);
      const split = d % 3 === 0 ? Math.ceil(drafts.length / 2) : drafts.length;
      await appendEvents(app.settings, drafts.slice(0, split), { now });
      if (split < drafts.length) await appendEvents(app.settings, drafts.slice(split), { now: new Date(now.getTime() + 3_600_000) });
    }
    await app.services.lake.refresh();
  }, 120_000);
  afterAll(() => app.close());

  async function pageAll(qs: string, limit: number): Promise<string[]> {
    return (await walk(app, '/v1/events', { qs, limit, maxPages: 400 })).map((e: { id: string }) => e.id);
  }

  it('the lake holds what the test meant: gaps, several files a day, seq ascending with the day', async () => {
    const days = await app.services.lake.partitions('events');
    expect(days.length).toBe(sizes.filter((n) => n > 0).length);
    const [{ bad }] = await app.services.lake.query(
      'SELECT count(*)::INTEGER AS bad FROM events a JOIN events b ON a.detected_date < b.detected_date AND a.seq > b.seq',
    );
    expect(bad).toBe(0);
  });

  it.each([
    ['no filter', '', ''],
    ['importance_min=high', 'importance_min=high', 'WHERE importance_rank >= 3'],
    ['event_type=sec.8k.*', 'event_type=sec.8k.*', "WHERE event_type LIKE 'sec.8k.%'"],
    ['cik', 'cik=789019', "WHERE entity_cik = '0000789019'"],
    // Bounds inside days: since at 10:00 drops the 09:30 append of its first day and keeps its 10:30 one.
    [
      'since/until timestamps',
      `since=${day(3)}T10:00:00Z&until=${day(15)}T10:00:00Z`,
      `WHERE detected_at >= '${day(3)} 10:00' AND detected_at <= '${day(15)} 10:00'`,
    ],
    ['since/until dates', `since=${day(6)}&until=${day(13)}`, `WHERE detected_date BETWEEN '${day(6)}' AND '${day(13)}'`],
    ['until before the first day', 'until=2024-12-01', 'WHERE false'],
    ['since with a filter', `since=${day(10)}&importance_min=medium`, `WHERE detected_date >= '${day(10)}' AND importance_rank >= 2`],
  ])('%s: every row once, in seq DESC order, at page sizes below and above a day', async (_name, qs, where) => {
    const want = (await app.services.lake.query(`SELECT id FROM events ${where} ORDER BY seq DESC`)).map((r) => String(r.id));
    for (const limit of [1, 3, 25, 100]) {
      if (limit === 1 && want.length > 60) continue;
      const ids = await pageAll(qs, limit);
      expect(ids).toEqual(want);
    }
  });

  const order = eventsRoutes[0].kind === 'list' ? eventsRoutes[0].orderBy : [];
  const none = { where: [], params: [] };

  /** One page through the walk, with the days each query read (the hook) and the Parquet files its SQL named. */
  async function visits(n: number, cursorKey: unknown[] | null, bounds: { from?: string; to?: string } = {}) {
    const read: string[][] = [];
    let files = 0;
    const lake = app.services.lake;
    const counting: typeof lake = {
      ...lake,
      // Every read names its days' files (a relation from the listing), never the view of every day.
      query: (sql, p) => {
        if (sql.includes('FROM "events"')) return Promise.reject(new Error('the walk read the view of every day'));
        files += sql.split('.parquet').length - 1;
        return lake.query(sql, p);
      },
    };
    const rows = await selectPage(counting, eventsTable, order, none, n, cursorKey, { windows: true, ...bounds, onRead: (p) => read.push(p) });
    return { rows, read, files };
  }

  it('a page the newest day fills reads that day only', async () => {
    const newest = day(DAYS - 1);
    const { rows, read, files } = await visits(3, null);
    expect(rows.map((r) => r.detected_date)).toEqual([newest, newest, newest]);
    expect(read).toEqual([[newest]]);
    expect(files).toBe(1);
  });

  it('a page spanning days reads the newest days it needs, in growing windows, and skips days without folders', async () => {
    const listed = [...(await app.services.lake.partitions('events'))].sort().reverse();
    const { rows, read, files } = await visits(30, null);
    const needed = new Set(rows.map((r) => String(r.detected_date)));
    const visited = read.flat();
    // One file a day, two on the days with two appends (every third): no other day's file is named.
    const appends = (d: string) => {
      const i = (Date.parse(d) - Date.parse(day(0))) / 86_400_000;
      return i % 3 === 0 && sizes[i] > 1 ? 2 : 1;
    };
    expect(files).toBe(visited.reduce((sum, d) => sum + appends(d), 0));
    // A prefix of the listed days, newest first: no day read twice, no missing folder queried.
    expect(visited).toEqual(listed.slice(0, visited.length));
    expect(read.map((w) => w.length)).toEqual(read.map((_, i) => (i === 0 ? 1 : 2 ** (i - 1))));
    expect(visited.length).toBeLessThan(listed.length / 2);
    for (const d of needed) expect(visited).toContain(d);
  });

  it('a page after a cursor starts at the cursor day; since/until leave the other days unread', async () => {
    const first = await visits(4, null);
    const last = first.rows[3];
    const next = await visits(4, [last.detected_date, last.seq]);
    expect(next.read[0]).toEqual([last.detected_date]);
    expect(next.rows.every((r) => Number(r.seq) < Number(last.seq))).toBe(true);

    const bounded = await visits(1000, null, { from: day(6), to: day(13) });
    expect(bounded.read.flat().every((d) => d >= day(6) && d <= day(13))).toBe(true);
    expect(bounded.rows.length).toBe(sizes.slice(6, 14).reduce((a, b) => a + b, 0));
    expect((await visits(10, null, { to: '2024-12-01' })).read).toEqual([]);
  });

  it('a cursor altered, of the old seq-only shape, or with a bad day is a 422 on cursor', async () => {
    const r = await app.get('/v1/events?limit=2');
    const cursor: string = r.body.page.next_cursor;
    const tampered = `${cursor.slice(0, 10)}${cursor[10] === 'A' ? 'B' : 'A'}${cursor.slice(11)}`;
    const secret = 'test-cursor-secret-0123456789';
    const scope = { endpoint: '/v1/events', filters: { limit: 2 } };
    const oldShape = keysetCursor.issue(secret, scope, [5]);
    const badDay = keysetCursor.issue(secret, scope, ['2025-02-30', 5]);
    // The same scope and a real day: accepted (the test's secret and scope are the app's).
    expect((await app.get(`/v1/events?limit=2&cursor=${encodeURIComponent(keysetCursor.issue(secret, scope, [day(2), 10]))}`)).status).toBe(200);
    for (const c of [tampered, oldShape, badDay]) {
      const res = await app.get(`/v1/events?limit=2&cursor=${encodeURIComponent(c)}`);
      expect(res.status).toBe(422);
      expect(res.body.detail[0].loc).toEqual(['query', 'cursor']);
    }
  });
});
