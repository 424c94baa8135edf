import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { firmsTable, toyEndpoints, toyIngester, writeToyCsv } from './toy-dataset.ts';

describe('API core: envelope, validation, paging', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ routes: toyEndpoints, extraTables: [firmsTable] });
    const dir = join(app.dataDir, 'in');
    await writeToyCsv(dir, '2025-12-01', 30);
    await writeToyCsv(dir, '2026-01-01', 237);
    await app.ingest(toyIngester(), { from: dir });
  });
  afterAll(() => app.close());

  it('returns the spec envelope for the newest snapshot', async () => {
    const r = await app.get('/v1/toy-firms?state=ny&limit=5');
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['as_of', 'data', 'page', 'query_echo', 'source', 'warnings']);
    expect(r.body.page).toMatchObject({ limit: 5, has_more: true });
    expect(typeof r.body.page.next_cursor).toBe('string');
    expect(r.body.as_of).toBe('2026-01-01T00:00:00Z');
    expect(r.body.source).toBe('toy_source');
    expect(r.body.query_echo).toEqual({ state: 'NY', limit: 5 });
    expect(r.body.data.every((d: any) => d.state === 'NY')).toBe(true);
    expect(r.body.data[0]).toHaveProperty('source_url');
  });

  it('pages through every row exactly once, in a stable order, with no offset ceiling', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const r = await app.get(`/v1/toy-firms?limit=10${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(r.status).toBe(200);
      seen.push(...r.body.data.map((d: any) => d.id));
      cursor = r.body.page.next_cursor;
      expect(r.body.page.has_more).toBe(cursor !== null);
      pages++;
    } while (cursor && pages < 100);
    expect(pages).toBe(24);
    expect(seen.length).toBe(237);
    expect(new Set(seen).size).toBe(237);
    const [{ n }] = await app.services.lake.query("SELECT count(*) AS n FROM toy_firms WHERE snapshot_date = DATE '2026-01-01'");
    expect(n).toBe(237);
    const all = (await app.services.lake.query("SELECT id FROM toy_firms WHERE snapshot_date = DATE '2026-01-01' ORDER BY aum DESC, id ASC")).map((r) => r.id);
    expect(seen).toEqual(all);
  });

  it('422 has exactly the spec body', async () => {
    const r = await app.get('/v1/toy-firms?aum_min=-5');
    expect(r.status).toBe(422);
    expect(r.body).toEqual({
      detail: [{ loc: ['query', 'aum_min'], msg: 'Input should be greater than or equal to 0', type: 'greater_than_equal', input: '-5', ctx: { ge: 0 } }],
    });
  });

  it.each([
    ['aum_min=abc', 'aum_min', 'int_parsing'],
    ['active=maybe', 'active', 'bool_parsing'],
    ['limit=0', 'limit', 'greater_than_equal'],
    ['limit=101', 'limit', 'less_than_equal'],
    ['state=NEW', 'state', 'string_pattern_mismatch'],
    ['aum_min=10&aum_max=5', 'aum_max', 'value_error'],
  ])('422 for %s names %s (%s)', async (qs, param, type) => {
    const r = await app.get(`/v1/toy-firms?${qs}`);
    expect(r.status).toBe(422);
    expect(r.body.detail[0].loc).toEqual(['query', param]);
    expect(r.body.detail[0].type).toBe(type);
  });

  it('rejects a tampered, foreign or malformed cursor with 422', async () => {
    const first = await app.get('/v1/toy-firms?limit=2');
    const c = first.body.page.next_cursor as string;
    const tampered = `${c.slice(0, -3)}${c.endsWith('A') ? 'BBB' : 'AAA'}`;
    for (const bad of [tampered, 'garbage', `${c}x`]) {
      const r = await app.get(`/v1/toy-firms?limit=2&cursor=${encodeURIComponent(bad)}`);
      expect(r.status).toBe(422);
      expect(r.body.detail[0].loc).toEqual(['query', 'cursor']);
    }
    const foreign = await app.get(`/v1/toy-firms?limit=2&state=CA&cursor=${encodeURIComponent(c)}`);
    expect(foreign.status).toBe(422);
  });

  it('no match: 200, empty data and an empty_result warning', async () => {
    const r = await app.get('/v1/toy-firms?q=nothing-like-this');
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual([]);
    expect(r.body.warnings[0].code).toBe('empty_result');
    expect(r.body.page).toEqual({ limit: 25, next_cursor: null, has_more: false });
  });

  it('lookup: one record, page.limit 1; unknown id 404 not_found', async () => {
    const r = await app.get('/v1/toy-firms/F00007');
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveLength(1);
    expect(r.body.page).toEqual({ limit: 1, next_cursor: null, has_more: false });
    expect(r.body.query_echo).toEqual({ id: 'F00007' });
    const missing = await app.get('/v1/toy-firms/NOPE');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: { code: 'not_found', message: 'No firm with id NOPE' } });
  });

  it('user input never reaches SQL text', async () => {
    const r = await app.get(`/v1/toy-firms?q=${encodeURIComponent("x' OR 1=1 --")}`);
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual([]);
    const pct = await app.get(`/v1/toy-firms?q=${encodeURIComponent('%')}`);
    expect(pct.body.data).toEqual([]);
  });

  it('unknown routes answer the error shape', async () => {
    const r = await app.get('/v1/nothing-here');
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe('not_found');
  });
});
