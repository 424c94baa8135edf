import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import advisersRoutes from '../../api/advisers/routes.ts';
import serviceRoutes from '../../api/service/routes.ts';
import datasetAdvisers from '../../ingest/datasets/advisers/dataset.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';

/**
 * A query parameter the endpoint does not declare is a 422 naming it (`extra_forbidden`), on lists, lookups and
 * custom routes alike, and costs nothing: a misspelt filter must never silently return (and bill) unfiltered data.
 */
describe('unknown query parameters', () => {
  let app: TestApp;
  let crd: string;
  beforeAll(async () => {
    app = await createTestApp({ routes: [...advisersRoutes, ...serviceRoutes] });
    await app.ingestSample(datasetAdvisers, { seed: 7, scale: 0.1, skipDiff: true });
    crd = (await app.get('/v1/advisers?limit=1')).body.data[0].crd;
  });
  afterAll(() => app?.close());

  it('a list refuses a misspelt filter, naming it, and charges nothing', async () => {
    const before = (await app.get('/v1/account')).body.data[0].credits_remaining;
    const r = await app.get('/v1/advisers?stat=NY&limit=2');
    expect(r.status).toBe(422);
    expect(r.body).toEqual({
      detail: [{ loc: ['query', 'stat'], msg: 'Extra inputs are not permitted', type: 'extra_forbidden', input: 'NY' }],
    });
    expect(r.headers.get('x-credits-charged')).not.toBe('5');
    expect((await app.get('/v1/account')).body.data[0].credits_remaining).toBe(before);
  });

  it('every unknown parameter is named, beside the declared ones that fail', async () => {
    const r = await app.get('/v1/advisers?aum_min=-1&foo=1&bar=2');
    expect(r.status).toBe(422);
    expect(r.body.detail.map((d: { loc: string[]; type: string }) => `${d.loc[1]}:${d.type}`).sort()).toEqual([
      'aum_min:greater_than_equal',
      'bar:extra_forbidden',
      'foo:extra_forbidden',
    ]);
  });

  it('a lookup and a custom route refuse them too; declared parameters still work', async () => {
    expect((await app.get(`/v1/advisers/${crd}?verbose=1`)).body.detail[0]).toMatchObject({ loc: ['query', 'verbose'], type: 'extra_forbidden' });
    expect((await app.get('/v1/account?x=1')).status).toBe(422);
    expect((await app.get(`/v1/advisers/${crd}`)).status).toBe(200);
    expect((await app.get('/v1/advisers?state=NY&limit=2')).status).toBe(200);
  });

  it('a parameter name that is also an object property (constructor) is unknown, not declared', async () => {
    const r = await app.get('/v1/advisers?constructor=1');
    expect(r.status).toBe(422);
    expect(r.body.detail[0].loc).toEqual(['query', 'constructor']);
  });
});
