import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createKey } from '../../api/core/keys.ts';
import { openStateStore, stateTarget } from '../../api/core/state.ts';
import { findIngester } from '../../ingest/pipeline/registry.ts';
import { runIngest } from '../../ingest/pipeline/runner.ts';
import { loadSettings } from '../../schemas/settings.ts';
import { startTestPostgres } from '../support/postgres.ts';
import { type ApiProcess, getStatus, startApiProcess } from '../support/processes.ts';
import { keepAliveAgent } from './server-child.ts';
import type { BenchResult } from './support.ts';

const PATH = '/v1/trading-suspensions?limit=25';
// BENCH_SCALE_OUT_REQUESTS: more requests per row steady the figure on a busy machine.
const REQUESTS = Number(process.env.BENCH_SCALE_OUT_REQUESTS ?? 600);
const IN_FLIGHT = 32;

/** Requests/s of REQUESTS metered GETs, IN_FLIGHT at a time, spread round-robin over `ports` (after a warm-up). */
async function throughput(ports: number[], key: string): Promise<{ rps: number; non200: number }> {
  const agent = keepAliveAgent(IN_FLIGHT);
  try {
    const burst = async (n: number) => {
      let next = 0;
      let non200 = 0;
      const lane = async () => {
        for (let i = next++; i < n; i = next++) {
          // A reset connection counts as a failed request (non_200), not as the end of the bench.
          const status = await getStatus(agent, ports[i % ports.length], PATH, key).catch(() => 0);
          if (status !== 200) non200++;
        }
      };
      await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
      return non200;
    };
    await burst(50 * ports.length);
    const t = performance.now();
    const non200 = await burst(REQUESTS);
    return { rps: Math.round(REQUESTS / ((performance.now() - t) / 1000)), non200 };
  } finally {
    agent.destroy();
  }
}

/**
 * Scale-out figures: throughput of 1, 2 and 4 API processes over one small lake (the trading-suspensions sample)
 * sharing a PostgreSQL state store, next to the baseline measured in the same run: one process on the embedded DuckDB
 * store. Every request is metered (a `pro` key), so each one debits credits in the shared store. The load generator
 * runs in this process on the same cores as the servers: on a 2-core machine more processes cannot add cores.
 */
export async function scaleOutBench(): Promise<BenchResult[]> {
  const cluster = await startTestPostgres();
  if ('skipped' in cluster) return [{ name: 'scale-out on PostgreSQL', figures: { skipped: cluster.skipped } }];
  const dataDir = await mkdtemp(join(tmpdir(), 'filings-bench-scale-'));
  const running: ApiProcess[] = [];
  try {
    const settings = loadSettings({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    const dataset = await findIngester('trading-suspensions');
    if (!dataset?.sample) throw new Error('trading-suspensions has no sample');
    await dataset.sample(join(dataDir, 'samples'), { seed: 1, scale: 1 });
    await runIngest(dataset, { from: join(dataDir, 'samples') }, settings, { quiet: true, skipDiff: true });
    const env = { DATA_DIR: dataDir, CURSOR_SECRET: 'bench-cursor-secret-0123456789', RATE_LIMIT_RPS: '1000000' };
    const out: BenchResult[] = [];

    // Baseline: one process on the embedded store (it owns DATA_DIR/state.duckdb while it runs).
    const duckKey = await keyIn(stateTarget(settings));
    const duck = await startApiProcess(env);
    try {
      const r = await throughput([duck.port], duckKey);
      out.push({ name: 'scale-out: 1 API process, DuckDB state (baseline)', figures: { requests: REQUESTS, req_per_s: r.rps, non_200: r.non200 } });
    } finally {
      await duck.stop();
    }

    const url = await cluster.createDatabase('bench_scale_out');
    const pgKey = await keyIn(url);
    running.push(...(await Promise.all([1, 2, 3, 4].map(() => startApiProcess({ ...env, STATE_DATABASE_URL: url })))));
    for (const n of [1, 2, 4]) {
      const r = await throughput(
        running.slice(0, n).map((p) => p.port),
        pgKey,
      );
      out.push({
        name: `scale-out: ${n} API process${n > 1 ? 'es' : ''}, PostgreSQL state`,
        figures: { requests: REQUESTS, req_per_s: r.rps, non_200: r.non200 },
      });
    }
    return out;
  } finally {
    await Promise.all(running.map((p) => p.stop()));
    await cluster.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** A fresh `pro` key in the store at `target` (opened and closed again, so a server can own a DuckDB file after). */
async function keyIn(target: string): Promise<string> {
  const state = await openStateStore(target);
  try {
    return (await createKey(state, { plan: 'pro' })).key;
  } finally {
    await state.close();
  }
}
