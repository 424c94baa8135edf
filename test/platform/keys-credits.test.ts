import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import service from '../../api/service/routes.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { firmsTable, toyEndpoints, toyIngester, writeToyCsv } from './toy-dataset.ts';

async function withToyData(app: TestApp) {
  const dir = join(app.dataDir, 'in');
  await writeToyCsv(dir, '2026-01-01', 12);
  await app.ingest(toyIngester(), { from: dir });
}

describe('authentication', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ routes: [...toyEndpoints, ...service], extraTables: [firmsTable] });
    await withToyData(app);
  });
  afterAll(() => app.close());

  it('401 without a key, with a malformed key, with an unknown key and with a revoked key', async () => {
    expect((await app.get('/v1/toy-firms', null)).status).toBe(401);
    const r = await app.get('/v1/toy-firms', 'not-a-key');
    expect(r.status).toBe(401);
    expect(r.body.error.code).toBe('unauthorized');
    // The scheme to use, on every 401 (RFC 9110).
    expect(r.headers.get('www-authenticate')).toBe('Bearer realm="filings-lake"');
    expect((await app.get('/v1/toy-firms', null)).headers.get('www-authenticate')).toMatch(/^Bearer /);
    expect((await app.get('/v1/toy-firms', 'sk_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).status).toBe(401);
    const { revokeKey } = await import('../../api/core/keys.ts');
    const k = await app.newKey('starter');
    expect((await app.get('/v1/account', k)).status).toBe(200);
    await revokeKey(app.services.state, k);
    app.handle.auth.clearCache();
    expect((await app.get('/v1/account', k)).status).toBe(401);
  });

  it('keys are stored only as hashes', async () => {
    const rows = await app.services.state.all('SELECT * FROM api_keys');
    const dump = JSON.stringify(rows);
    expect(dump).not.toContain(app.key);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(String(r.key_hash)))).toBe(true);
  });

  it('/v1/sources and /healthz are public; /openapi.json lists every endpoint with the bearer scheme', async () => {
    const s = await app.get('/v1/sources', null);
    expect(s.status).toBe(200);
    const toy = s.body.data.find((d: any) => d.table === 'toy_firms');
    expect(toy).toMatchObject({ record_count: 12, source: 'toy_source', partition_key: 'snapshot_date' });
    expect(toy.last_refresh).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const h = await app.get('/healthz', null);
    expect(h.status).toBe(200);
    expect(h.body).toMatchObject({ status: 'ok', lake: { reachable: true }, state_store: { reachable: true } });
    const o = await app.get('/openapi.json', null);
    expect(o.body.openapi).toBe('3.1.0');
    expect(o.body.info.version).toBe('0.1.0');
    expect(o.body.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const ep of app.handle.endpoints) {
      const method = ep.kind === 'custom' ? ep.method : 'get';
      expect(o.body.paths[ep.path]?.[method], `${method} ${ep.path}`).toBeDefined();
    }
    const list = o.body.paths['/v1/toy-firms'].get;
    expect(list.security).toEqual([{ bearerAuth: [] }]);
    expect(list.parameters.find((p: any) => p.name === 'aum_min').schema).toMatchObject({ type: 'integer', minimum: 0 });
    expect(list.parameters.find((p: any) => p.name === 'limit').schema).toMatchObject({ minimum: 1, maximum: 100, default: 25 });
    expect(list.responses['422']).toBeDefined();
    expect(o.body.paths['/v1/sources'].get.security).toBeUndefined();
    const docs = await app.get('/docs', null);
    expect(docs.status).toBe(200);
    expect(String(docs.body)).toContain('/docs/assets/swagger-ui-bundle.js');
    const asset = await fetch(`${app.baseUrl}/docs/assets/swagger-ui-bundle.js`);
    expect(asset.status).toBe(200);
  });
});

describe('credits', () => {
  let app: TestApp;
  beforeAll(async () => {
    // The burst below must reach the meter, not the per-key rate limiter. A fixed clock fixes the billing period.
    app = await createTestApp({
      routes: [...toyEndpoints, ...service],
      extraTables: [firmsTable],
      env: { RATE_LIMIT_RPS: '10000' },
      now: () => new Date('2026-03-02T10:00:00Z'),
    });
    await withToyData(app);
  });
  afterAll(() => app.close());

  it('charges list calls 5 credits, shows them in headers, and /v1/account costs nothing', async () => {
    const k = await app.newKey('starter');
    const r = await app.get('/v1/toy-firms', k);
    expect(r.headers.get('x-credits-charged')).toBe('5');
    expect(r.headers.get('x-credits-remaining')).toBe('7495');
    const a = await app.get('/v1/account', k);
    expect(a.headers.get('x-credits-charged')).toBe('0');
    expect(a.body.data[0]).toMatchObject({ plan: 'starter', credits_included: 7500, credits_used: 5, credits_remaining: 7495, overage_credits: 0 });
    const bad = await app.get('/v1/toy-firms?aum_min=-1', k);
    expect(bad.status).toBe(422);
    // A refused call says what it cost (nothing) and what the key has left.
    expect(bad.headers.get('x-credits-charged')).toBe('0');
    expect(bad.headers.get('x-credits-remaining')).toBe('7495');
    const after = await app.get('/v1/account', k);
    expect(after.body.data[0].credits_used).toBe(5);
  });

  it('/v1/account reads the balance once: its header reports the same reading as its body', async () => {
    const k = await app.newKey('starter');
    await app.get('/v1/toy-firms', k);
    const state = app.services.state;
    const all = state.all.bind(state);
    const reads: string[] = [];
    state.all = (sql, params, opts) => {
      if (/FROM credit_usage/.test(sql)) reads.push(sql);
      return all(sql, params, opts);
    };
    try {
      const a = await app.get('/v1/account', k);
      expect(a.status).toBe(200);
      expect(reads).toHaveLength(1);
      expect(a.headers.get('x-credits-remaining')).toBe(String(a.body.data[0].credits_remaining));
      expect(a.body.data[0].credits_used).toBe(5);
    } finally {
      state.all = all;
    }
  });

  it('the free plan stops at 0 with 402 and never overdraws under 200 concurrent requests', async () => {
    const k = await app.newKey('free');
    const results = await Promise.all(Array.from({ length: 200 }, () => app.get('/v1/toy-firms?limit=1', k)));
    const ok = results.filter((r) => r.status === 200).length;
    const refused = results.filter((r) => r.status === 402);
    expect(ok).toBe(20);
    expect(refused.length).toBe(180);
    expect(refused[0].body.error.code).toBe('insufficient_credits');
    // The 402 tells the balance, and that the refusal cost nothing.
    expect(refused[0].headers.get('x-credits-charged')).toBe('0');
    expect(refused.every((r) => r.headers.get('x-credits-remaining') !== null)).toBe(true);
    expect((await app.get('/v1/toy-firms?limit=1', k)).headers.get('x-credits-remaining')).toBe('0');
    const a = await app.get('/v1/account', k);
    expect(a.body.data[0]).toMatchObject({ plan: 'free', credits_used: 100, credits_remaining: 0, billing_period: 'lifetime' });
  });

  it('paid plans run into recorded overage instead of stopping', async () => {
    const k = await app.newKey('starter', 'acct-overage');
    await app.services.state.run("INSERT INTO credit_usage VALUES ('acct-overage', '2026-03', 7498, 1)");
    const r = await app.get('/v1/toy-firms', k);
    expect(r.status).toBe(200);
    const a = await app.get('/v1/account', k);
    expect(a.body.data[0]).toMatchObject({ credits_used: 7503, credits_remaining: 0, overage_credits: 3, overage_cost_usd: 0.03 });
  });
});

describe('metering off and rate limits', () => {
  let app: TestApp;
  // The limiter reads the services' clock: the burst below happens at one instant however slowly it is served.
  let clockMs = Date.parse('2026-03-02T10:00:00Z');
  beforeAll(async () => {
    app = await createTestApp({
      routes: [...toyEndpoints, ...service],
      extraTables: [firmsTable],
      env: { METERING: 'off', RATE_LIMIT_RPS: '5' },
      now: () => new Date(clockMs),
    });
    await withToyData(app);
  });
  afterAll(() => app.close());

  it('METERING=off shows credits as "unlimited"', async () => {
    const a = await app.get('/v1/account');
    expect(a.body.data[0]).toMatchObject({ credits_included: 'unlimited', credits_remaining: 'unlimited', metering: 'off' });
  });

  it('a burst over the per-key rate gets 429 rate_limited with Retry-After; the bucket refills with the clock', async () => {
    const k = await app.newKey('pro');
    const results = await Promise.all(Array.from({ length: 12 }, () => app.get('/v1/toy-firms?limit=1', k)));
    const limited = results.filter((r) => r.status === 429);
    // A burst of one second's worth (5) passes, the other 7 wait.
    expect(limited.length).toBe(7);
    expect(results.filter((r) => r.status === 200).length).toBe(5);
    expect(limited[0].body.error.code).toBe('rate_limited');
    expect(Number(limited[0].headers.get('retry-after'))).toBe(1);
    expect(limited[0].headers.get('x-credits-charged')).toBe('0');
    // Refused before the meter: no state-store read for the balance, so none is reported.
    expect(limited[0].headers.get('x-credits-remaining')).toBeNull();
    const other = await app.newKey('pro');
    expect((await app.get('/v1/toy-firms?limit=1', other)).status).toBe(200);
    expect((await app.get('/v1/toy-firms?limit=1', k)).status).toBe(429);
    clockMs += 1000;
    expect((await app.get('/v1/toy-firms?limit=1', k)).status).toBe(200);
  });
});
