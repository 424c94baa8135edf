import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import service from '../../api/service/routes.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { percentile, type BenchResult } from './support.ts';

/**
 * Authentication under attack (#19): a tenant's p50 on `/v1/account` (a state-store read, the queue a flood of
 * unknown keys used to fill) while 100,000 requests with unique, well-formed, unknown keys arrive from 100 loopback
 * addresses, next to the same tenant's p50 on a quiet server in the same run. Before the fix, 120,000 such requests
 * took other clients' median from 5 ms to 256–316 ms and the process from 213 to 414 MB; with the 429 answered first in
 * Express, still 3.32 → 88.46 ms (26.6×), which the address gate (api/core/address-gate.ts) is for. The last figure
 * line also prints what the gate did. `FLOOD_REQUESTS` resizes it.
 */

const FLOOD = Number(process.env.FLOOD_REQUESTS ?? 100_000);
const ADDRESSES = 100;
/** Flood requests in flight at once. */
const IN_FLIGHT = 64;
/** How long the flood waits for an answer before it destroys the connection and moves on (it never honours Retry-After). */
const GIVE_UP_MS = 50;

export default async function authFloodBench(): Promise<BenchResult[]> {
  const app = await createTestApp({ routes: service, env: { RATE_LIMIT_RPS: '100000', METERING: 'on' } });
  try {
    const quiet = await tenantSamples(app, () => false, 300);
    const before = memoryAfterGc();
    let done = false;
    const started = performance.now();
    const flood = runFlood(app.port).finally(() => {
      done = true;
    });
    const during = await tenantSamples(app, () => done, Number.POSITIVE_INFINITY);
    const statuses = await flood;
    const seconds = (performance.now() - started) / 1000;
    const after = memoryAfterGc();
    return [
      { name: 'tenant GET /v1/account, quiet (baseline)', figures: { p50_ms: percentile(quiet, 50), p99_ms: percentile(quiet, 99), runs: quiet.length } },
      {
        name: `tenant GET /v1/account during ${FLOOD.toLocaleString('en-US')} unknown keys`,
        figures: {
          p50_ms: percentile(during, 50),
          p99_ms: percentile(during, 99),
          runs: during.length,
          ratio_p50: ratio(during, quiet),
          // Steady or creeping: the p50 of each quarter of the flood's samples.
          p50_by_quarter: [0, 1, 2, 3].map((q) => percentile(during.slice((q * during.length) >> 2, ((q + 1) * during.length) >> 2), 50)).join(' / '),
        },
      },
      {
        name: `the flood from ${ADDRESSES} addresses`,
        figures: {
          seconds: Math.round(seconds * 10) / 10,
          req_per_s: Math.round(FLOOD / seconds),
          ...Object.fromEntries(Object.entries(statuses).map(([k, v]) => [/^\d+$/.test(k) ? `s${k}` : k, v])),
          gate: Object.entries(app.gate.counts)
            .map(([k, v]) => `${k} ${v}`)
            .join(', '),
          rss_growth_mb: Math.round((after.rss - before.rss) / 2 ** 20),
          heap_growth_mb: Math.round((after.heap - before.heap) / 2 ** 20),
        },
      },
    ];
  } finally {
    await app.close();
  }
}

/**
 * A full collection (V8's gc, exposed at run time so `make bench` needs no flag), then the process's RSS and heap: the
 * garbage of 100,000 closed sockets is not growth. RSS keeps pages the allocator holds on to; the heap shows a leak.
 */
function memoryAfterGc(): { rss: number; heap: number } {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
  const m = process.memoryUsage();
  return { rss: m.rss, heap: m.heapUsed };
}

function ratio(a: number[], b: number[]): number {
  return Math.round((percentile(a, 50) / percentile(b, 50)) * 100) / 100;
}

/** One tenant's sequential calls: `max` of them, or until `stop()`; each call's wall time. */
async function tenantSamples(app: TestApp, stop: () => boolean, max: number): Promise<number[]> {
  for (let i = 0; i < 10; i++) await app.get('/v1/account');
  const out: number[] = [];
  while (out.length < max && !stop()) {
    const t = performance.now();
    const r = await app.get('/v1/account');
    out.push(performance.now() - t);
    if (r.status !== 200) throw new Error(`the tenant got ${r.status}`);
  }
  return out;
}

/**
 * The flood, sent by a child process (so its own work does not stall the server's event loop, as an attacker's
 * machine would not): `IN_FLIGHT` requests at once, each from one of `ADDRESSES` loopback addresses, each with its
 * own key. An attacker that does not wait: a request unanswered after `GIVE_UP_MS` is destroyed with its socket and
 * the next one goes out on a new connection. Resolves to the answers counted by status, plus `timeout` (given up)
 * and `reset` (the server closed the connection: an idle keep-alive socket, or a connection over the gate's cap).
 */
async function runFlood(port: number): Promise<Record<string, number>> {
  const script = `
    const http = require('node:http');
    const agents = Array.from({ length: ${ADDRESSES} }, () => new http.Agent({ keepAlive: true, maxSockets: 4 }));
    const counts = {};
    let next = 0;
    const get = (i) => new Promise((resolve) => {
      const key = 'sk_live_' + i.toString(36).padStart(32, 'Z');
      const req = http.request({ host: '127.0.0.1', port: ${port}, path: '/v1/account', agent: agents[i % ${ADDRESSES}],
        localAddress: '127.0.1.' + ((i % ${ADDRESSES}) + 1), headers: { Authorization: 'Bearer ' + key } }, (res) => {
        res.resume();
        res.on('end', () => { clearTimeout(giveUp); resolve(res.statusCode); });
      });
      const giveUp = setTimeout(() => { resolve('timeout'); req.destroy(); }, ${GIVE_UP_MS});
      req.on('error', () => { clearTimeout(giveUp); resolve('reset'); });
      req.end();
    });
    const worker = async () => { while (next < ${FLOOD}) { const s = await get(next++); counts[s] = (counts[s] || 0) + 1; } };
    Promise.all(Array.from({ length: ${IN_FLIGHT} }, worker)).then(() => { process.stdout.write(JSON.stringify(counts)); process.exit(0); });
  `;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`the flood exited ${code}`))));
  });
}
