import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partitionsAfter, within } from '../../api/core/page-order.ts';
import { comparator } from '../../ingest/lake/index.ts';
import eventsRoutes from '../../api/events/routes.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { writeEventDays } from '../support/event-days.ts';

/**
 * Issue #20: a page of /v1/events must cost the same at 36 and 3,650 day folders. What a page could do per folder is
 * counted here, never timed: how many partition values it compares, how many values of the listing it reads (the
 * sort runs once per listing), and how many statements it prepares (the first page's SQL texts repeat, so its
 * prepared statements are reused). Figures: docs/read-path.md.
 */

const dayOf = (i: number) => new Date(Date.UTC(2016, 0, 1 + i)).toISOString().slice(0, 10);

/** A comparator that counts its calls. */
function counted(type: string): { cmp: (a: unknown, b: unknown) => number; calls: () => number } {
  const base = comparator(type);
  let n = 0;
  return {
    cmp: (a, b) => {
      n++;
      return base(a, b);
    },
    calls: () => n,
  };
}

describe('partition bounds by binary search', () => {
  for (const size of [36, 3650]) {
    it(`at ${size} day folders: the same partitions as a pass over all of them, in O(log n) comparisons`, () => {
      const asc = Array.from({ length: size }, (_, i) => dayOf(i * 2));
      const desc = [...asc].reverse();
      // Bounds on folders, between folders, outside the listing, and absent.
      const probes = [undefined, dayOf(-5), dayOf(0), dayOf(7), dayOf(size), dayOf(size * 2 - 2), dayOf(size * 3)];
      const most = 2 * (Math.ceil(Math.log2(size + 1)) + 1);
      for (const [parts, dir] of [
        [asc, 'asc'],
        [desc, 'desc'],
      ] as const) {
        for (const from of probes) {
          for (const to of probes) {
            const c = counted('DATE');
            const got = within([...parts], { from, to }, c.cmp, dir);
            expect(got).toEqual(parts.filter((p) => (from === undefined || p >= from) && (to === undefined || p <= to)));
            expect(c.calls()).toBeLessThanOrEqual(most);
          }
          if (from === undefined) continue;
          const c = counted('DATE');
          expect(partitionsAfter([...parts], from, c.cmp, dir)).toEqual(parts.filter((p) => (dir === 'asc' ? p > from : p < from)));
          expect(c.calls()).toBeLessThanOrEqual(most / 2);
        }
      }
    });
  }

  it('compares integer partitions as numbers', () => {
    const parts = ['100', '10', '9', '2'];
    expect(partitionsAfter(parts, '10', comparator('INTEGER'), 'desc')).toEqual(['9', '2']);
    expect(within(parts, { from: '3', to: '99' }, comparator('INTEGER'), 'desc')).toEqual(['10', '9']);
  });
});

describe('/v1/events pages at 400 day folders: no per-folder work per request', () => {
  const DAYS = 400;
  let app: TestApp;
  const prepared: string[] = [];
  const ran: string[] = [];
  let listingReads = 0;
  beforeAll(async () => {
    app = await createTestApp({
      routes: eventsRoutes,
      env: { METERING: 'off', RATE_LIMIT_RPS: '100000' },
      lake: { hooks: { onPrepare: (sql) => prepared.push(sql) } },
    });
    await writeEventDays(app.settings.lakeDir, DAYS, 2);
    await app.services.lake.refresh();
    const lake = app.services.lake;
    // The listing's partition values behind a proxy that counts the values read; one proxy per listing array, so
    // the walk's cache of the sorted order (keyed by that array) behaves as with the real listing.
    const proxies = new WeakMap<string[], string[]>();
    const partitions = lake.partitions.bind(lake);
    lake.partitions = async (table) => {
      const values = await partitions(table);
      let proxy = proxies.get(values);
      if (!proxy) {
        proxy = new Proxy(values, {
          get(target, key, receiver) {
            if (typeof key === 'string' && /^\d+$/.test(key)) listingReads++;
            return Reflect.get(target, key, receiver);
          },
        });
        proxies.set(values, proxy);
      }
      return proxy;
    };
    const query = lake.query.bind(lake);
    lake.query = (sql, params, o) => {
      ran.push(sql);
      return query(sql, params, o);
    };
  }, 120_000);
  afterAll(() => app?.close());

  /** What a request read of the listing, prepared and ran. */
  async function counting(path: string) {
    listingReads = 0;
    prepared.length = 0;
    ran.length = 0;
    const r = await app.get(path);
    expect(r.status).toBe(200);
    return { body: r.body, listingReads, prepared: prepared.length, ran: [...ran] };
  }

  it('sorts the listing once, then reads none of it per page; a repeated first page prepares nothing', async () => {
    const first = await counting('/v1/events?limit=25');
    expect(first.body.data[0].summary).toBe(`event ${DAYS * 2 - 1}`);
    // The sort (and its check of every value) on the first request of this listing.
    expect(first.listingReads).toBeGreaterThanOrEqual(DAYS);
    for (let i = 0; i < 3; i++) {
      const again = await counting('/v1/events?limit=25');
      expect(again.body).toEqual(first.body);
      expect(again.listingReads).toBe(0);
      // The same SQL texts (relation texts name the same days' files), so the connection's statements are reused.
      expect(again.ran).toEqual(first.ran);
      expect(again.prepared).toBe(0);
    }
    const next = await counting(`/v1/events?limit=25&cursor=${encodeURIComponent(first.body.page.next_cursor)}`);
    expect(next.body.data[0].summary).toBe(`event ${DAYS * 2 - 26}`);
    expect(next.listingReads).toBe(0);
    const bounded = await counting(`/v1/events?limit=25&since=${dayOf(100)}&until=${dayOf(110)}`);
    expect(bounded.body.data).toHaveLength(22);
    expect(bounded.listingReads).toBe(0);
  });
});
