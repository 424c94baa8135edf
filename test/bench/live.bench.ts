import { performance } from 'node:perf_hooks';
import { createLiveLane } from '../../ingest/pipeline/index.ts';
import { verifyWebhookSignature } from '../../api/webhooks/verifier.ts';
import { hasFixtures } from '../support/fixtures.ts';
import { createTestApp } from '../support/harness.ts';
import { type Kind, startFakeRegulator } from '../support/fake-regulator.ts';
import { makeCert, startReceiver } from '../monitors-webhooks/support.ts';
import { MONITORING_ROUTES } from '../monitors-webhooks/monitoring-routes.ts';
import { percentile, type BenchResult } from './support.ts';

/**
 * publish → lake, publish → event and publish → verified webhook through the live lane, against a loopback
 * regulator publishing real-format filings (Form 4, 8-K, Schedule 13D in turn) at a steady rate, with form
 * monitors and a local HTTPS receiver that verifies every signature.
 *
 * Time is scaled (BENCH_LIVE_SCALE, default 3) so the run takes about five minutes: the poll interval is
 * 30 s / scale and the publish rate is the nominal rate × scale, so each poll's batch is as large as at the
 * nominal rate. Latencies are measured in real time at the scaled interval; the waiting part (publish → next
 * poll) grows with the interval and the processing part does not, so the line also prints the projection at the
 * nominal 30 s (measured processing + scaled-up wait). The webhook deliveries are not scaled down: they arrive
 * `scale` times faster than at the nominal rate, which is why the scale stays small (at 10 the 50/min step sends
 * ~12 deliveries a second and measures the delivery worker, not the lane). BENCH_LIVE_SCALE=1 measures the nominal
 * interval directly (about 13 minutes).
 */
const SCALE = Number(process.env.BENCH_LIVE_SCALE ?? 3);
const NOMINAL_POLL_MS = 30_000;
const POLL_MS = NOMINAL_POLL_MS / SCALE;
/** Each step publishes for this many nominal minutes. */
const STEP_MINUTES = 4;
const RATES = [1, 10, 50];
const KINDS: Kind[] = ['form4', '8k', '13d'];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const sec = (ms: number) => Math.round(ms / 100) / 10;

export default async function bench(): Promise<BenchResult[]> {
  if (!hasFixtures) return [{ name: 'live: skipped', figures: { reason: 'fixtures not found (../shared)' } }];
  const tls = makeCert();
  const receiver = await startReceiver(tls);
  const regulator = await startFakeRegulator();
  const app = await createTestApp({
    routes: MONITORING_ROUTES,
    env: { SEC_BASE_URL: regulator.url, SEC_DATA_BASE_URL: regulator.url, LIVE: 'on', LIVE_INTERVAL_MS: String(POLL_MS), WEBHOOK_ALLOW_HOSTS: 'localhost' },
    monitoring: { ca: tls.cert },
  });
  const results: BenchResult[] = [];
  try {
    const ep = (await app.request('/v1/webhooks/endpoints', { method: 'POST', body: { url: receiver.url } })).body.data[0];
    for (const form of ['4', '8-K', 'SCHEDULE 13D']) {
      await app.request('/v1/monitors', { method: 'POST', body: { name: form, target_type: 'form', target_value: form, webhook_endpoint_id: ep.id } });
    }

    const publishedAt = new Map<string, number>();
    const lakeAt = new Map<string, number>();
    const eventAt = new Map<string, number>();
    const hookAt = new Map<string, number>();
    const deliveriesPerEvent = new Map<string, number>();
    let badSignatures = 0;
    receiver.setResponder((r) => {
      const at = performance.now();
      const v = verifyWebhookSignature({
        secret: ep.secret,
        timestamp: r.headers['svc-timestamp'] as string,
        signature: r.headers['svc-signature'] as string,
        rawBody: r.rawBody,
        now: new Date(),
      });
      if (!v.ok) badSignatures++;
      const body = JSON.parse(r.rawBody.toString());
      const acc = body.event?.accession as string | undefined;
      const key = `${body.monitor_id}|${body.event?.id}`;
      deliveriesPerEvent.set(key, (deliveriesPerEvent.get(key) ?? 0) + 1);
      if (v.ok && acc && !hookAt.has(acc)) hookAt.set(acc, at);
      return { status: 200 };
    });

    const monitoring = app.services.monitoring;
    monitoring.start({ pollMs: 1000 });
    const lane = createLiveLane({
      settings: app.settings,
      http: app.services.http,
      onBatch: () => monitoring.kick(),
      onStage: (stage, accessions) => {
        const at = performance.now();
        for (const a of accessions) (stage === 'lake' ? lakeAt : eventAt).set(a, at);
      },
    });
    // Bootstrap on an empty feed so the first measured filing is not a first-start page.
    await lane.pollOnce();
    lane.start();

    for (const rate of RATES) {
      const gapMs = 60_000 / (rate * SCALE);
      const count = rate * STEP_MINUTES;
      const step: string[] = [];
      const t0 = performance.now();
      for (let i = 0; i < count; i++) {
        const due = t0 + i * gapMs;
        if (due > performance.now()) await sleep(due - performance.now());
        const f = regulator.publish(KINDS[i % KINDS.length], new Date());
        publishedAt.set(f.accession, f.publishedAtPerf);
        step.push(f.accession);
      }
      // Drain: every filing's webhook, or give up after a few poll intervals and count what is missing.
      const deadline = performance.now() + 10 * POLL_MS + 30_000;
      while (performance.now() < deadline && step.some((a) => !hookAt.has(a))) await sleep(200);

      const lat = (m: Map<string, number>) => step.filter((a) => m.has(a)).map((a) => m.get(a)! - publishedAt.get(a)!);
      const [toLake, toEvent, toHook] = [lat(lakeAt), lat(eventAt), lat(hookAt)];
      // Waiting for the next poll is uniform over the interval; the rest is processing, which scaling leaves as is.
      const projected = (samples: number[], p: number) => sec(percentile(samples, p) + (p / 100) * (NOMINAL_POLL_MS - POLL_MS));
      const dup = [...deliveriesPerEvent.values()].filter((n) => n > 1).length;
      const dupEvents = await app.services.lake.query('SELECT count(*)::INTEGER AS n FROM (SELECT dedup_key FROM events GROUP BY 1 HAVING count(*) > 1)');
      results.push({
        name: `live: ${rate}/min nominal (×${SCALE}: ${rate * SCALE}/min real), poll ${sec(POLL_MS)} s`,
        figures: {
          published: step.length,
          in_lake: toLake.length,
          webhooks: toHook.length,
          missed: step.length - toHook.length,
          duplicate_deliveries: dup,
          duplicate_events: Number(dupEvents[0].n),
          lake_p50_s: sec(percentile(toLake, 50)),
          lake_p99_s: sec(percentile(toLake, 99)),
          event_p50_s: sec(percentile(toEvent, 50)),
          event_p99_s: sec(percentile(toEvent, 99)),
          webhook_p50_s: sec(percentile(toHook, 50)),
          webhook_p99_s: sec(percentile(toHook, 99)),
          [`webhook_p99_at_${NOMINAL_POLL_MS / 1000}s_poll_projected_s`]: SCALE === 1 ? sec(percentile(toHook, 99)) : projected(toHook, 99),
        },
      });
    }
    const h = lane.health();
    results.push({
      name: 'live: lane totals',
      figures: {
        polls: h.polls,
        requests: h.requests,
        errors: h.errors,
        bad_signatures: badSignatures,
        // Baseline for the latency figures above: the poll interval alone bounds the wait for the next poll.
        baseline_poll_interval_s: sec(POLL_MS),
        nominal_poll_interval_s: NOMINAL_POLL_MS / 1000,
      },
    });
    await lane.stop();
  } finally {
    await app.close();
    await regulator.close();
    await receiver.close();
  }
  return results;
}
