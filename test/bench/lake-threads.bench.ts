import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { closedLoop, type LoadFigures } from './closed-loop.ts';
import { pageCases, startHoldingsServer } from './holdings-pages.ts';
import { cachedLake, dataDirOver } from './lake-cache.ts';
import { type BenchResult, ratio } from './support.ts';

/**
 * `LAKE_THREADS` under concurrency (docs/read-path.md, "Threads"): the real server in its own process (METERING=off),
 * 16 keep-alive clients in a closed loop on the selective pages and the worst case of the holdings bench, once per
 * setting in BENCH_THREADS (default `2,1,1,2`: each setting first once, so neither always gets the warmer machine).
 * Each setting is the other's baseline in the same run. Figures: req/s, p50/p99 and the server's CPU per request;
 * the run ends with each page's median req/s and CPU per request of every setting over the first one's. A setting
 * ending in `m` (`1m`) runs that many threads with metering on (a `pro` key's debits on the embedded state store), so
 * `BENCH_THREADS=1,1m,1m,1` prints the metered pages beside the unmetered ones.
 * BENCH_THREADS_ROWS: lake size (default 50M lines, from the bench lake cache).
 */
const LINES = Number(process.env.BENCH_THREADS_ROWS ?? 50_000_000);
const SETTINGS = (process.env.BENCH_THREADS ?? '2,1,1,2').split(',');
const LOOP = { clients: 16, perClient: 25, warmup: 2, budgetMs: 8_000 };
const PAGES = new Set(['?cusip=', '?manager=<CIK>', '?cusip=&min_value=']);

type Cell = LoadFigures & { cpu_ms: number };
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return (s[Math.floor((s.length - 1) / 2)] + s[Math.ceil((s.length - 1) / 2)]) / 2;
};
/** A setting's name in the output: `LAKE_THREADS=1`, or `LAKE_THREADS=1 metered` for `1m`. */
const label = (setting: string) => `LAKE_THREADS=${setting.replace(/m$/, '')}${setting.endsWith('m') ? ' metered' : ''}`;
const progress = (step: string) => process.stderr.write(`  lake-threads: ${step}\n`);

export default async function lakeThreadsBench(): Promise<BenchResult[]> {
  const out: BenchResult[] = [];
  const lake = await cachedLake(LINES, progress);
  const pages = pageCases(lake.cusips, lake.managers, LINES).filter((p) => PAGES.has(p.label));
  // cells[threads][page] = one cell per time the setting ran
  const cells = new Map<string, Map<string, Cell[]>>();
  try {
    for (const threads of SETTINGS) {
      const dataDir = await dataDirOver(lake.lakeDir, 'bench-threads-');
      const settings = { LAKE_THREADS: threads.replace(/m$/, ''), METERING: threads.endsWith('m') ? 'on' : 'off' };
      const server = await startHoldingsServer(dataDir, join(dataDir, 'server.log'), settings, { clients: LOOP.clients });
      try {
        for (const page of pages) {
          const before = await server.cpuMs();
          const f = await closedLoop((n) => server.get(page.api(n)), LOOP);
          const used = (await server.cpuMs()) - before;
          const cell = { ...f, cpu_ms: Math.round((used / (f.requests + LOOP.clients * LOOP.warmup)) * 100) / 100 };
          const byPage = cells.get(threads) ?? new Map<string, Cell[]>();
          cells.set(threads, byPage);
          byPage.set(page.label, [...(byPage.get(page.label) ?? []), cell]);
          out.push({ name: `lake-threads: ${label(threads)} ${page.label}, ${LOOP.clients} clients`, figures: { ...cell } });
          progress(`${label(threads)} ${page.label} measured`);
        }
      } finally {
        await server.close();
        await rm(dataDir, { recursive: true, force: true });
      }
    }
  } finally {
    await lake.release();
  }
  const base = SETTINGS[0];
  for (const threads of new Set(SETTINGS)) {
    if (threads === base) continue;
    for (const page of pages) {
      const a = cells.get(threads)?.get(page.label) ?? [];
      const b = cells.get(base)?.get(page.label) ?? [];
      if (!a.length || !b.length) continue;
      out.push({
        name: `lake-threads: ${page.label} ${label(threads)} ÷ ${label(base)} (medians)`,
        figures: {
          req_s: ratio(median(a.map((c) => c.req_s)), median(b.map((c) => c.req_s))),
          cpu_per_request: ratio(median(a.map((c) => c.cpu_ms)), median(b.map((c) => c.cpu_ms))),
          p99: ratio(median(a.map((c) => c.p99_ms)), median(b.map((c) => c.p99_ms))),
        },
      });
    }
  }
  return out;
}
