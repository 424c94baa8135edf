import { request } from 'node:https';
import { performance } from 'node:perf_hooks';
import { openStateStore, type StateStore } from '../../api/core/state.ts';
import { DeliveryWorker } from '../../api/webhooks/delivery-worker.ts';
import { createEndpoint, queueTestDelivery } from '../../api/webhooks/endpoint-service.ts';
import { makeCert, startReceiver } from '../monitors-webhooks/support.ts';
import { percentile, type BenchResult } from './support.ts';

const SCALE = Number(process.env.BENCH_SCALE ?? 1);
const CONCURRENCY = 8;
const ENDPOINTS = 100;

/** The baseline: a bare https.request loop, `CONCURRENCY` at a time, a new connection (and TLS handshake) each. */
async function bareLoop(url: string, ca: string, n: number, body: Buffer): Promise<number> {
  const u = new URL(url);
  let next = 0;
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const r = request(
        { hostname: u.hostname, port: u.port, path: u.pathname, method: 'POST', ca, agent: false, headers: { 'content-type': 'application/json' } },
        (res) => {
          res.resume();
          res.on('end', resolve);
        },
      );
      r.on('error', reject);
      r.end(body);
    });
  const t = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < n) await one();
    }),
  );
  return n / ((performance.now() - t) / 1000);
}

/** `n` due test deliveries spread round-robin over `endpoints`, inserted in one statement. */
async function queueMany(state: StateStore, endpointIds: string[], n: number, at: Date): Promise<void> {
  await state.run(
    `INSERT INTO webhook_deliveries (id, account_id, endpoint_id, monitor_id, alert_id, event_id, type, event_json, status,
                                     attempts, schedule_step, next_attempt_at, created_at, updated_at)
     SELECT uuid()::VARCHAR, 'bench', (from_json($1::JSON, '["VARCHAR"]'))[1 + (i % $2)], NULL, NULL, uuid()::VARCHAR, 'webhook.test',
            '{"id":"e","event_type":"webhook.test","importance":"low","entity_name":null,"entity_cik":null,"accession":null,"summary":"bench","evidence":[]}',
            'pending', 0, 0, $3, $3, $3
     FROM range($4) t(i)`,
    [JSON.stringify(endpointIds), endpointIds.length, at.toISOString(), n],
  );
}

/** Signed deliveries/s through the worker (100 endpoints, concurrency 8, cap 2 per endpoint) beside the bare loop. */
export async function deliveryThroughput(): Promise<BenchResult> {
  const tls = makeCert();
  const receiver = await startReceiver(tls, () => ({ status: 200 }));
  const state = await openStateStore(':memory:');
  const now = () => new Date();
  try {
    const n = 3000 * SCALE;
    const bare = await bareLoop(receiver.url, tls.cert, n, Buffer.alloc(400, 32));
    const ids: string[] = [];
    for (let i = 0; i < ENDPOINTS; i++) ids.push((await createEndpoint(state, 'bench', { url: receiver.url }, now())).id);
    await queueMany(state, ids, n, now());
    receiver.received.length = 0;
    const worker = new DeliveryWorker({ state, now, allowHosts: 'localhost', timeoutMs: 10_000, ca: tls.cert, concurrency: CONCURRENCY, perEndpoint: 2 });
    const t = performance.now();
    await worker.runDue();
    const rate = n / ((performance.now() - t) / 1000);
    const [{ ok }] = await state.all(`SELECT count(*) AS ok FROM webhook_deliveries WHERE status = 'success'`);
    return {
      name: 'monitors-webhooks: signed HTTPS deliveries vs bare https loop',
      figures: {
        deliveries: n,
        success: Number(ok),
        endpoints: ENDPOINTS,
        concurrency: CONCURRENCY,
        deliveries_per_s: Math.round(rate),
        bare_loop_per_s: Math.round(bare),
        ratio: Math.round((rate / bare) * 100) / 100,
      },
    };
  } finally {
    await state.close();
    await receiver.close();
  }
}

/**
 * A healthy endpoint's delivery latency (queued → received) with the worker running in the background, quiet and
 * while another endpoint's receiver hangs (every send waits for the 10 s time-out) with a 20,000 backlog.
 */
export async function healthyLatencyUnderBacklog(): Promise<BenchResult> {
  const tls = makeCert();
  const healthy = await startReceiver(tls, () => ({ status: 200 }));
  const hanging = await startReceiver(tls, () => ({ status: 200, hang: true }));
  const pollMs = 500;
  const samples = 8;
  const measure = async (backlog: number) => {
    const state = await openStateStore(':memory:');
    const now = () => new Date();
    const worker = new DeliveryWorker({ state, now, allowHosts: 'localhost', timeoutMs: 10_000, ca: tls.cert, pollMs });
    try {
      const good = await createEndpoint(state, 'bench', { url: healthy.url }, now());
      const bad = await createEndpoint(state, 'bench', { url: hanging.url }, now());
      if (backlog) await queueMany(state, [bad.id], backlog, now());
      worker.start();
      const ms: number[] = [];
      for (let i = 0; i < samples; i++) {
        // Queue at a varying phase of the poll interval.
        await new Promise((r) => setTimeout(r, (i * pollMs) / samples));
        const seen = healthy.received.length;
        const t = performance.now();
        await queueTestDelivery(state, 'bench', good.id, now());
        while (healthy.received.length === seen) await new Promise((r) => setTimeout(r, 2));
        ms.push(performance.now() - t);
      }
      return ms;
    } finally {
      if (backlog) hanging.closeConnections();
      await worker.stop();
      await state.close();
    }
  };
  try {
    const quiet = await measure(0);
    const loaded = await measure(20_000);
    return {
      name: 'monitors-webhooks: healthy endpoint latency, other endpoint hangs with 20,000 due',
      figures: {
        poll_ms: pollMs,
        quiet_p50_ms: percentile(quiet, 50),
        quiet_max_ms: percentile(quiet, 100),
        loaded_p50_ms: percentile(loaded, 50),
        loaded_max_ms: percentile(loaded, 100),
      },
    };
  } finally {
    await healthy.close();
    await hanging.close();
  }
}
