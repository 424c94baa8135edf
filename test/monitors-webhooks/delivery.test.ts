import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openStateStore, type StateStore } from '../../api/core/state.ts';
import { getDelivery, retryDelivery } from '../../api/webhooks/delivery-service.ts';
import { DeliveryWorker, RETRY_SCHEDULE_MS } from '../../api/webhooks/delivery-worker.ts';
import { createMonitor, getMonitor } from '../../api/monitors/monitor-service.ts';
import { createEndpoint, deleteEndpoint, queueTestDelivery, rotateSecret } from '../../api/webhooks/endpoint-service.ts';
import type { SendRequest } from '../../api/webhooks/sender.ts';
import { verifyWebhookSignature } from '../../api/webhooks/verifier.ts';
import { makeCert, startReceiver, TestClock } from './support.ts';

const ACCOUNT = 'acct-deliveries';
const tls = makeCert();
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let state: StateStore;
let clock: TestClock;

const worker = (o: Partial<ConstructorParameters<typeof DeliveryWorker>[0]> = {}) =>
  new DeliveryWorker({ state, now: clock.now, allowHosts: 'localhost', timeoutMs: 2000, ca: tls.cert, ...o });

async function endpoint(url = receiver.url) {
  return createEndpoint(state, ACCOUNT, { url, description: 'test receiver' }, clock.now());
}

beforeAll(async () => {
  receiver = await startReceiver(tls);
});
afterAll(async () => {
  await receiver.close();
});
beforeEach(async () => {
  state = await openStateStore(':memory:');
  clock = new TestClock();
  receiver.received.length = 0;
  receiver.setResponder(() => ({ status: 200 }));
});
afterEach(async () => {
  await state.close();
});

describe('a delivery to a real HTTPS receiver', () => {
  it('carries the spec headers, and the signature over the exact bytes received verifies', async () => {
    const ep = await endpoint();
    const id = await queueTestDelivery(state, ACCOUNT, ep.id, clock.now());
    await worker().runDue();
    expect(receiver.received).toHaveLength(1);
    const r = receiver.received[0];
    expect(r.headers['svc-event-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.headers['svc-delivery-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.headers['svc-timestamp']).toBe('2025-03-03T12:00:00.000Z');
    expect(r.headers['content-type']).toBe('application/json');
    const v = verifyWebhookSignature({
      secret: ep.secret!,
      timestamp: r.headers['svc-timestamp'] as string,
      signature: r.headers['svc-signature'] as string,
      rawBody: r.rawBody,
      now: clock.now(),
    });
    expect(v).toEqual({ ok: true });
    const body = JSON.parse(r.rawBody.toString());
    expect(body).toMatchObject({ type: 'webhook.test', monitor_id: null, delivery_id: id });
    expect(Object.keys(body.event).sort()).toEqual(['accession', 'entity_cik', 'entity_name', 'event_type', 'evidence', 'id', 'importance', 'summary']);
    expect(body.event.id).toBe(r.headers['svc-event-id']);
    const d = await getDelivery(state, ACCOUNT, id);
    expect(d).toMatchObject({ status: 'success', attempts: 1, response_status: 200, last_error: null, next_attempt_at: null });
  });

  it('retries after exactly 1 min, 5 min, 30 min and 2 h, then fails; each attempt has its own Svc-Delivery-Id', async () => {
    receiver.setResponder(() => ({ status: 503, body: 'busy' }));
    const ep = await endpoint();
    const id = await queueTestDelivery(state, ACCOUNT, ep.id, clock.now());
    const w = worker();
    await w.runDue();
    expect(receiver.received).toHaveLength(1);
    for (const [i, wait] of RETRY_SCHEDULE_MS.entries()) {
      const d = await getDelivery(state, ACCOUNT, id);
      expect(d.status).toBe('pending');
      expect(d.response_status).toBe(503);
      expect(d.last_error).toBe('HTTP 503: busy');
      expect(Date.parse(d.next_attempt_at!) - clock.now().getTime()).toBe(wait);
      clock.advance(wait - 1);
      await w.runDue();
      expect(receiver.received).toHaveLength(i + 1); // not a millisecond early
      clock.advance(1);
      await w.runDue();
      expect(receiver.received).toHaveLength(i + 2);
    }
    const d = await getDelivery(state, ACCOUNT, id);
    expect(d).toMatchObject({ status: 'failed', attempts: 5, response_status: 503, next_attempt_at: null });
    expect(new Set(receiver.received.map((r) => r.headers['svc-delivery-id'])).size).toBe(5);
    expect(new Set(receiver.received.map((r) => r.headers['svc-event-id'])).size).toBe(1);
    expect([60, 300, 1800, 7200].reduce((a, b) => a + b, 0) * 1000).toBe(RETRY_SCHEDULE_MS.reduce((a, b) => a + b, 0));
    clock.advance(24 * 3600_000);
    await w.runDue();
    expect(receiver.received).toHaveLength(5);
  });

  it('succeeds on a retry once the receiver recovers; a manual retry redelivers a finished one', async () => {
    let n = 0;
    receiver.setResponder(() => ({ status: n++ === 0 ? 500 : 204 }));
    const ep = await endpoint();
    const id = await queueTestDelivery(state, ACCOUNT, ep.id, clock.now());
    const w = worker();
    await w.runDue();
    clock.advance(60_000);
    await w.runDue();
    expect(await getDelivery(state, ACCOUNT, id)).toMatchObject({ status: 'success', attempts: 2, response_status: 204, last_error: null });
    const again = await retryDelivery(state, ACCOUNT, id, clock.now());
    expect(again.status).toBe('pending');
    await expect(retryDelivery(state, ACCOUNT, id, clock.now())).rejects.toMatchObject({ status: 409 });
    await w.runDue();
    expect(receiver.received).toHaveLength(3);
    expect(await getDelivery(state, ACCOUNT, id)).toMatchObject({ status: 'success', attempts: 3 });
  });

  it('a 410 Gone disables the endpoint and stops every delivery owed to it', async () => {
    receiver.setResponder(() => ({ status: 410 }));
    const ep = await endpoint();
    const first = await queueTestDelivery(state, ACCOUNT, ep.id, clock.now());
    clock.advance(10);
    const second = await queueTestDelivery(state, ACCOUNT, ep.id, clock.now());
    await worker({ perEndpoint: 1, concurrency: 1 }).runDue();
    const [a, b] = [await getDelivery(state, ACCOUNT, first), await getDelivery(state, ACCOUNT, second)];
    expect(a).toMatchObject({ status: 'failed', response_status: 410 });
    expect(b.status).toBe('failed');
    expect(b.last_error).toMatch(/410 Gone; endpoint disabled/);
    expect(receiver.received).toHaveLength(1);
    const [row] = await state.all('SELECT status, disabled_reason FROM webhook_endpoints WHERE id = $1', [ep.id]);
    expect(row.status).toBe('disabled');
    await expect(queueTestDelivery(state, ACCOUNT, ep.id, clock.now())).rejects.toMatchObject({ status: 409 });
    await expect(retryDelivery(state, ACCOUNT, first, clock.now())).rejects.toMatchObject({ status: 409 });
  });

  it('does not follow redirects; a 3xx is a failed attempt', async () => {
    receiver.setResponder(() => ({ status: 302 }));
    const ep = await endpoint();
    const id = await queueTestDelivery(state, ACCOUNT, ep.id, clock.now());
    await worker().runDue();
    expect(receiver.received).toHaveLength(1);
    expect(await getDelivery(state, ACCOUNT, id)).toMatchObject({ status: 'pending', response_status: 302 });
    expect((await getDelivery(state, ACCOUNT, id)).last_error).toMatch(/^redirect not followed \(HTTP 302\)/);
  });

  it('times out a receiver that never answers, and reads only a capped response body', async () => {
    receiver.setResponder(() => ({ status: 200, hang: true }));
    const ep = await endpoint();
    const id = await queueTestDelivery(state, ACCOUNT, ep.id, clock.now());
    await worker({ timeoutMs: 300 }).runDue();
    expect(await getDelivery(state, ACCOUNT, id)).toMatchObject({ status: 'pending', response_status: null, last_error: 'timed out after 300 ms' });

    receiver.setResponder(() => ({ status: 200, body: Buffer.alloc(20 * 1024 * 1024, 120) }));
    const big = await queueTestDelivery(state, ACCOUNT, ep.id, clock.now());
    // A generous time-out: the receiver builds a 20 MiB answer, slow on a loaded machine; the cap is what is tested.
    await worker({ timeoutMs: 15_000 }).runDue();
    expect(await getDelivery(state, ACCOUNT, big)).toMatchObject({ status: 'success', response_status: 200 });
  });

  it('refuses a loopback receiver that is not in WEBHOOK_ALLOW_HOSTS, without connecting', async () => {
    const ep = await endpoint();
    const id = await queueTestDelivery(state, ACCOUNT, ep.id, clock.now());
    await worker({ allowHosts: '' }).runDue();
    expect(receiver.received).toHaveLength(0);
    const d = await getDelivery(state, ACCOUNT, id);
    expect(d.status).toBe('pending');
    expect(d.last_error).toMatch(/^refused: localhost resolves to address (127\.0\.0\.1|::1) is loopback/);
  });

  it('after a rotation both secrets sign for the overlap, then only the new one', async () => {
    const ep = await endpoint();
    const rotated = await rotateSecret(state, ACCOUNT, ep.id, clock.now());
    expect(rotated.secret).not.toBe(ep.secret);
    expect(rotated.previous_secret_expires_at).toBe('2025-03-04T12:00:00.000Z');
    await queueTestDelivery(state, ACCOUNT, ep.id, clock.now());
    const w = worker();
    await w.runDue();
    const r = receiver.received[0];
    const check = (secret: string, rr = r) =>
      verifyWebhookSignature({
        secret,
        timestamp: rr.headers['svc-timestamp'] as string,
        signature: rr.headers['svc-signature'] as string,
        rawBody: rr.rawBody,
        now: clock.now(),
      }).ok;
    expect(check(ep.secret!)).toBe(true);
    expect(check(rotated.secret!)).toBe(true);
    clock.advance(24 * 3600_000);
    await queueTestDelivery(state, ACCOUNT, ep.id, clock.now());
    await w.runDue();
    const later = receiver.received[1];
    expect((later.headers['svc-signature'] as string).split(',')).toHaveLength(1);
    expect(check(rotated.secret!, later)).toBe(true);
    expect(check(ep.secret!, later)).toBe(false);
  });

  it('bounds concurrency per endpoint: a slow receiver holds at most its share of slots', async () => {
    const seen: SendRequest[] = [];
    let inFlight = 0;
    let peak = 0;
    const slow = await endpoint('https://slow.example/hook');
    const fast = await endpoint('https://fast.example/hook');
    for (let i = 0; i < 6; i++) await queueTestDelivery(state, ACCOUNT, slow.id, clock.now());
    const fastId = await queueTestDelivery(state, ACCOUNT, fast.id, clock.now());
    const w = worker({
      concurrency: 4,
      perEndpoint: 2,
      send: async (req) => {
        seen.push(req);
        if (req.url.includes('slow')) {
          inFlight++;
          peak = Math.max(peak, inFlight);
          await new Promise((r) => setTimeout(r, 50));
          inFlight--;
        }
        return { status: 200, error: null, responseExcerpt: '' };
      },
    });
    expect(await w.tick()).toBe(3); // two for the slow endpoint, one for the fast
    await w.drain();
    expect((await getDelivery(state, ACCOUNT, fastId)).status).toBe('success');
    await w.runDue();
    expect(peak).toBe(2);
    expect(seen).toHaveLength(7);
  });
});

describe('removing an endpoint', () => {
  it('closes what is owed to it as failed and detaches the monitors pointing at it', async () => {
    const ep = await endpoint();
    const m = await createMonitor(state, ACCOUNT, { name: 'm', target_type: 'ticker', target_value: 'AAPL', webhook_endpoint_id: ep.id }, clock.now());
    const owed = await queueTestDelivery(state, ACCOUNT, ep.id, clock.now());
    await deleteEndpoint(state, ACCOUNT, ep.id, clock.now());
    expect(await getDelivery(state, ACCOUNT, owed)).toMatchObject({ status: 'failed', last_error: 'endpoint deleted', next_attempt_at: null });
    expect((await getMonitor(state, ACCOUNT, m.id)).webhook_endpoint_id).toBeNull();
    await worker().runDue();
    expect(receiver.received).toHaveLength(0);
  });
});

describe('durability across a restart', () => {
  it('an attempt cut off mid-flight is never re-sent under its id; the schedule resumes and nothing is lost', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mw-state-'));
    const path = join(dir, 'state.duckdb');
    try {
      await state.close();
      state = await openStateStore(path);
      const ep = await endpoint();
      const cut = await queueTestDelivery(state, ACCOUNT, ep.id, clock.now());
      clock.advance(1);
      // The process dies while the first attempt is on the wire: its send never returns.
      const dying = worker({ concurrency: 1, perEndpoint: 1, send: () => new Promise(() => undefined) });
      expect(await dying.tick()).toBe(1);
      const owed = await queueTestDelivery(state, ACCOUNT, ep.id, clock.now()); // queued, not yet attempted
      const [attempt] = await state.all(`SELECT id, outcome FROM webhook_attempts WHERE delivery_id = $1`, [cut]);
      expect(attempt.outcome).toBe('sending');
      await state.close();

      state = await openStateStore(path);
      clock.advance(5_000);
      const w = worker();
      await w.runDue();
      // The fresh delivery goes out at once; the interrupted one waits for its first retry (1 min after the cut attempt).
      expect(receiver.received.map((r) => JSON.parse(r.rawBody.toString()).delivery_id)).toEqual([owed]);
      const [after] = await state.all(`SELECT outcome, error FROM webhook_attempts WHERE id = $1`, [attempt.id]);
      expect(after.outcome).toBe('interrupted');
      const d = await getDelivery(state, ACCOUNT, cut);
      expect(d).toMatchObject({ status: 'pending', attempts: 1, next_attempt_at: '2025-03-03T12:01:00.001Z' });
      clock.advance(60_000);
      await w.runDue();
      expect(receiver.received).toHaveLength(2);
      const resent = receiver.received[1];
      expect(JSON.parse(resent.rawBody.toString()).delivery_id).toBe(cut);
      expect(resent.headers['svc-delivery-id']).not.toBe(attempt.id);
      expect(await getDelivery(state, ACCOUNT, cut)).toMatchObject({ status: 'success', attempts: 2 });
    } finally {
      await state.close().catch(() => undefined);
      state = await openStateStore(':memory:');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
