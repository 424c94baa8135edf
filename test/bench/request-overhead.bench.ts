import { writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { openDuck } from '../../ingest/lake/duck.ts';
import { tableFiles } from '../../ingest/lake/layout.ts';
import { SUMMARY_FILE, writePartitionSummary } from '../../ingest/lake/summary.ts';
import { holdings13f } from '../../schemas/tables/13f.ts';
import { generateLake } from './13f-funds.bench.ts';
import { closedLoop } from './closed-loop.ts';
import { httpGet, keepAliveAgent, type ServerChild, startServerChild } from './server-child.ts';
import type { BenchResult } from './support.ts';

/**
 * What a request costs besides its page query (issue #20: ≥ 150 req/s at 16 clients, p99 ≤ 250 ms, for selective
 * `/v1/holdings?cusip=` pages on 2 cores). The real server runs in its own process (test/bench/request-overhead-child.ts:
 * address gate, Express, a `pro` key, metering on the DuckDB state store, info logging) over a BENCH_OVERHEAD_LINES-line
 * 13F lake with its key summaries; 16 keep-alive clients (BENCH_OVERHEAD_CLIENTS) in this process drive it in a closed loop on
 *  (a) an unknown CUSIP's page (answered from the summaries, no engine query: the per-request overhead alone),
 *  (b) `/v1/account` (authenticated, free: no debit, one state-store read),
 *  (c) a known CUSIP's page (the engine's query on top),
 *  (d) page (a) on a second server with METERING=off (no debit: the difference to (a) is what the meter costs),
 * beside the baseline of the same run: a bare `http.createServer` in its own process answering page (a)'s JSON body.
 * Per row: req/s, p50/p99 and the server process's CPU per request (user + system, from its own process.cpuUsage).
 */
const LINES = Number(process.env.BENCH_OVERHEAD_LINES ?? 200_000);
// BENCH_OVERHEAD_CLIENTS=1: one client, where no two debits ever share a transaction (the group commit's worst case).
const CLIENTS = Number(process.env.BENCH_OVERHEAD_CLIENTS ?? 16);
const PER_CLIENT = Number(process.env.BENCH_OVERHEAD_CALLS ?? 150);
const BUDGET_MS = Number(process.env.BENCH_OVERHEAD_BUDGET_S ?? 15) * 1000;

/** 16 clients in a closed loop on `path(n)`; the server's CPU per recorded request beside req/s and latency. */
async function load(server: ServerChild, path: (n: number) => string): Promise<Record<string, number>> {
  const agent = keepAliveAgent(CLIENTS);
  try {
    const call = async (n: number) => {
      const r = await httpGet(agent, server.port, path(n), server.key);
      if (r.status !== 200) throw new Error(`${path(n)}: ${r.status} ${r.body.slice(0, 300)}`);
    };
    // Warm: every socket open, the statement cache and the key caches filled.
    await closedLoop(call, { clients: CLIENTS, perClient: 0, warmup: 10, budgetMs: BUDGET_MS });
    const cpu0 = await server.cpuMs();
    const r = await closedLoop(call, { clients: CLIENTS, perClient: PER_CLIENT, warmup: 0, budgetMs: BUDGET_MS });
    // The IPC question itself costs the server well under a millisecond, once per row.
    const cpu = (await server.cpuMs()) - cpu0;
    return { req_s: r.req_s, p50_ms: r.p50_ms, p99_ms: r.p99_ms, server_cpu_ms_per_req: Math.round((cpu / r.requests) * 1000) / 1000, requests: r.requests };
  } finally {
    agent.destroy();
  }
}

export default async function requestOverheadBench(): Promise<BenchResult[]> {
  const root = await mkdtemp(join(tmpdir(), 'bench-overhead-'));
  const logFile = join(root, 'server.log');
  const servers: ServerChild[] = [];
  try {
    const lakeDir = join(root, 'data', 'lake');
    const { cusips } = await generateLake(lakeDir, LINES);
    // The summaries an ingest writes beside each quarter file (the generator writes the data files only).
    const { instance, conn } = await openDuck(':memory:', { threads: '2' });
    for (const f of tableFiles(lakeDir, holdings13f.name)) await writePartitionSummary(conn, holdings13f, f, join(dirname(f), SUMMARY_FILE));
    conn.closeSync();
    instance.closeSync();
    process.stderr.write(`  request-overhead: ${LINES.toLocaleString('en-US')}-line lake written\n`);

    const api = await startServerChild('api', { DATA_DIR: join(root, 'data') }, logFile);
    servers.push(api);
    const unknown = (n: number) => `/v1/holdings?cusip=Z${String(n % 1000).padStart(8, '0')}`;
    const known = (n: number) => `/v1/holdings?cusip=${cusips[n % cusips.length]}`;
    const sample = await httpGet(new Agent(), api.port, unknown(0), api.key);
    const bodyFile = join(root, 'bare-body.json');
    writeFileSync(bodyFile, sample.body);
    const bare = await startServerChild('bare', { BENCH_BARE_BODY: bodyFile }, logFile);
    servers.push(bare);
    // Its own state store (one process per DuckDB file), the same lake.
    await mkdir(join(root, 'data-unmetered'));
    await symlink(lakeDir, join(root, 'data-unmetered', 'lake'));
    const unmetered = await startServerChild('api', { DATA_DIR: join(root, 'data-unmetered'), BENCH_SERVER_ENV: JSON.stringify({ METERING: 'off' }) }, logFile);
    servers.push(unmetered);

    const lines = `${LINES.toLocaleString('en-US')} lines`;
    const out: BenchResult[] = [];
    // BENCH_OVERHEAD_ROWS picks the API rows (default a,b,c,d); the baselines always run.
    const rows = new Set((process.env.BENCH_OVERHEAD_ROWS ?? 'a,b,c,d').split(','));
    const row = async (name: string, server: ServerChild, path: (n: number) => string) => {
      if (server !== bare && !rows.has(name[1])) return;
      const figures = await load(server, path);
      process.stderr.write(`  request-overhead: ${name}: ${figures.req_s} req/s\n`);
      out.push({ name: `request-overhead: ${name}, ${CLIENTS} clients`, figures });
    };
    await row(`baseline: bare http.createServer, page (a)'s body (${sample.body.length} B)`, bare, () => '/');
    await row(`(a) /v1/holdings?cusip=<unknown> (${lines})`, api, unknown);
    await row('(b) /v1/account (free, no debit)', api, () => '/v1/account');
    await row(`(d) page (a) with METERING=off (no debit)`, unmetered, unknown);
    await row(`(c) /v1/holdings?cusip=<known> (${lines})`, api, known);
    await row('baseline again (bare), after the API rows', bare, () => '/');
    return out;
  } finally {
    for (const s of servers) await s.stop().catch(() => {});
    await rm(root, { recursive: true, force: true });
  }
}
