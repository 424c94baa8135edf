import { createServer } from 'node:http';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { openDuck, queryRows, sqlString } from '../../ingest/lake/duck.ts';
import { loadSettings } from '../../schemas/settings.ts';
import routes13f from '../../api/13f/routes.ts';
import { createApp } from '../../api/core/app.ts';
import { createKey } from '../../api/core/keys.ts';
import { closeServices, createServices } from '../../api/core/services.ts';
import { httpGet, keepAliveAgent, startServerChild } from './server-child.ts';

/**
 * The `/v1/holdings` pages the peer and flatness benches time, each as the API serves it and as plain SQL (`$n`
 * placeholders: DuckDB and Postgres share the syntax), and the two lake readers: the API over HTTP and plain DuckDB
 * SQL on the same Parquet files.
 */
const PAGE = 25;
const BY_CUSIP = 'period DESC, cusip, manager_cik, accession_number, line_no';
const BY_MANAGER = 'period DESC, manager_cik, cusip, accession_number, line_no';
const UNKNOWN_CUSIP = 'ZZZZZZZZ9';
/** generateLake's shape: 8 quarters, 20k CUSIPs, value_usd uniform over 1,000 + [0, 1e8). */
const QUARTERS = 8;
const CUSIPS = 20_000;

export interface PageCase {
  label: string;
  api: (n: number) => string;
  where: string;
  params: (n: number) => unknown[];
  order: string;
}

/**
 * The `min_value` that lets ≈ 3 lines of a CUSIP through each quarter: a 25-line page then needs all 8 quarters and
 * every quarter's whole CUSIP block is read, at every lake size (the issue's worst case, the same shape at 5M and 50M).
 */
export function worstCaseMinValue(lines: number): number {
  const perQuarter = lines / QUARTERS / CUSIPS;
  return Math.round(1000 + 1e8 * Math.max(0, 1 - 3 / perQuarter));
}

export function pageCases(cusips: string[], managers: string[], lines: number): PageCase[] {
  const cusip = (n: number) => cusips[n % cusips.length];
  const cik = (n: number) => managers[n % managers.length].padStart(10, '0');
  const minValue = worstCaseMinValue(lines);
  return [
    { label: '?cusip=', api: (n) => `/v1/holdings?cusip=${cusip(n)}`, where: 'cusip = $1', params: (n) => [cusip(n)], order: BY_CUSIP },
    { label: '?manager=<CIK>', api: (n) => `/v1/holdings?manager=${cik(n)}`, where: 'manager_cik = $1', params: (n) => [cik(n)], order: BY_MANAGER },
    {
      label: '?cusip=&min_value=',
      api: (n) => `/v1/holdings?cusip=${cusip(n)}&min_value=${minValue}`,
      where: 'cusip = $1 AND value_usd >= $2',
      params: (n) => [cusip(n), minValue],
      order: BY_CUSIP,
    },
    { label: '?cusip=<unknown>', api: () => `/v1/holdings?cusip=${UNKNOWN_CUSIP}`, where: 'cusip = $1', params: () => [UNKNOWN_CUSIP], order: BY_CUSIP },
  ];
}

/**
 * The first page with no filter (the newest quarter in CUSIP order): a read no key prunes, which the flatness bench adds
 * to the selective ones (the peer's Postgres would sort every line for it).
 */
export const UNFILTERED_PAGE: PageCase = { label: 'no filter', api: () => '/v1/holdings', where: 'true', params: () => [], order: BY_CUSIP };

/** The page's plain SQL over `from` (a table or a read_parquet call), one row past the page as the API reads it. */
export function pageSql(page: PageCase, from: string): string {
  return `SELECT * FROM ${from} WHERE ${page.where} AND is_current = true ORDER BY ${page.order} LIMIT ${PAGE + 1}`;
}

type Row = Record<string, unknown>;

/** Checks that the readers return the same first page; a reader that did less work would flatter itself. */
export function samePage(label: string, pages: Record<string, Row[]>): void {
  const key = (r: Row) => `${r.accession_number}|${r.cusip}|${r.manager_cik}|${r.value_usd}`;
  const keyed = Object.entries(pages).map(([name, rows]) => [name, rows.slice(0, PAGE).map(key).join(',')] as const);
  if (keyed.some(([, k]) => k !== keyed[0][1])) {
    throw new Error(`${label}: first pages differ (${Object.entries(pages).map(([n, r]) => `${n} ${r.length} rows`)})`);
  }
}

/** Runs each query on an idle connection, waiting for one when all are busy (a DuckDB connection runs one query at a time). */
function connectionPool<C>(conns: C[]): <T>(run: (c: C) => Promise<T>) => Promise<T> {
  const idle = [...conns];
  const waiters: ((c: C) => void)[] = [];
  return async (run) => {
    const c = idle.pop() ?? (await new Promise<C>((r) => waiters.push(r)));
    try {
      return await run(c);
    } finally {
      const w = waiters.shift();
      if (w) w(c);
      else idle.push(c);
    }
  };
}

export interface LakeReaderUnderTest {
  query(page: PageCase, n: number): Promise<Row[]>;
  close(): Promise<void>;
}

/** Plain DuckDB SQL on the lake's files with the API reader's settings and pool size (2 threads, footer cache, 4 connections), no views. */
export async function openRawDuck(lakeDir: string): Promise<LakeReaderUnderTest> {
  const duck = await openDuck(':memory:', { threads: '2' });
  await duck.conn.run('SET GLOBAL parquet_metadata_cache = true');
  await duck.conn.run('SET GLOBAL late_materialization_max_rows = 0');
  const conns: DuckDBConnection[] = await Promise.all(Array.from({ length: 4 }, () => duck.instance.connect()));
  const pool = connectionPool(conns);
  const files = (copy: string) => `read_parquet(${sqlString(join(lakeDir, copy, '*', '*.parquet'))}, hive_partitioning = true)`;
  return {
    query: (page, n) => pool((c) => queryRows(c, pageSql(page, files(page.order === BY_MANAGER ? 'holdings_13f_by_manager' : 'holdings_13f')), page.params(n))),
    async close() {
      for (const c of conns) c.closeSync();
      duck.conn.closeSync();
      duck.instance.closeSync();
    },
  };
}

export interface ApiUnderTest {
  get(path: string): Promise<Row[]>;
  close(): Promise<void>;
}

/**
 * The real server (request-overhead-child.ts: address gate, Express, a `pro` key, metering on the DuckDB state store,
 * info logging into `logFile`; `settings` override the environment, e.g. METERING) over the lake in `dataDir/lake`, in
 * its own process: `cpuMs` is the server's CPU alone, without the client's. `clients`: keep-alive sockets for that
 * many concurrent callers (default 1).
 */
export async function startHoldingsServer(
  dataDir: string,
  logFile: string,
  settings: Record<string, string> = {},
  opts: { clients?: number } = {},
): Promise<ApiUnderTest & { cpuMs(): Promise<number> }> {
  // LAKE_THREADS from the bench's environment reaches the server (make bench BENCH=flatness LAKE_THREADS=1).
  const threads = process.env.LAKE_THREADS ? { LAKE_THREADS: process.env.LAKE_THREADS } : {};
  const server = await startServerChild('api', { DATA_DIR: dataDir, BENCH_SERVER_ENV: JSON.stringify({ ...threads, ...settings }) }, logFile);
  const agent = keepAliveAgent(opts.clients ?? 1);
  let stopped: Promise<void> | null = null;
  return {
    async get(path) {
      const r = await httpGet(agent, server.port, path, server.key).catch((err: Error) => {
        throw new Error(`${path}: ${err.message}; ${server.diagnosis()}`);
      });
      if (r.status !== 200) throw new Error(`${path}: ${r.status} ${r.body.slice(0, 300)}`);
      return (JSON.parse(r.body) as { data: Row[] }).data;
    },
    cpuMs: () => server.cpuMs(),
    /** Stops the server once; later calls wait for that stop. */
    close() {
      agent.destroy();
      stopped ??= server.stop();
      return stopped;
    },
  };
}

/** The HTTP app with the 13F routes over `dataDir` (its lake at `dataDir/lake`), on a loopback port, one `pro` key. */
export async function startHoldingsApi(dataDir: string): Promise<ApiUnderTest> {
  const settings = loadSettings({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', METERING: 'off', RATE_LIMIT_RPS: '100000' });
  const services = await createServices(settings, { cursorSecret: 'bench-cursor-secret-0123456789' });
  // Measure the steady state: the serving copies' background preload done (LAKE_SERVING_PRELOAD_MB).
  await services.lake.preloaded();
  const server = createServer(createApp(services, { routes: routes13f }).app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const key = (await createKey(services.state, { plan: 'pro' })).key;
  return {
    async get(path) {
      const r = await fetch(`${base}${path}`, { headers: { Authorization: `Bearer ${key}` } });
      const body = (await r.json()) as { data: Row[] };
      if (r.status !== 200) throw new Error(`${path}: ${r.status} ${JSON.stringify(body).slice(0, 300)}`);
      return body.data;
    },
    async close() {
      server.closeAllConnections?.();
      await new Promise<void>((r) => server.close(() => r()));
      await closeServices(services);
    },
  };
}
