import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStateStore, type StateStore } from '../../api/core/state.ts';
import { getDelivery } from '../../api/webhooks/delivery-service.ts';
import { DeliveryWorker } from '../../api/webhooks/delivery-worker.ts';
import { createEndpoint, queueTestDelivery } from '../../api/webhooks/endpoint-service.ts';
import type { SendOutcome, SendRequest } from '../../api/webhooks/sender.ts';
import { TestClock } from './support.ts';

const ACCOUNT = 'acct-fair';
let state: StateStore;
let clock: TestClock;

beforeEach(async () => {
  state = await openStateStore(':memory:');
  clock = new TestClock();
});
afterEach(async () => {
  await state.close();
});

/** `n` due test deliveries to one endpoint in one statement (20,000 through the service would take minutes). */
async function backlog(endpointId: string, n: number): Promise<void> {
  await state.run(
    `INSERT INTO webhook_deliveries (id, account_id, endpoint_id, monitor_id, alert_id, event_id, type, event_json, status,
                                     attempts, schedule_step, next_attempt_at, created_at, updated_at)
     SELECT uuid()::VARCHAR, $1, $2, NULL, NULL, uuid()::VARCHAR, 'webhook.test', '{"id":"e","evidence":[]}', 'pending', 0, 0, $3, $3, $3
     FROM range($4)`,
    [ACCOUNT, endpointId, clock.now().toISOString(), n],
  );
}

const ok: SendOutcome = { status: 200, error: null, responseExcerpt: '' };

describe('fair and isolated delivery', () => {
  it('20,000 due to a failing endpoint and one to a healthy endpoint: the healthy one goes in the first cycle', async () => {
    const failing = await createEndpoint(state, ACCOUNT, { url: 'https://failing.example/hook' }, clock.now());
    const healthy = await createEndpoint(state, ACCOUNT, { url: 'https://healthy.example/hook' }, clock.now());
    await backlog(failing.id, 20_000);
    clock.advance(1_000); // the healthy delivery is the newest of all
    const id = await queueTestDelivery(state, ACCOUNT, healthy.id, clock.now());
    const sent: string[] = [];
    const w = new DeliveryWorker({
      state,
      now: clock.now,
      allowHosts: '',
      timeoutMs: 1000,
      concurrency: 8,
      perEndpoint: 2,
      send: async (req: SendRequest) => {
        sent.push(new URL(req.url).hostname);
        return req.url.includes('failing') ? { status: 500, error: 'HTTP 500', responseExcerpt: '' } : ok;
      },
    });
    expect(await w.tick()).toBe(3); // the failing endpoint's cap (2) and the healthy one
    await w.drain();
    expect(sent.filter((h) => h === 'healthy.example')).toHaveLength(1);
    expect(sent.filter((h) => h === 'failing.example')).toHaveLength(2);
    expect(await getDelivery(state, ACCOUNT, id)).toMatchObject({ status: 'success', attempts: 1 });
  });

  it('a receiver that never answers holds only its own slots; the scheduler and other endpoints go on', async () => {
    const hanging = await createEndpoint(state, ACCOUNT, { url: 'https://hanging.example/hook' }, clock.now());
    const healthy = await createEndpoint(state, ACCOUNT, { url: 'https://healthy.example/hook' }, clock.now());
    await backlog(hanging.id, 50);
    let release: () => void = () => undefined;
    const hung = new Promise<void>((r) => {
      release = r;
    });
    let hangingInFlight = 0;
    const w = new DeliveryWorker({
      state,
      now: clock.now,
      allowHosts: '',
      timeoutMs: 1000,
      send: async (req) => {
        if (req.url.includes('hanging')) {
          hangingInFlight++;
          await hung; // stands for a receiver that answers only at its time-out
          return { status: null, error: 'timed out after 1000 ms', responseExcerpt: '' };
        }
        return ok;
      },
    });
    expect(await w.tick()).toBe(2); // returns at once although both sends hang
    const first = await queueTestDelivery(state, ACCOUNT, healthy.id, clock.now());
    expect(await w.tick()).toBe(1);
    clock.advance(10);
    const second = await queueTestDelivery(state, ACCOUNT, healthy.id, clock.now());
    expect(await w.tick()).toBe(1);
    await new Promise((r) => setImmediate(r));
    // Both healthy deliveries were sent and recorded while the hanging ones still hold their two slots.
    await expect.poll(async () => (await getDelivery(state, ACCOUNT, second)).status).toBe('success');
    expect((await getDelivery(state, ACCOUNT, first)).status).toBe('success');
    expect(hangingInFlight).toBe(2);
    release();
    await w.drain();
    const [{ n }] = await state.all(`SELECT count(*) AS n FROM webhook_attempts WHERE outcome = 'error'`);
    expect(Number(n)).toBe(2);
  });
});
