import { rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { openDuck, queryRows, sqlString } from '../../ingest/lake/duck.ts';
import { loadSettings } from '../../schemas/settings.ts';
import { allColumns } from '../../schemas/table.ts';
import { holdings13f } from '../../schemas/tables/13f.ts';
import routes13f from '../../api/13f/routes.ts';
import { createApp } from '../../api/core/app.ts';
import { createKey } from '../../api/core/keys.ts';
import { closeServices, createServices } from '../../api/core/services.ts';
import { generateLake } from './13f-funds.bench.ts';
import { closedLoop, type LoadFigures } from './closed-loop.ts';
import { startThrowawayCluster, type PgCluster } from './postgres-cluster.ts';
import type { BenchResult } from './support.ts';

/**
 * The Postgres peer (issue #20): the same 13F holdings lines served three ways, same pages, same machine, same run.
 *   - API: `/v1/holdings` through the HTTP app (partition-first reads of the CUSIP- and manager-sorted Parquet copies);
 *   - DuckDB: one plain SQL query per page on the same Parquet files (the API's reader settings, no HTTP, no JSON);
 *   - Postgres: one table loaded from the same lines (in the lake's CUSIP order), a B-tree on cusip and one on
 *     manager_cik, queried through `pg` over loopback TCP.
 * Each page at 1 and at 16 concurrent clients: p50/p99 latency and req/s; then the storage of each. BENCH_PEER_LINES
 * sets the lines: default 2M, as on this shared 2-core machine generating the lake alone took 4.5 min for 2M lines
 * (10M would not fit the run's ~10 minutes). The cluster is throw-away: initdb in a temp folder, removed at the end or on failure.
 */
const LINES = Number(process.env.BENCH_PEER_LINES ?? 2_000_000);
const PAGE = 25;
const QUARTERS = 8;
const CLIENTS = [1, 16];
/**
 * Recorded calls per client at each concurrency (16 × 25 = 400 calls at 16 clients), cut short after
 * BENCH_PEER_BUDGET_S seconds per system and page (default 6): 24 cells keep the run within minutes. Warm-up calls
 * only before the 1-client cell; the 16-client cell that follows reads the same page from warm caches.
 */
const BUDGET_MS = Number(process.env.BENCH_PEER_BUDGET_S ?? 6) * 1000;
const CALLS: Record<number, { perClient: number; warmup: number }> = { 1: { perClient: 100, warmup: 3 }, 16: { perClient: 25, warmup: 0 } };

/**
 * Cluster settings. The load-only ones (fsync off, no WAL beyond crash recovery) change how fast COPY writes, not a
 * read; shared_buffers 1 GB keeps the hot index and heap pages in Postgres's own cache (the machine has 24 GB, the
 * OS caches the rest, as it caches the Parquet files for DuckDB).
 */
const PG_SETTINGS = {
  shared_buffers: "'1GB'",
  maintenance_work_mem: "'512MB'",
  max_connections: '40',
  wal_level: 'minimal',
  max_wal_senders: '0',
  max_wal_size: "'8GB'",
  fsync: 'off',
  synchronous_commit: 'off',
  full_page_writes: 'off',
};

const PG_TYPE: Record<string, string> = {
  VARCHAR: 'text',
  INTEGER: 'integer',
  BIGINT: 'bigint',
  DOUBLE: 'double precision',
  BOOLEAN: 'boolean',
  DATE: 'date',
};

/** A page as the API serves it and as plain SQL (`$n` placeholders: DuckDB and Postgres share the syntax). */
interface PageCase {
  label: string;
  api: (n: number) => string;
  where: string;
  params: (n: number) => unknown[];
  order: string;
}

const BY_CUSIP = 'period DESC, cusip, manager_cik, accession_number, line_no';
const BY_MANAGER = 'period DESC, manager_cik, cusip, accession_number, line_no';
const UNKNOWN_CUSIP = 'ZZZZZZZZ9';
// ≈ 1% of the lines pass: a few lines of a CUSIP per quarter, so a page needs every quarter.
const MIN_VALUE = 99_000_000;

function pageCases(cusips: string[], managers: string[]): PageCase[] {
  const cusip = (n: number) => cusips[n % cusips.length];
  const cik = (n: number) => managers[n % managers.length].padStart(10, '0');
  return [
    { label: '?cusip=', api: (n) => `/v1/holdings?cusip=${cusip(n)}`, where: 'cusip = $1', params: (n) => [cusip(n)], order: BY_CUSIP },
    { label: '?manager=<CIK>', api: (n) => `/v1/holdings?manager=${cik(n)}`, where: 'manager_cik = $1', params: (n) => [cik(n)], order: BY_MANAGER },
    {
      label: '?cusip=&min_value=',
      api: (n) => `/v1/holdings?cusip=${cusip(n)}&min_value=${MIN_VALUE}`,
      where: 'cusip = $1 AND value_usd >= $2',
      params: (n) => [cusip(n), MIN_VALUE],
      order: BY_CUSIP,
    },
    { label: '?cusip=<unknown>', api: () => `/v1/holdings?cusip=${UNKNOWN_CUSIP}`, where: 'cusip = $1', params: () => [UNKNOWN_CUSIP], order: BY_CUSIP },
  ];
}

/** The columns of the lake's rows, `period` (the partition folder) included, in one order for DDL, CSV and COPY. */
const COLUMNS = Object.entries(allColumns(holdings13f)).map(([name, c]) => ({ name, type: (c as { type: string }).type }));

async function dirBytes(dir: string): Promise<number> {
  let total = 0;
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    total += e.isDirectory() ? await dirBytes(p) : (await stat(p)).size;
  }
  return total;
}

/** Progress on stderr (the figures go to stdout): the run takes minutes. */
const progress = (step: string) => process.stderr.write(`  peer: ${step}\n`);

const mb = (bytes: number) => Math.round(bytes / 1e5) / 10;
const seconds = (ms: number) => Math.round(ms / 100) / 10;

/**
 * Loads the lake's holdings into Postgres: each quarter file → CSV by DuckDB → server-side `COPY … FREEZE` into a
 * table created in the same transaction (with wal_level=minimal that skips the WAL), then the two B-trees and
 * VACUUM ANALYZE. DuckDB writes the next quarter's CSV while Postgres copies the previous one.
 */
async function loadPostgres(client: pg.Client, lakeDir: string, csvDir: string, quarters: string[]): Promise<BenchResult> {
  const { conn, instance } = await openDuck(':memory:', { threads: '1', memory_limit: '2GB' });
  const csvOf = async (q: string) => {
    const file = join(csvDir, `${q}.csv`);
    const select = COLUMNS.map((c) => (c.name === 'period' ? `${sqlString(q)} AS period` : `"${c.name}"`)).join(', ');
    await conn.run(`COPY (SELECT ${select} FROM read_parquet(${sqlString(join(lakeDir, 'holdings_13f', `period=${q}`, '*.parquet'))}))
      TO ${sqlString(file)} (FORMAT csv, HEADER false)`);
    return file;
  };
  const t0 = performance.now();
  try {
    await client.query('BEGIN');
    await client.query(`CREATE TABLE holdings_13f (${COLUMNS.map((c) => `"${c.name}" ${PG_TYPE[c.type]}`).join(', ')})`);
    let next = csvOf(quarters[0]);
    for (let k = 0; k < quarters.length; k++) {
      const file = await next;
      if (k + 1 < quarters.length) next = csvOf(quarters[k + 1]);
      await client.query(`COPY holdings_13f (${COLUMNS.map((c) => `"${c.name}"`).join(', ')}) FROM ${sqlString(file)} WITH (FORMAT csv, FREEZE true)`);
      await rm(file);
    }
    await client.query('COMMIT');
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
  const t1 = performance.now();
  await client.query('CREATE INDEX holdings_13f_cusip ON holdings_13f (cusip)');
  await client.query('CREATE INDEX holdings_13f_manager_cik ON holdings_13f (manager_cik)');
  const t2 = performance.now();
  await client.query('VACUUM ANALYZE holdings_13f');
  const t3 = performance.now();
  return {
    name: `peer: Postgres load (${LINES.toLocaleString('en-US')} lines)`,
    figures: { copy_s: seconds(t1 - t0), btrees_s: seconds(t2 - t1), vacuum_analyze_s: seconds(t3 - t2), rows_per_s: Math.round(LINES / ((t1 - t0) / 1000)) },
  };
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

/** Checks that the three systems return the same first page; a peer that did less work would flatter itself. */
function samePage(label: string, api: Record<string, unknown>[], duck: Record<string, unknown>[], pgRows: Record<string, unknown>[]): void {
  const key = (r: Record<string, unknown>) => `${r.accession_number}|${r.cusip}|${r.manager_cik}|${r.value_usd}`;
  const a = api.map(key).join(',');
  const d = duck.slice(0, PAGE).map(key).join(',');
  const p = pgRows.slice(0, PAGE).map(key).join(',');
  if (a !== d || a !== p) throw new Error(`${label}: the API, DuckDB and Postgres first pages differ (${api.length}/${duck.length}/${pgRows.length} rows)`);
}

export default async function peerBench(): Promise<BenchResult[]> {
  const root = await mkdtemp(join(tmpdir(), 'bench-peer-'));
  const out: BenchResult[] = [];
  const closers: (() => Promise<void> | void)[] = [];
  let cluster: PgCluster | undefined;
  // Ctrl-C or a kill mid-run: `finally` would not run, so the server and the temp folder go here.
  const onSignal = (sig: NodeJS.Signals): void => {
    cluster?.killNow();
    rmSync(root, { recursive: true, force: true });
    process.exit(sig === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const dataDir = join(root, 'data');
    const lakeDir = join(dataDir, 'lake');
    const tGen = performance.now();
    const { cusips, managers } = await generateLake(lakeDir, LINES);
    const genMs = performance.now() - tGen;
    const quarters = (await readdir(join(lakeDir, 'holdings_13f'))).map((d) => d.replace('period=', '')).sort();
    if (quarters.length !== QUARTERS) throw new Error(`expected ${QUARTERS} quarter folders, found ${quarters.length}`);

    progress(`lake of ${LINES.toLocaleString('en-US')} lines written; starting Postgres`);
    cluster = await startThrowawayCluster(root, PG_SETTINGS);
    const connection = { host: cluster.host, port: cluster.port, user: cluster.user, database: 'postgres' };
    const loader = new pg.Client(connection);
    await loader.connect();
    closers.push(() => loader.end());
    out.push({ name: 'peer: lake generation (Parquet, both sort orders)', figures: { lines: LINES, seconds: seconds(genMs), postgres: cluster.version } });
    // The machine is shared: the load average beside the figures says how much of its 2 cores the run had.
    const load = () => Math.round(loadavg()[0] * 10) / 10;
    const loadBefore = load();
    out.push(await loadPostgres(loader, lakeDir, root, quarters));
    progress('Postgres loaded and indexed; measuring pages');

    // The API, as the 13F bench serves it.
    const settings = loadSettings({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', METERING: 'off', RATE_LIMIT_RPS: '100000' });
    const services = await createServices(settings, { cursorSecret: 'bench-cursor-secret-0123456789' });
    closers.push(() => closeServices(services));
    const server = createServer(createApp(services, { routes: routes13f }).app);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    closers.push(
      () =>
        new Promise<void>((r) => {
          server.closeAllConnections?.();
          server.close(() => r());
        }),
    );
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const key = (await createKey(services.state, { plan: 'pro' })).key;
    const apiGet = async (path: string) => {
      const r = await fetch(`${base}${path}`, { headers: { Authorization: `Bearer ${key}` } });
      const body = (await r.json()) as { data: unknown[] };
      if (r.status !== 200) throw new Error(`${path}: ${r.status} ${JSON.stringify(body).slice(0, 300)}`);
      return body.data;
    };

    // Raw DuckDB: the API reader's settings and pool size (2 threads, footer cache, 4 connections), no views.
    const duck = await openDuck(':memory:', { threads: '2' });
    closers.push(() => duck.instance.closeSync());
    await duck.conn.run('SET GLOBAL parquet_metadata_cache = true');
    await duck.conn.run('SET GLOBAL late_materialization_max_rows = 0');
    const duckConns = await Promise.all(Array.from({ length: 4 }, () => duck.instance.connect()));
    closers.push(() => {
      for (const c of duckConns) c.closeSync();
    });
    const duckPool = connectionPool(duckConns);
    const files = (copy: string) => `read_parquet(${sqlString(join(lakeDir, copy, '*', '*.parquet'))}, hive_partitioning = true)`;

    const pgPool = new pg.Pool({ ...connection, max: Math.max(...CLIENTS) });
    closers.push(() => pgPool.end());

    for (const page of pageCases(cusips, managers)) {
      const copy = page.order === BY_MANAGER ? 'holdings_13f_by_manager' : 'holdings_13f';
      const where = `${page.where} AND is_current = true`;
      const duckSql = `SELECT * FROM ${files(copy)} WHERE ${where} ORDER BY ${page.order} LIMIT ${PAGE + 1}`;
      const pgSql = `SELECT * FROM holdings_13f WHERE ${where} ORDER BY ${page.order} LIMIT ${PAGE + 1}`;
      const duckQuery = (n: number) => duckPool((c) => queryRows(c, duckSql, page.params(n)));
      const pgQuery = async (n: number) => (await pgPool.query(pgSql, page.params(n))).rows;
      samePage(page.label, (await apiGet(page.api(1))) as Record<string, unknown>[], await duckQuery(1), await pgQuery(1));

      progress(`${page.label}: same first page from all three`);
      for (const clients of CLIENTS) {
        const opts = { clients, ...CALLS[clients], budgetMs: BUDGET_MS };
        const figures: Record<string, LoadFigures> = {
          API: await closedLoop((n) => apiGet(page.api(n)), opts),
          DuckDB: await closedLoop(duckQuery, opts),
          Postgres: await closedLoop(pgQuery, opts),
        };
        for (const [system, f] of Object.entries(figures)) {
          const ratio: Record<string, number> = system === 'Postgres' ? {} : { p50_vs_pg: Math.round((f.p50_ms / figures.Postgres.p50_ms) * 100) / 100 };
          out.push({ name: `peer: ${page.label} ${clients} client${clients > 1 ? 's' : ''} — ${system}`, figures: { ...f, ...ratio } });
        }
      }
    }

    out.push({ name: 'peer: machine load during the pages (1-min load average)', figures: { before: loadBefore, after: load() } });
    const [size] = (
      await loader.query(
        "SELECT pg_table_size('holdings_13f') AS heap, pg_indexes_size('holdings_13f') AS btrees, pg_total_relation_size('holdings_13f') AS total",
      )
    ).rows;
    const byCusip = await dirBytes(join(lakeDir, 'holdings_13f'));
    const byManager = await dirBytes(join(lakeDir, 'holdings_13f_by_manager'));
    out.push({
      name: 'peer: storage — lake (zstd Parquet, two sort orders)',
      figures: { by_cusip_mb: mb(byCusip), by_manager_mb: mb(byManager), total_mb: mb(byCusip + byManager) },
    });
    out.push({
      name: 'peer: storage — Postgres (heap + 2 B-trees)',
      figures: { heap_mb: mb(Number(size.heap)), btrees_mb: mb(Number(size.btrees)), total_mb: mb(Number(size.total)) },
    });
    return out;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    for (const close of closers.reverse()) await Promise.resolve(close()).catch(() => {});
    await cluster?.stop();
    await rm(root, { recursive: true, force: true });
  }
}
