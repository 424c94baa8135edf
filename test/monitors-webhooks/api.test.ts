import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MonitoringRuntime } from '../../api/monitors/runtime.ts';
import { verifyWebhookSignature } from '../../api/webhooks/verifier.ts';
import { appendEvents as appendToLake } from '../../ingest/events/writer.ts';
import type { EventDraft } from '../../schemas/events.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { MONITORING_ROUTES } from './monitoring-routes.ts';
import { makeCert, startReceiver, TestClock } from './support.ts';

const tls = makeCert();
const clock = new TestClock();
let app: TestApp;
let rt: MonitoringRuntime;

/** Appends as another process would, then has the app's views take the commit in (docs/read-path.md). */
async function appendEvents(...args: Parameters<typeof appendToLake>): Promise<number> {
  const n = await appendToLake(...args);
  await app.services.lake.refresh();
  return n;
}
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let otherKey: string;

let accession = 0;
function draft(o: Partial<EventDraft> = {}): EventDraft {
  const acc = `0000320193-25-${String(++accession).padStart(6, '0')}`;
  const event_type = o.event_type ?? 'sec.8k.auditor_change';
  return {
    event_type,
    importance: 'high',
    confidence: 1,
    entity_cik: '0000320193',
    entity_ticker: 'AAPL',
    entity_name: 'Apple Inc.',
    accession: acc,
    summary: 'Apple Inc. reported a change in its certifying accountant (8-K Item 4.01).',
    details: { form: '8-K', items: ['4.01'] },
    evidence: [
      {
        source_type: 'filing',
        url: `https://www.sec.gov/Archives/edgar/data/320193/${acc.replace(/-/g, '')}/`,
        retrieved_at: '2025-03-03T11:00:00Z',
        excerpt: 'Item 4.01 Changes in Registrant\u2019s Certifying Accountant',
        section: 'Item 4.01',
        excerpt_sha256: null,
      },
    ],
    dedup_key: `${event_type}|${acc}`,
    occurred_at: '2025-03-03T00:00:00Z',
    ...o,
  };
}

const post = (path: string, body: unknown, key?: string | null) => app.request(path, { method: 'POST', body, key });
const patch = (path: string, body: unknown, key?: string | null) => app.request(path, { method: 'PATCH', body, key });
const del = (path: string, key?: string | null) => app.request(path, { method: 'DELETE', key });

beforeAll(async () => {
  receiver = await startReceiver(tls);
  app = await createTestApp({ routes: MONITORING_ROUTES, now: clock.now, env: { WEBHOOK_ALLOW_HOSTS: 'localhost' }, monitoring: { ca: tls.cert } });
  rt = app.services.monitoring;
  otherKey = await app.newKey('pro');
});
afterAll(async () => {
  await app?.close();
  await receiver?.close();
});

describe('event → monitor → signed delivery, end to end over HTTP', () => {
  let secret: string;
  let endpointId: string;
  let monitorId: string;

  it('registers an https endpoint and shows its secret once', async () => {
    const r = await post('/v1/webhooks/endpoints', { url: receiver.url, description: 'ops receiver' });
    expect(r.status).toBe(201);
    expect(r.body.source).toBe('svc_monitoring');
    expect(r.body).not.toHaveProperty('as_of');
    expect(r.body).not.toHaveProperty('query_echo');
    const ep = r.body.data[0];
    expect(ep).toMatchObject({ url: receiver.url, description: 'ops receiver', status: 'active' });
    expect(ep.secret).toMatch(/^whsec_/);
    secret = ep.secret;
    endpointId = ep.id;
    const list = await app.get('/v1/webhooks/endpoints');
    expect(list.body.data.map((e: { id: string }) => e.id)).toEqual([endpointId]);
    expect(list.body.data[0]).not.toHaveProperty('secret');
  });

  it('creates an active monitor on a ticker with a webhook', async () => {
    const r = await post('/v1/monitors', {
      name: 'Apple auditor changes',
      target_type: 'ticker',
      target_value: 'aapl',
      signals: ['sec.8k.auditor_change'],
      materiality: 'medium',
      webhook_endpoint_id: endpointId,
    });
    expect(r.status).toBe(201);
    const m = r.body.data[0];
    expect(m).toMatchObject({
      name: 'Apple auditor changes',
      target_type: 'ticker',
      target_value: 'AAPL',
      signals: ['sec.8k.auditor_change'],
      materiality: 'medium',
      status: 'active',
      webhook_endpoint_id: endpointId,
    });
    expect(m.created_at).toBe('2025-03-03T12:00:00.000Z');
    monitorId = m.id;
  });

  it('an appended event fires the monitor: one alert, one delivery the receiver verifies', async () => {
    await appendEvents(app.settings, [draft(), draft({ event_type: 'sec.filing.new', dedup_key: 'sec.filing.new|x' }), draft({ importance: 'low' })], {
      now: clock.now(),
    });
    await rt.runOnce();
    expect(receiver.received).toHaveLength(1);
    const got = receiver.received[0];
    const v = verifyWebhookSignature({
      secret,
      timestamp: got.headers['svc-timestamp'] as string,
      signature: got.headers['svc-signature'] as string,
      rawBody: got.rawBody,
      now: clock.now(),
    });
    expect(v).toEqual({ ok: true });
    const body = JSON.parse(got.rawBody.toString());
    expect(body).toMatchObject({ type: 'sec.8k.auditor_change', monitor_id: monitorId });
    expect(body.event).toMatchObject({
      event_type: 'sec.8k.auditor_change',
      importance: 'high',
      entity_cik: '0000320193',
      entity_name: 'Apple Inc.',
      accession: '0000320193-25-000001',
    });
    expect(body.event.evidence[0].section).toBe('Item 4.01');
    expect(got.headers['svc-event-id']).toBe(body.event.id);

    const alerts = await app.get('/v1/alerts');
    expect(alerts.status).toBe(200);
    expect(alerts.body.data).toHaveLength(1);
    expect(alerts.body.data[0]).toMatchObject({ monitor_id: monitorId, event_id: body.event.id, delivery_id: body.delivery_id });
    expect(alerts.body.data[0].event.details).toEqual({ form: '8-K', items: ['4.01'] });

    const deliveries = await app.get(`/v1/webhooks/deliveries?monitor_id=${monitorId}`);
    expect(deliveries.body.data).toHaveLength(1);
    expect(deliveries.body.data[0]).toMatchObject({ id: body.delivery_id, status: 'success', attempts: 1, response_status: 200, last_error: null });
  });

  it('re-running the matcher over the same events creates no second alert or delivery', async () => {
    await app.services.state.run('DELETE FROM monitor_scan_state');
    const again = await rt.scanner.scan();
    expect(again.events).toBe(3);
    expect(again.alerts).toBe(0);
    expect(again.deliveries).toBe(0);
    await rt.runOnce();
    expect(receiver.received).toHaveLength(1);
    expect((await app.get('/v1/alerts')).body.data).toHaveLength(1);
  });

  it('a paused monitor matches nothing; resumed, it matches again', async () => {
    const p = await patch(`/v1/monitors/${monitorId}`, { status: 'paused' });
    expect(p.status).toBe(200);
    expect(p.body.data[0].status).toBe('paused');
    await appendEvents(app.settings, [draft()], { now: clock.now() });
    await rt.runOnce();
    expect(receiver.received).toHaveLength(1);
    expect((await patch(`/v1/monitors/${monitorId}`, { status: 'active' })).body.data[0].status).toBe('active');
    clock.advance(1000);
    await appendEvents(app.settings, [draft()], { now: clock.now() });
    await rt.runOnce();
    expect(receiver.received).toHaveLength(2);
    expect(JSON.parse(receiver.received[1].rawBody.toString()).event.accession).toBe('0000320193-25-000005');
    const alerts = await app.get(`/v1/alerts?monitor_id=${monitorId}&limit=1`);
    expect(alerts.body.data[0].event.accession).toBe('0000320193-25-000005');
    expect(alerts.body.page.has_more).toBe(true);
  });

  it('the test endpoint sends a signed webhook.test delivery; a manual retry redelivers', async () => {
    const t = await post(`/v1/webhooks/endpoints/${endpointId}/test`, {});
    expect(t.status).toBe(202);
    expect(t.body.data[0]).toMatchObject({ type: 'webhook.test', status: 'pending', monitor_id: null });
    await rt.runOnce();
    const last = receiver.received[receiver.received.length - 1];
    expect(JSON.parse(last.rawBody.toString())).toMatchObject({ type: 'webhook.test', delivery_id: t.body.data[0].id });
    const retry = await post(`/v1/webhooks/deliveries/${t.body.data[0].id}/retry`, {});
    expect(retry.status).toBe(202);
    expect(retry.body.data[0].status).toBe('pending');
    await rt.runOnce();
    const done = await app.get(`/v1/webhooks/deliveries?endpoint_id=${endpointId}&status=success`);
    expect(done.body.data.find((d: { id: string }) => d.id === t.body.data[0].id)).toMatchObject({ attempts: 2, status: 'success' });
    expect((await post(`/v1/webhooks/deliveries/${t.body.data[0].id}/retry`, {}, otherKey)).status).toBe(404);
  });

  it('rotate-secret returns a new secret; the old one still verifies during the overlap', async () => {
    const r = await post(`/v1/webhooks/endpoints/${endpointId}/rotate-secret`, {});
    expect(r.status).toBe(200);
    const fresh = r.body.data[0].secret;
    expect(fresh).not.toBe(secret);
    await post(`/v1/webhooks/endpoints/${endpointId}/test`, {});
    await rt.runOnce();
    const last = receiver.received[receiver.received.length - 1];
    for (const s of [secret, fresh]) {
      expect(
        verifyWebhookSignature({
          secret: s,
          timestamp: last.headers['svc-timestamp'] as string,
          signature: last.headers['svc-signature'] as string,
          rawBody: last.rawBody,
          now: clock.now(),
        }).ok,
      ).toBe(true);
    }
  });
});

describe('monitor CRUD', () => {
  it('lists with cursor paging, newest first; a tampered cursor is a 422', async () => {
    for (const name of ['one', 'two', 'three']) {
      clock.advance(1);
      expect((await post('/v1/monitors', { name, target_type: 'form', target_value: '10-K' }, otherKey)).status).toBe(201);
    }
    const p1 = await app.get('/v1/monitors?limit=2', otherKey);
    expect(p1.body.data.map((m: { name: string }) => m.name)).toEqual(['three', 'two']);
    expect(p1.body.page).toMatchObject({ limit: 2, has_more: true });
    const p2 = await app.get(`/v1/monitors?limit=2&cursor=${encodeURIComponent(p1.body.page.next_cursor)}`, otherKey);
    expect(p2.body.data.map((m: { name: string }) => m.name)).toEqual(['one']);
    expect(p2.body.page).toEqual({ limit: 2, next_cursor: null, has_more: false });
    // Its last character changed: one that already ended in 'x' was sent unchanged (a 200 in one run of 64).
    const next = p1.body.page.next_cursor as string;
    const tampered = `${next.slice(0, -1)}${next.endsWith('x') ? 'y' : 'x'}`;
    const bad = await app.get(`/v1/monitors?cursor=${encodeURIComponent(tampered)}`, otherKey);
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['query', 'cursor']);
    expect((await app.get('/v1/monitors?limit=0', otherKey)).status).toBe(422);
  });

  it('GET/PATCH/DELETE one monitor; deleted is gone', async () => {
    const c = await post('/v1/monitors', { name: 'cik watch', target_type: 'cik', target_value: '320193', materiality: 'high' });
    const id = c.body.data[0].id;
    expect(c.body.data[0]).toMatchObject({ target_value: '0000320193', signals: [], webhook_endpoint_id: null });
    expect((await app.get(`/v1/monitors/${id}`)).body.data[0].id).toBe(id);
    const p = await patch(`/v1/monitors/${id}`, { name: 'renamed', signals: ['sec.filing.new'], materiality: 'low' });
    expect(p.body.data[0]).toMatchObject({ name: 'renamed', signals: ['sec.filing.new'], materiality: 'low', status: 'active' });
    const d = await del(`/v1/monitors/${id}`);
    expect(d.status).toBe(200);
    expect(d.body.data[0].id).toBe(id);
    expect((await app.get(`/v1/monitors/${id}`)).status).toBe(404);
    expect((await del(`/v1/monitors/${id}`)).status).toBe(404);
  });
});

describe('OpenAPI', () => {
  it('lists every monitor, alert and webhook route with its method', async () => {
    const doc = (await app.get('/openapi.json', null)).body;
    const ops = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) => Object.keys(item).map((m) => `${m} ${path}`));
    for (const op of [
      'post /v1/monitors',
      'get /v1/monitors',
      'get /v1/monitors/{monitor_id}',
      'patch /v1/monitors/{monitor_id}',
      'delete /v1/monitors/{monitor_id}',
      'get /v1/alerts',
      'post /v1/webhooks/endpoints',
      'get /v1/webhooks/endpoints',
      'delete /v1/webhooks/endpoints/{endpoint_id}',
      'post /v1/webhooks/endpoints/{endpoint_id}/rotate-secret',
      'post /v1/webhooks/endpoints/{endpoint_id}/test',
      'get /v1/webhooks/deliveries',
      'post /v1/webhooks/deliveries/{delivery_id}/retry',
    ])
      expect(ops).toContain(op);
  });
});

describe('errors', () => {
  it('401 without a key or with an invalid key, on every monitor and webhook route', async () => {
    const routes: [string, string][] = [
      ['GET', '/v1/monitors'],
      ['POST', '/v1/monitors'],
      ['GET', '/v1/monitors/00000000-0000-4000-8000-000000000000'],
      ['PATCH', '/v1/monitors/00000000-0000-4000-8000-000000000000'],
      ['DELETE', '/v1/monitors/00000000-0000-4000-8000-000000000000'],
      ['GET', '/v1/alerts'],
      ['POST', '/v1/webhooks/endpoints'],
      ['GET', '/v1/webhooks/endpoints'],
      ['GET', '/v1/webhooks/deliveries'],
      ['POST', '/v1/webhooks/deliveries/00000000-0000-4000-8000-000000000000/retry'],
    ];
    for (const [method, path] of routes) {
      for (const key of [null, 'not-a-key']) {
        const r = await app.request(path, { method, key, body: method === 'GET' || method === 'DELETE' ? undefined : {} });
        expect([path, r.status]).toEqual([path, 401]);
        expect(r.body.error.code).toBe('unauthorized');
      }
    }
  });

  it('400 for an invalid target_type, status, materiality, unknown signal, unknown or foreign endpoint, non-https url', async () => {
    const ok = { name: 'n', target_type: 'ticker', target_value: 'MSFT' };
    const foreign = (await post('/v1/webhooks/endpoints', { url: 'https://hooks.example.com/x' }, otherKey)).body.data[0].id;
    const cases: [unknown, string][] = [
      [{ ...ok, target_type: 'sector' }, 'target_type'],
      [{ ...ok, materiality: 'critical' }, 'materiality'],
      [{ ...ok, signals: ['sec.8k.auditor_changes'] }, 'signals'],
      [{ ...ok, webhook_endpoint_id: '00000000-0000-4000-8000-000000000000' }, 'webhook_endpoint_id'],
      [{ ...ok, webhook_endpoint_id: foreign }, 'webhook_endpoint_id'],
      [{ ...ok, target_type: 'cik', target_value: 'apple' }, 'target_value'],
      [{ ...ok, target_type: 'event_type', target_value: 'sec.8k.*' }, 'target_value'],
      [{ target_type: 'ticker', target_value: 'MSFT' }, 'name'],
    ];
    for (const [body, member] of cases) {
      const r = await post('/v1/monitors', body);
      expect([member, r.status]).toEqual([member, 400]);
      expect(JSON.stringify(r.body)).toContain(member);
    }
    const m = (await post('/v1/monitors', ok)).body.data[0];
    expect((await patch(`/v1/monitors/${m.id}`, { status: 'deleted' })).status).toBe(400);
    expect((await patch(`/v1/monitors/${m.id}`, { signals: ['nope'] })).status).toBe(400);
    expect((await patch(`/v1/monitors/${m.id}`, { webhook_endpoint_id: foreign })).status).toBe(400);
    for (const url of ['http://hooks.example.com/x', 'ftp://hooks.example.com', 'not a url', 'https://user:pw@hooks.example.com/']) {
      const r = await post('/v1/webhooks/endpoints', { url });
      expect([url, r.status]).toEqual([url, 400]);
    }
    expect((await post('/v1/webhooks/endpoints', {})).status).toBe(400);
    expect((await app.get('/v1/webhooks/deliveries?status=done')).status).toBe(422);
  });

  it("404 for another account's monitor, indistinguishable from a missing one", async () => {
    const mine = (await post('/v1/monitors', { name: 'x', target_type: 'form', target_value: '4' })).body.data[0].id;
    const missing = '00000000-0000-4000-8000-000000000000';
    for (const id of [mine, missing, 'not-a-uuid']) {
      const g = await app.get(`/v1/monitors/${id}`, otherKey);
      const p = await patch(`/v1/monitors/${id}`, { status: 'paused' }, otherKey);
      const d = await del(`/v1/monitors/${id}`, otherKey);
      for (const r of [g, p, d]) {
        expect(r.status).toBe(404);
        expect(r.body.error.code).toBe('not_found');
        expect(r.body.error.message).toBe(`No monitor with id ${id} under this account.`);
      }
    }
    expect((await app.get(`/v1/monitors/${mine}`)).body.data[0].status).toBe('active');
    expect((await app.get('/v1/alerts', otherKey)).body.data).toEqual([]);
    const ep = (await app.get('/v1/webhooks/endpoints')).body.data[0].id;
    expect((await del(`/v1/webhooks/endpoints/${ep}`, otherKey)).status).toBe(404);
    expect((await post(`/v1/webhooks/endpoints/${ep}/test`, {}, otherKey)).status).toBe(404);
  });
});
