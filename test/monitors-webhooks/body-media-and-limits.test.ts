import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_MONITORS_PER_ACCOUNT } from '../../api/monitors/limits.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { MONITORING_ROUTES } from './monitoring-routes.ts';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({ routes: MONITORING_ROUTES });
});
afterAll(() => app?.close());

/** A request with a raw body and the Content-Type given (the harness always sends JSON). */
async function raw(method: string, path: string, body: string, contentType?: string) {
  const headers: Record<string, string> = { Authorization: `Bearer ${app.key}` };
  if (contentType) headers['Content-Type'] = contentType;
  const res = await fetch(`${app.baseUrl}${path}`, { method, headers, body });
  return { status: res.status, body: (await res.json()) as any, charged: res.headers.get('x-credits-charged') };
}

const monitor = { name: 'Apple watch', target_type: 'ticker', target_value: 'AAPL' };

describe('bodies that are not JSON', () => {
  let id = '';
  beforeAll(async () => {
    id = (await app.request('/v1/monitors', { method: 'POST', body: monitor })).body.data[0].id;
  });

  it.each([
    ['text/plain', '{"status":"paused"}'],
    ['application/x-www-form-urlencoded', 'status=paused'],
    [undefined, 'status=paused'],
  ])('PATCH with Content-Type %s is 415 unsupported_media_type, costs nothing and changes nothing', async (type, body) => {
    const r = await raw('PATCH', `/v1/monitors/${id}`, body, type);
    expect(r.status).toBe(415);
    expect(r.body).toEqual({ error: { code: 'unsupported_media_type', message: expect.stringMatching(/must be JSON/) } });
    expect(r.charged).toBe('0');
    expect((await app.get(`/v1/monitors/${id}`)).body.data[0].status).toBe('active');
  });

  it('malformed JSON is 400 invalid_param with the standard error body', async () => {
    const r = await raw('PATCH', `/v1/monitors/${id}`, '{"status": paused', 'application/json');
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: { code: 'invalid_param', message: 'Malformed JSON body' } });
  });

  it('POST bodies are held to the same rule; JSON with a charset parameter is fine', async () => {
    expect((await raw('POST', '/v1/webhooks/endpoints', 'url=https://a.example/h', 'application/x-www-form-urlencoded')).status).toBe(415);
    const ok = await raw('PATCH', `/v1/monitors/${id}`, '{"status":"paused"}', 'application/json; charset=utf-8');
    expect(ok.status).toBe(200);
    expect(ok.body.data[0].status).toBe('paused');
  });
});

describe('monitor names and targets are validated against documented limits', () => {
  const post = (body: Record<string, unknown>) => app.request('/v1/monitors', { method: 'POST', body: { ...monitor, ...body } });

  it.each([
    [{ name: 'line\nbreak' }, 'name'],
    [{ name: 'bell\u0007' }, 'name'],
    [{ name: 'x'.repeat(201) }, 'name'],
    [{ name: '   ' }, 'name'],
    [{ target_value: 'AAPL; DROP' }, 'target_value'],
    [{ target_value: 'TOOLONGTICKER' }, 'target_value'],
    [{ target_value: '.A' }, 'target_value'],
    [{ target_type: 'cik', target_value: '12345678901' }, 'target_value'],
    [{ target_type: 'cik', target_value: '0000' }, 'target_value'],
    [{ target_type: 'cik', target_value: '32O193' }, 'target_value'],
    [{ target_type: 'form', target_value: '8-K<script>' }, 'target_value'],
    [{ target_type: 'form', target_value: 'F'.repeat(26) }, 'target_value'],
    [{ target_type: 'event_type', target_value: 'sec.nope' }, 'target_value'],
    [{ signals: Array.from({ length: 51 }, () => 'sec.filing.new') }, 'signals'],
  ])('refuses %j (400 naming %s)', async (body, param) => {
    const r = await post(body);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'invalid_param', param });
  });

  it.each([
    [{ target_value: 'brk.b' }, 'BRK.B'],
    [{ target_value: 'BF-B' }, 'BF-B'],
    [{ target_type: 'cik', target_value: '320193' }, '0000320193'],
    [{ target_type: 'form', target_value: 'def 14a' }, 'DEF 14A'],
    [{ target_type: 'form', target_value: 'SC 13G/A' }, 'SC 13G/A'],
    [{ name: 'Café — Q3 watch' }, 'AAPL'],
  ])('accepts %j (stored as %s)', async (body, stored) => {
    const r = await post(body);
    expect(r.status).toBe(201);
    expect(r.body.data[0].target_value).toBe(stored);
  });

  it(`refuses the monitor past ${MAX_MONITORS_PER_ACCOUNT} on one account with 409 conflict`, async () => {
    const key = await app.newKey('pro', 'acct-many-monitors');
    await app.services.state.run(
      `INSERT INTO monitors (id, account_id, name, target_type, target_value, signals, materiality, status, webhook_endpoint_id, created_at, updated_at)
       SELECT uuid()::VARCHAR, 'acct-many-monitors', 'm', 'ticker', 'AAPL', '[]', 'low', 'active', NULL, '2025-01-01T00:00:00Z', '2025-01-01T00:00:00Z'
       FROM range($1)`,
      [MAX_MONITORS_PER_ACCOUNT],
    );
    const r = await app.request('/v1/monitors', { method: 'POST', body: monitor, key });
    expect(r.status).toBe(409);
    expect(r.body.error.code).toBe('conflict');
  });
});
