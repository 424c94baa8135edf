import { performance } from 'node:perf_hooks';
import { percentile } from './support.ts';

export interface LoadFigures {
  p50_ms: number;
  p99_ms: number;
  req_s: number;
  requests: number;
}

/**
 * `clients` callers, each issuing up to `perClient` calls back to back (a closed loop: a caller sends its next request
 * when the previous one answers), after `warmup` unrecorded calls each. A caller also stops once `budgetMs` has passed
 * since the recorded calls began (after at least one call): on a loaded shared machine a slow system then yields fewer
 * samples, never an endless run; `requests` says how many were recorded. Latency is per call; req/s is the recorded
 * calls over the wall time from the first to the last (less the time spent in `afterCall`). `call(n)` gets a running number, to rotate sample values.
 * `afterCall`, when given, runs after each recorded call outside its timing (with one client: a reading taken between
 * two calls, such as the server's CPU time).
 */
export async function closedLoop(
  call: (n: number) => Promise<unknown>,
  opts: { clients: number; perClient: number; warmup: number; budgetMs: number; afterCall?: () => Promise<void> },
): Promise<LoadFigures> {
  let n = 0;
  const callers = (body: () => Promise<void>) => Promise.all(Array.from({ length: opts.clients }, body));
  await callers(async () => {
    for (let i = 0; i < opts.warmup; i++) await call(n++);
  });
  const samples: number[] = [];
  let paused = 0;
  const start = performance.now();
  await callers(async () => {
    for (let i = 0; i < opts.perClient && (i === 0 || performance.now() - start < opts.budgetMs); i++) {
      const t = performance.now();
      await call(n++);
      samples.push(performance.now() - t);
      if (opts.afterCall) {
        const p = performance.now();
        await opts.afterCall();
        paused += performance.now() - p;
      }
    }
  });
  const wallS = (performance.now() - start - paused) / 1000;
  return { p50_ms: percentile(samples, 50), p99_ms: percentile(samples, 99), req_s: Math.round((samples.length / wallS) * 10) / 10, requests: samples.length };
}
