import { rm } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { closedLoop, type LoadFigures } from './closed-loop.ts';
import { openRawDuck, pageCases, samePage, startHoldingsServer, UNFILTERED_PAGE, worstCaseMinValue } from './holdings-pages.ts';
import { cachedLake, dataDirOver } from './lake-cache.ts';
import { type BenchResult, percentile, ratio } from './support.ts';

/**
 * Flatness of the 13F read path (issue #20: "at the 50M-line scale … the worst case within 2× of a selective page and
 * flat from 5M to 50M"): the same pages — `?cusip=` known and unknown, the first page with no filter,
 * `?cusip=&min_value=` (the worst case: a minimum that lets ≈ 3 lines of a CUSIP through each quarter, so the page reads
 * all 8 quarters), `?manager=` — on
 * lakes of each size in BENCH_FLAT_ROWS (default 5M and 50M lines, from the bench lake cache: lake-cache.ts), through
 * the API (the real server in its own process, its CPU per call its own; METERING=off, with one metered row per size)
 * and as plain DuckDB SQL on the same files, one client at a time. Then, per page and reader, the p50 at the
 * largest size over the p50 at the smallest, and per size the worst case's p50 over `?cusip=`'s. Each size's lake is
 * read warm (a first call of each page before the timed ones); sizes are measured one after the other in one run.
 */
const SIZES = (process.env.BENCH_FLAT_ROWS ?? '5000000,50000000').split(',').map(Number);
/** Calls per page and reader, cut short after BENCH_FLAT_BUDGET_S seconds (default 10) on a loaded machine. */
const CALLS = { clients: 1, perClient: 60, warmup: 3, budgetMs: Number(process.env.BENCH_FLAT_BUDGET_S ?? 10) * 1000 };

/**
 * The closed loop's figures plus CPU per call, warm-up included: `cpuMs` reads the CPU time of the process that does the
 * work (the API server's own process; this process for raw DuckDB, whose threads run in it). Unlike latency it hardly
 * moves with the shared machine's load, so its ratios between sizes hold where the p50's swing between runs.
 * `cpu_ms` is the mean; `cpu_p50_ms` / `cpu_p99_ms` come from a reading between each two calls (one client), so each
 * sample is one call plus one reading — for the server, an IPC message, whose own CPU `readingCpuMs` gives.
 */
async function measured(call: (n: number) => Promise<unknown>, cpuMs: () => Promise<number>): Promise<Measured> {
  const before = await cpuMs();
  const perCall: number[] = [];
  let last: number | null = null;
  const afterCall = async () => {
    const now = await cpuMs();
    if (last !== null) perCall.push(now - last);
    last = now;
  };
  const f = await closedLoop(call, { ...CALLS, afterCall });
  const used = (await cpuMs()) - before;
  const round = (ms: number) => Math.round(ms * 100) / 100;
  return {
    ...f,
    cpu_ms: round(used / (f.requests + CALLS.warmup)),
    cpu_p50_ms: round(percentile(perCall, 50)),
    cpu_p99_ms: round(percentile(perCall, 99)),
  };
}
/** The CPU one reading of `cpuMs` costs the process it reads (the median over 50 back-to-back readings). */
async function readingCpuMs(cpuMs: () => Promise<number>): Promise<number> {
  const deltas: number[] = [];
  let last = await cpuMs();
  for (let i = 0; i < 50; i++) {
    const now = await cpuMs();
    deltas.push(now - last);
    last = now;
  }
  return Math.round(percentile(deltas, 50) * 1000) / 1000;
}
const ownCpuMs = async () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

const progress = (step: string) => process.stderr.write(`  flatness: ${step}\n`);
type Measured = LoadFigures & { cpu_ms: number; cpu_p50_ms: number; cpu_p99_ms: number };
/** p50 and CPU-per-call ratios of two cells, per reader. */
const ratios = (a: Record<string, Measured>, b: Record<string, Measured>) => ({
  API_p50: ratio(a.API.p50_ms, b.API.p50_ms),
  API_cpu: ratio(a.API.cpu_ms, b.API.cpu_ms),
  API_cpu_p50: ratio(a.API.cpu_p50_ms, b.API.cpu_p50_ms),
  DuckDB_p50: ratio(a.DuckDB.p50_ms, b.DuckDB.p50_ms),
  DuckDB_cpu: ratio(a.DuckDB.cpu_ms, b.DuckDB.cpu_ms),
});
const lines = (n: number) => `${n / 1e6}M`;

export default async function flatnessBench(): Promise<BenchResult[]> {
  const out: BenchResult[] = [];
  // cells[size][page][reader]
  const cells = new Map<number, Map<string, Record<string, Measured>>>();
  for (const size of SIZES) {
    const lake = await cachedLake(size, progress);
    const dataDir = await dataDirOver(lake.lakeDir, 'bench-flat-data-');
    // The page's own cost: the meter's debit is a state-store transaction per request at one client (grouped under
    // concurrency: BENCH=request-overhead), measured once per size on a second, metered server started after this
    // one is closed (two servers holding their preloaded copies at once would crowd the machine's memory).
    const api = await startHoldingsServer(dataDir, join(dataDir, 'server.log'), { METERING: 'off' });
    const meteredDir = await dataDirOver(lake.lakeDir, 'bench-flat-metered-');
    let metered: Awaited<ReturnType<typeof startHoldingsServer>> | null = null;
    const duck = await openRawDuck(lake.lakeDir);
    const bySize = new Map<string, Record<string, Measured>>();
    cells.set(size, bySize);
    try {
      out.push({
        name: `flatness: ${lines(size)}-line lake`,
        figures: {
          generated_s: lake.generatedS ?? 'cached',
          lake_mb: Math.round(lake.bytes / 1e6),
          worst_min_value: worstCaseMinValue(size),
          server_cpu_reading_ms: await readingCpuMs(api.cpuMs),
        },
      });
      const load = Math.round(loadavg()[0] * 10) / 10;
      const pages = [...pageCases(lake.cusips, lake.managers, size), UNFILTERED_PAGE];
      for (const page of pages) {
        samePage(page.label, { API: await api.get(page.api(1)), DuckDB: await duck.query(page, 1) });
        const figures = {
          API: await measured((n) => api.get(page.api(n)), api.cpuMs),
          DuckDB: await measured((n) => duck.query(page, n), ownCpuMs),
        };
        bySize.set(page.label, figures);
        for (const [reader, f] of Object.entries(figures)) out.push({ name: `flatness: ${lines(size)} ${page.label} — ${reader}`, figures: { ...f } });
        progress(`${lines(size)} ${page.label} measured`);
      }
      await api.close();
      const selectivePage = pages.find((p) => p.label === '?cusip=');
      if (selectivePage) {
        const m = (metered = await startHoldingsServer(meteredDir, join(meteredDir, 'server.log')));
        const f = await measured((n) => m.get(selectivePage.api(n)), m.cpuMs);
        out.push({ name: `flatness: ${lines(size)} ?cusip= — API, metered`, figures: { ...f } });
      }
      const worst = bySize.get('?cusip=&min_value=');
      const selective = bySize.get('?cusip=');
      if (worst && selective) {
        out.push({
          name: `flatness: ${lines(size)} worst case ÷ ?cusip=`,
          figures: { ...ratios(worst, selective), load_avg: load },
        });
      }
    } finally {
      await api.close();
      await metered?.close();
      await duck.close();
      await rm(dataDir, { recursive: true, force: true });
      await rm(meteredDir, { recursive: true, force: true });
      await lake.release();
    }
  }
  const small = Math.min(...SIZES);
  const large = Math.max(...SIZES);
  if (small !== large) {
    for (const [label, big] of cells.get(large) ?? []) {
      const base = cells.get(small)?.get(label);
      if (!base) continue;
      out.push({
        name: `flatness: ${label} ${lines(large)} ÷ ${lines(small)}`,
        figures: ratios(big, base),
      });
    }
  }
  return out;
}
