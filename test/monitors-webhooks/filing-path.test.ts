import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MonitoringRuntime } from '../../api/monitors/runtime.ts';
import { verifyWebhookSignature } from '../../api/webhooks/verifier.ts';
import datasetFilings from '../../ingest/datasets/filings/dataset.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { MONITORING_ROUTES } from './monitoring-routes.ts';
import { makeCert, startReceiver, TestClock } from './support.ts';

const tls = makeCert();
const clock = new TestClock();
let app: TestApp;
let rt: MonitoringRuntime;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  receiver = await startReceiver(tls);
  app = await createTestApp({ routes: MONITORING_ROUTES, now: clock.now, env: { WEBHOOK_ALLOW_HOSTS: 'localhost' }, monitoring: { ca: tls.cert } });
  rt = app.services.monitoring;
});
afterAll(async () => {
  await app?.close();
  await receiver?.close();
});

describe('ingested filing index → events (diff stage) → monitors → signed deliveries', () => {
  it('every 8-K event of the ingest fires the form monitor once, and every delivery verifies', async () => {
    const ep = (await app.request('/v1/webhooks/endpoints', { method: 'POST', body: { url: receiver.url } })).body.data[0];
    const byForm = (
      await app.request('/v1/monitors', { method: 'POST', body: { name: '8-Ks', target_type: 'form', target_value: '8-K', webhook_endpoint_id: ep.id } })
    ).body.data[0];
    const highOnly = (
      await app.request('/v1/monitors', {
        method: 'POST',
        body: { name: 'high 8-K items', target_type: 'form', target_value: '8-K', materiality: 'high', signals: [] },
      })
    ).body.data[0];

    const summary = await app.ingestSample(datasetFilings);
    expect(summary.events?.appended ?? 0).toBeGreaterThan(0);
    const expected = await app.services.lake.query(`SELECT id, importance FROM events WHERE json_extract_string(details, '$.form') = '8-K' ORDER BY seq, id`);
    expect(expected.length).toBeGreaterThan(0);

    await rt.runOnce();
    const alerts = await app.services.state.all(`SELECT monitor_id, event_id FROM alerts ORDER BY event_id`);
    const fired = (m: string) =>
      alerts
        .filter((a) => a.monitor_id === m)
        .map((a) => a.event_id)
        .sort();
    expect(fired(byForm.id)).toEqual(expected.map((e) => e.id).sort());
    expect(fired(highOnly.id)).toEqual(
      expected
        .filter((e) => e.importance === 'high')
        .map((e) => e.id)
        .sort(),
    );

    expect(receiver.received).toHaveLength(expected.length);
    for (const r of receiver.received) {
      const v = verifyWebhookSignature({
        secret: ep.secret,
        timestamp: r.headers['svc-timestamp'] as string,
        signature: r.headers['svc-signature'] as string,
        rawBody: r.rawBody,
        now: clock.now(),
      });
      expect(v).toEqual({ ok: true });
      const body = JSON.parse(r.rawBody.toString());
      expect(body.monitor_id).toBe(byForm.id);
      expect(body.event.entity_cik).toMatch(/^\d{10}$/);
      expect(body.event.evidence[0].source_type).toBe('sec_filing_index');
    }
    const failed = await app.get('/v1/webhooks/deliveries?status=failed');
    expect(failed.body.data).toEqual([]);

    // The same ingest again appends no event, so nothing fires twice.
    await app.ingestSample(datasetFilings);
    await rt.runOnce();
    expect(receiver.received).toHaveLength(expected.length);
  });
});
