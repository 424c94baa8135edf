import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ListEndpoint } from '../../api/core/endpoint.ts';
import { openDuck, queryRows } from '../../ingest/lake/index.ts';
import { exportCost } from '../../schemas/plans.ts';
import { buildDemoLake } from '../support/demo-lake.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';

/**
 * Bulk exports (`<list>/export`) over the demo lake: every list's NDJSON export is its paged list concatenated (the
 * whole list when it has at most PAGES pages, else that many pages as the export's head, with the row count checked
 * against X-Export-Rows); CSV and Parquet carry the same records on a few lists; the list's 422s; the charge by rows;
 * a 402 before any byte.
 */

const PAGES = 12;
let app: TestApp;
let lists: ListEndpoint[];

async function getRaw(path: string, key = app.key): Promise<Response> {
  return fetch(`${app.baseUrl}${path}`, { headers: { Authorization: `Bearer ${key}` } });
}

/** The list's records page by page (limit 100), at most `maxPages` pages; `complete` when the last page said so. */
async function paged(path: string, query: string, maxPages: number): Promise<{ records: Record<string, unknown>[]; complete: boolean }> {
  const records: Record<string, unknown>[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < maxPages; i++) {
    const sep = query ? '&' : '';
    const r = await app.get(`${path}?${query}${sep}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(r.status, `${path} page ${i}`).toBe(200);
    records.push(...r.body.data);
    cursor = r.body.page.next_cursor;
    if (!cursor) return { records, complete: true };
  }
  return { records, complete: false };
}

const ndjson = (text: string) =>
  text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

/** RFC 4180 as a client would write it, independently of the server's encoder. */
function csvOf(records: Record<string, unknown>[], fields: string[]): string {
  const cell = (v: unknown) => {
    if (v === null || v === undefined) return '';
    const s = typeof v === 'object' ? JSON.stringify(v) : String(v);
    return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
  };
  return [fields.join(','), ...records.map((r) => fields.map((f) => cell(r[f])).join(','))].map((l) => `${l}\n`).join('');
}

beforeAll(async () => {
  app = await createTestApp({ env: { RATE_LIMIT_RPS: '100000' } });
  await buildDemoLake(app.settings);
  // The app opened on an empty lake: its views take the demo lake in now rather than at the next catalog check.
  await app.services.lake.refresh();
  lists = app.handle.endpoints.filter((e): e is ListEndpoint => e.kind === 'list');
}, 600_000);

afterAll(async () => {
  await app?.close();
});

describe('bulk export', () => {
  it('NDJSON: every list endpoint exports its paged list, in order, with the row count and the charge by rows', async () => {
    for (const ep of lists) {
      const res = await getRaw(`${ep.path}/export?format=ndjson`);
      expect(res.status, ep.path).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/application\/x-ndjson/);
      const exported = ndjson(await res.text());
      const rows = Number(res.headers.get('x-export-rows'));
      expect(exported.length, ep.path).toBe(rows);
      expect(Number(res.headers.get('x-credits-charged')), ep.path).toBe(exportCost(rows));
      const { records, complete } = await paged(ep.path, '', PAGES);
      if (complete) expect(exported, ep.path).toEqual(records);
      else expect(exported.slice(0, records.length), ep.path).toEqual(records);
    }
  }, 600_000);

  const FILTERED: [string, string][] = [
    ['/v1/advisers', 'state=NY'],
    ['/v1/events', 'event_type=sec.8k.*'],
    ['/v1/insider', ''],
  ];

  it.each(FILTERED)(
    'CSV of %s?%s is the paged list as CSV',
    async (path, query) => {
      const ep = lists.find((l) => l.path === path)!;
      const res = await getRaw(`${path}/export?${query}${query ? '&' : ''}format=csv`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-disposition')).toMatch(/attachment; filename=".+\.csv"/);
      const { records, complete } = await paged(path, query, 1000);
      expect(complete).toBe(true);
      const fields = Object.keys((ep.record as unknown as { shape: Record<string, unknown> }).shape);
      expect(await res.text()).toBe(csvOf(records, fields));
    },
    120_000,
  );

  it.each(FILTERED)(
    'Parquet of %s?%s holds the paged list',
    async (path, query) => {
      const res = await getRaw(`${path}/export?${query}${query ? '&' : ''}format=parquet`);
      expect(res.status).toBe(200);
      const dir = await mkdtemp(join(tmpdir(), 'export-test-'));
      const file = join(dir, 'x.parquet');
      await writeFile(file, Buffer.from(await res.arrayBuffer()));
      const { instance, conn } = await openDuck();
      try {
        // Read back as JSON text per record: the same values whatever types DuckDB inferred for the columns.
        const back = await queryRows(conn, `SELECT to_json(t)::VARCHAR AS j FROM read_parquet('${file}') t`);
        const { records } = await paged(path, query, 1000);
        expect(back.length).toBe(records.length);
        // Parquet types ISO timestamps as TIMESTAMP (read back as `YYYY-MM-DD hh:mm:ss`, UTC): compared as instants.
        const norm = (v: unknown): unknown => {
          if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}/.test(v)) {
            return Date.parse(/[Z+]/.test(v.slice(10)) ? v : `${v.replace(' ', 'T')}Z`);
          }
          if (Array.isArray(v)) return v.map(norm);
          if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, norm(x)]));
          return v;
        };
        expect(back.map((r) => norm(JSON.parse(String(r.j))))).toEqual(records.map((r) => norm(r)));
      } finally {
        conn.closeSync();
        instance.closeSync();
        await rm(dir, { recursive: true, force: true });
      }
    },
    120_000,
  );

  it("answers the list's 422s, and refuses paging parameters and a missing or unknown format", async () => {
    const list = await app.get('/v1/advisers?aum_min=abc');
    const exp = await app.get('/v1/advisers/export?aum_min=abc&format=csv');
    expect(exp.status).toBe(422);
    expect(exp.body.detail).toEqual(list.body.detail);
    for (const q of ['format=xlsx', '', 'format=csv&limit=10', 'format=csv&cursor=x']) {
      const r = await app.get(`/v1/advisers/export?${q}`);
      expect(r.status, q).toBe(422);
      expect(r.headers.get('x-credits-charged'), q).toBe('0');
    }
  });

  it('refuses with 402 before streaming when the balance cannot cover the rows, and charges nothing', async () => {
    const free = await app.newKey('free');
    // The free plan's 100 credits less 18 list calls (5 each) leave 10; the 13F holdings export costs more.
    for (let i = 0; i < 18; i++) expect((await app.get('/v1/advisers?limit=1', free)).status).toBe(200);
    const r = await app.get('/v1/holdings/export?format=ndjson', free);
    expect(r.status).toBe(402);
    expect(r.body.error.code).toBe('insufficient_credits');
    expect(r.headers.get('x-credits-charged')).toBe('0');
    expect(r.headers.get('x-credits-remaining')).toBe('10');
  });
});
