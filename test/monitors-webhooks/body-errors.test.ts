import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { MONITORING_ROUTES } from './monitoring-routes.ts';

/**
 * A 400 on a monitor or webhook body has one shape, whether the schema or the handler refused it:
 * `{"error":{"code":"invalid_param","message","param"}}` naming the member — never zod's own `detail` list.
 */
describe('400 bodies of monitors and webhook endpoints', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ routes: MONITORING_ROUTES });
  });
  afterAll(() => app?.close());

  const post = (path: string, body: unknown) => app.request(path, { method: 'POST', body });

  it('a schema refusal (bad target_type, missing member) is the error body naming the member', async () => {
    const r = await post('/v1/monitors', { name: 'x', target_type: 'planet', target_value: 'AAPL', signals: ['sec.filing.new'] });
    expect(r.status).toBe(400);
    expect(r.body.detail).toBeUndefined();
    expect(r.body.error).toMatchObject({ code: 'invalid_param', param: 'target_type' });
    const missing = await post('/v1/webhooks/endpoints', {});
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 'invalid_param', param: 'url' });
  });

  it('a handler refusal (unknown signal) has the same shape', async () => {
    const r = await post('/v1/monitors', { name: 'x', target_type: 'ticker', target_value: 'AAPL', signals: ['sec.nope'] });
    expect(r.status).toBe(400);
    expect(Object.keys(r.body)).toEqual(['error']);
    expect(r.body.error).toMatchObject({ code: 'invalid_param', param: 'signals' });
  });
});
