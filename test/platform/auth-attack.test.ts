import type { Request } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthenticator } from '../../api/core/auth.ts';
import { ApiError } from '../../api/core/errors.ts';
import { hashKey, isIssuableKey } from '../../api/core/keys.ts';
import type { StateStore } from '../../api/core/state.ts';
import service from '../../api/service/routes.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';

/**
 * Authentication under attack (#19): a key of a shape we never issue, a repeated unknown key and an address that
 * keeps failing are refused without a query on the state store; the caches are bounded. Driven by an injected clock.
 */

const GOOD = `sk_live_${'A'.repeat(31)}B`;
const LIMITS = { failureBurst: 3, failuresPerSecond: 0.5 };

/** A state store that knows `keys` and counts its queries. */
function fakeStore(keys: Record<string, { revoked?: boolean }>) {
  const byHash = new Map(Object.entries(keys).map(([k, v]) => [hashKey(k), v]));
  const store = {
    queries: 0,
    async all(_sql: string, params: unknown[]) {
      store.queries++;
      const rec = byHash.get(String(params[0]));
      if (!rec) return [];
      return [
        { id: `id-${params[0]}`, account_id: 'acct', name: null, plan: 'pro', prefix: 'sk_live_AAAA', created_at: '', revoked_at: rec.revoked ? 'x' : null },
      ];
    },
  };
  return store;
}

function req(key: string | null, address = '10.0.0.1'): Request {
  return { headers: key ? { authorization: `Bearer ${key}` } : {}, socket: { remoteAddress: address } } as unknown as Request;
}

async function refusal(p: Promise<unknown>): Promise<{ status: number; retryAfter?: string; message: string }> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ApiError) return { status: e.status, retryAfter: e.headers['Retry-After'], message: e.message };
    throw e;
  }
  return { status: 200, message: 'accepted' };
}

function unknownKey(i: number): string {
  return `sk_live_${String(i).padStart(32, 'x')}`;
}

describe('the authenticator', () => {
  it('accepts exactly the shape of the keys it issues', () => {
    expect(isIssuableKey(GOOD)).toBe(true);
    for (const bad of ['sk_live_short', `${GOOD}x`, `sk_test_${'A'.repeat(32)}`, `sk_live_${'A'.repeat(31)}-`, `sk_live_${'é'.repeat(32)}`]) {
      expect(isIssuableKey(bad), bad).toBe(false);
    }
  });

  it('refuses a malformed key and a repeated unknown key without a query; a known key is cached', async () => {
    let t = 0;
    const store = fakeStore({ [GOOD]: {} });
    const auth = createAuthenticator(store as unknown as StateStore, () => t, { failureBurst: 100, failuresPerSecond: 1 });
    expect((await refusal(auth.authenticate(req('sk_live_not_a_key')))).status).toBe(401);
    expect((await refusal(auth.authenticate(req(`sk_live_${'é'.repeat(32)}`)))).status).toBe(401);
    expect(store.queries).toBe(0);
    const stranger = unknownKey(1);
    expect((await refusal(auth.authenticate(req(stranger)))).status).toBe(401);
    expect((await refusal(auth.authenticate(req(stranger)))).status).toBe(401);
    expect(store.queries).toBe(1);
    // The negative entry expires: the key is asked about again.
    t += 31_000;
    expect((await refusal(auth.authenticate(req(stranger)))).status).toBe(401);
    expect(store.queries).toBe(2);
    // A known key: one query, then cached for 5 s.
    await auth.authenticate(req(GOOD));
    await auth.authenticate(req(GOOD));
    expect(store.queries).toBe(3);
    t += 6_000;
    await auth.authenticate(req(GOOD));
    expect(store.queries).toBe(4);
  });

  it('asks the store once for a key many concurrent requests carry', async () => {
    const store = fakeStore({});
    const auth = createAuthenticator(store as unknown as StateStore, () => 0, { failureBurst: 1000, failuresPerSecond: 1 });
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => refusal(auth.authenticate(req(unknownKey(7), `10.0.1.${i}`)))));
    expect(answers.every((a) => a.status === 401)).toBe(true);
    expect(store.queries).toBe(1);
  });

  it("rate-limits an address's failures: 429 with Retry-After, no query, refilled by the clock; known keys pass", async () => {
    let t = 0;
    const store = fakeStore({ [GOOD]: {}, [unknownKey(0)]: { revoked: true } });
    const auth = createAuthenticator(store as unknown as StateStore, () => t, LIMITS);
    await auth.authenticate(req(GOOD));
    expect((await refusal(auth.authenticate(req(unknownKey(0))))).message).toBe('API key revoked');
    for (const i of [1, 2]) expect((await refusal(auth.authenticate(req(unknownKey(i))))).status).toBe(401);
    const queries = store.queries;
    const limited = await refusal(auth.authenticate(req(unknownKey(3))));
    expect(limited).toMatchObject({ status: 429, retryAfter: '2' });
    expect((await refusal(auth.authenticate(req('garbage')))).status).toBe(429);
    // What the app asks first, before any other work: the same answer, and none for a known key or no key.
    expect([auth.retryAfter(req(unknownKey(9))), auth.retryAfter(req(GOOD)), auth.retryAfter(req(null))]).toEqual([2, 0, 0]);
    expect(store.queries).toBe(queries);
    // The tenant's cached key from the same address still works, and other addresses are not affected.
    expect((await refusal(auth.authenticate(req(GOOD)))).status).toBe(200);
    expect((await refusal(auth.authenticate(req(unknownKey(4), '10.9.9.9')))).status).toBe(401);
    // No header at all is a plain 401 that spends nothing.
    expect((await refusal(auth.authenticate(req(null, '10.8.8.8')))).status).toBe(401);
    // Two seconds refill one token (0.5/s): one more attempt, then 429 again.
    t += 2_000;
    expect((await refusal(auth.authenticate(req(unknownKey(5))))).status).toBe(401);
    expect((await refusal(auth.authenticate(req(unknownKey(6))))).status).toBe(429);
  });

  it('lets at most 32 lookups of never-seen keys wait on the store, in the background; past that 429 at no cost', async () => {
    const store = fakeStore({ [GOOD]: {} });
    const priorities: (boolean | undefined)[] = [];
    let release = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const slow = {
      ...store,
      async all(sql: string, params: unknown[], opts?: { background?: boolean }) {
        priorities.push(opts?.background);
        await gate;
        return store.all(sql, params);
      },
    };
    const auth = createAuthenticator(slow as unknown as StateStore, () => 0, { failureBurst: 1000, failuresPerSecond: 1 });
    const answers = Array.from({ length: 40 }, (_, i) => refusal(auth.authenticate(req(unknownKey(100 + i), `10.3.0.${i}`))));
    const early = await Promise.race([Promise.all(answers.slice(32)), new Promise((r) => setTimeout(() => r('pending'), 50))]);
    expect(early).toEqual(Array.from({ length: 8 }, () => expect.objectContaining({ status: 429, retryAfter: '1' })));
    release();
    expect((await Promise.all(answers.slice(0, 32))).every((a) => a.status === 401)).toBe(true);
    expect(priorities).toEqual(Array.from({ length: 32 }, () => true));
  });

  it("pays for a never-seen key's lookup up front: one address's concurrent requests take at most its burst of lookups", async () => {
    const store = fakeStore({ [GOOD]: {} });
    let release = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const slow = {
      async all(sql: string, params: unknown[]) {
        await gate;
        return store.all(sql, params);
      },
    };
    const auth = createAuthenticator(slow as unknown as StateStore, () => 0, LIMITS);
    const pending = Array.from({ length: 10 }, (_, i) => refusal(auth.authenticate(req(unknownKey(200 + i)))));
    release();
    const statuses = (await Promise.all(pending)).map((a) => a.status);
    expect(statuses).toEqual([401, 401, 401, 429, 429, 429, 429, 429, 429, 429]);
    expect(store.queries).toBe(3);
    // A valid key gives its token back: the budget is for failures only.
    const fresh = createAuthenticator(store as unknown as StateStore, () => 0, LIMITS);
    for (let i = 0; i < 5; i++) {
      fresh.clearCache();
      expect((await refusal(fresh.authenticate(req(GOOD)))).status).toBe(200);
    }
  });

  it('keeps its memory bounded under a flood of unique keys from many addresses', async () => {
    const store = fakeStore({ [GOOD]: {} });
    const auth = createAuthenticator(store as unknown as StateStore, () => 0, { failureBurst: 5, failuresPerSecond: 1 });
    await auth.authenticate(req(GOOD));
    for (let i = 0; i < 12_000; i++) await refusal(auth.authenticate(req(unknownKey(i), `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`)));
    // The tenant's key is in its own cache: the flood never evicted it (no new query).
    const before = store.queries;
    await auth.authenticate(req(GOOD));
    expect(store.queries).toBe(before);
    // The oldest unknown keys were evicted (10,000 kept): asked about again; the newest are still cached.
    await refusal(auth.authenticate(req(unknownKey(11_999), '10.200.0.1')));
    expect(store.queries).toBe(before);
    await refusal(auth.authenticate(req(unknownKey(0), '10.200.0.2')));
    expect(store.queries).toBe(before + 1);
  });
});

describe('over HTTP', () => {
  let app: TestApp;
  let t = Date.parse('2026-01-05T12:00:00Z');
  beforeAll(async () => {
    app = await createTestApp({ routes: service, now: () => new Date(t), env: { AUTH_FAILURE_BURST: '2', AUTH_FAILURE_RPS: '0.1' } });
  });
  afterAll(() => app?.close());

  it('answers 401 until the budget is spent, then 429 rate_limited with Retry-After; the valid key keeps working', async () => {
    expect((await app.get('/v1/account')).status).toBe(200);
    expect((await app.get('/v1/account', unknownKey(1))).status).toBe(401);
    expect((await app.get('/v1/account', 'nope')).status).toBe(401);
    const r = await app.get('/v1/account', unknownKey(2));
    expect(r.status).toBe(429);
    expect(r.body.error.code).toBe('rate_limited');
    expect(r.headers.get('retry-after')).toBe('10');
    expect((await app.get('/v1/account')).status).toBe(200);
    t += 10_000;
    expect((await app.get('/v1/account', unknownKey(3))).status).toBe(401);
  });
});
