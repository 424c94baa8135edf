import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFilingsClient, FilingsApiError, type FilingsClient } from 'filings-lake/client';
import advisersRoutes from '../../api/advisers/routes.ts';
import serviceRoutes from '../../api/service/routes.ts';
import datasetAdvisers from '../../ingest/datasets/advisers/dataset.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';

/**
 * The client (imported by its package name, as a user would) against a live server on an ephemeral loopback port,
 * over the demo lake's adviser roster (the `make demo` sample: seed 42, scale 1; only this dataset is ingested, as
 * only its routes are mounted).
 */
describe('the typed client against the live API', () => {
  let app: TestApp;
  let client: FilingsClient;
  beforeAll(async () => {
    app = await createTestApp({ routes: [...advisersRoutes, ...serviceRoutes] });
    const summary = await app.ingestSample(datasetAdvisers, { seed: 42, skipDiff: true });
    expect(summary.badRows).toBe(0);
    client = createFilingsClient({ baseUrl: app.baseUrl, apiKey: app.key });
  });
  afterAll(() => app?.close());

  it('a list call answers the typed envelope', async () => {
    const body = await client.get('/v1/advisers', { params: { query: { state: 'ny', limit: 3 } } });
    expect(body.source).toBe('sec_form_adv');
    expect(body.page).toMatchObject({ limit: 3, has_more: true });
    expect(body.data).toHaveLength(3);
    expect(body.data.every((a) => a.address.state === 'NY')).toBe(true);
    expect(body.query_echo).toMatchObject({ state: 'NY', limit: 3 });
  });

  it('items() follows next_cursor through every page of a filtered list: as many records as SQL counts in the lake', async () => {
    const [{ n }] = await app.services.lake.query(
      'SELECT count(*)::INTEGER AS n FROM advisers ' +
        'WHERE has_private_funds = $1 AND regulatory_aum_total >= $2 AND snapshot_date = (SELECT max(snapshot_date) FROM advisers)',
      [true, 100_000_000],
    );
    const query = { has_private_funds: true, aum_min: 100_000_000, limit: 7 };
    const crds: string[] = [];
    for await (const adviser of client.items('/v1/advisers', { params: { query } })) crds.push(adviser.crd);
    let pages = 0;
    for await (const page of client.pages('/v1/advisers', { params: { query } })) pages += page.data.length > 0 ? 1 : 0;
    expect(Number(n)).toBeGreaterThan(2 * query.limit);
    expect(crds).toHaveLength(Number(n));
    expect(new Set(crds).size).toBe(crds.length);
    expect(pages).toBe(Math.ceil(Number(n) / query.limit));
  });

  it('a 422 throws FilingsApiError with the parameter, the issues and the credit headers', async () => {
    const err = await client.get('/v1/advisers', { params: { query: { aum_min: -5 } } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FilingsApiError);
    const e = err as FilingsApiError;
    expect(e).toMatchObject({ status: 422, code: 'invalid_param', param: 'aum_min' });
    expect(e.detail[0]).toMatchObject({ loc: ['query', 'aum_min'], input: '-5' });
    expect(e.message).toContain('query.aum_min');
    expect(e.credits.charged).toBe(0);
    expect(typeof e.credits.remaining).toBe('number');
    expect(e.requestId).toBeTruthy();
  });

  it('a lookup of an unknown id and a wrong key throw their codes', async () => {
    await expect(client.get('/v1/advisers/{crd}', { params: { path: { crd: '999999999' } } })).rejects.toMatchObject({ status: 404, code: 'not_found' });
    const stranger = createFilingsClient({ baseUrl: app.baseUrl, apiKey: 'sk_live_not_a_key' });
    await expect(stranger.get('/v1/account')).rejects.toMatchObject({ status: 401, code: 'unauthorized' });
  });

  it('types: paths, parameters and bodies come from the generated document', () => {
    // Never called: tsc checks these lines (the @ts-expect-error ones must stay errors).
    const typed = async () => {
      const page = await client.get('/v1/advisers', { params: { query: { state: 'NY' } } });
      const aum: number | null = page.data[0].regulatory_aum_total;
      // @ts-expect-error a lookup is not a list operation
      client.items('/v1/advisers/{crd}', { params: { path: { crd: '1' } } });
      // @ts-expect-error an unknown filter
      await client.get('/v1/advisers', { params: { query: { nope: 1 } } });
      // @ts-expect-error the path parameter is required
      await client.get('/v1/advisers/{crd}');
      return aum;
    };
    expect(typeof typed).toBe('function');
  });
});

describe('the client retries a 429 of the live API', () => {
  it('sleeps the Retry-After the server sent (the injected sleep moves the server clock), then succeeds', async () => {
    let clock = Date.parse('2026-01-05T10:00:00Z');
    // One request per second and a clock that moves only when the client sleeps: the second call is refused.
    const app = await createTestApp({ routes: serviceRoutes, env: { RATE_LIMIT_RPS: '1' }, now: () => new Date(clock) });
    try {
      const slept: number[] = [];
      const sleep = async (ms: number) => {
        slept.push(ms);
        clock += ms;
      };
      const client = createFilingsClient({ baseUrl: app.baseUrl, apiKey: app.key, retry: { sleep, now: () => clock } });
      await client.get('/v1/account');
      const refused = await app.get('/v1/account');
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('1');
      const account = await client.get('/v1/account');
      expect(account.data).toHaveLength(1);
      expect(slept).toEqual([1000]);
    } finally {
      await app.close();
    }
  });
});
