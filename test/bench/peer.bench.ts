import { rmSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { openDuck, sqlString } from '../../ingest/lake/duck.ts';
import { allColumns } from '../../schemas/table.ts';
import { holdings13f } from '../../schemas/tables/13f.ts';
import { closedLoop, type LoadFigures } from './closed-loop.ts';
import { type ApiUnderTest, type LakeReaderUnderTest, openRawDuck, pageCases, pageSql, samePage, startHoldingsApi } from './holdings-pages.ts';
import { cachedLake, dataDirOver, dirBytes } from './lake-cache.ts';
import { startThrowawayCluster, type PgCluster } from './postgres-cluster.ts';
import type { BenchResult } from './support.ts';

/**
 * The Postgres peer (issue #20): the same 13F holdings lines served three ways, same pages, same machine, same run.
 *   - API: `/v1/holdings` through the HTTP app (partition-first reads of the CUSIP- and manager-sorted Parquet copies);
 *   - DuckDB: one plain SQL query per page on the same Parquet files (the API's reader settings, no HTTP, no JSON);
 *   - Postgres: one table loaded from the same lines (in the lake's CUSIP order), a B-tree on cusip and one on
 *     manager_cik, queried through `pg` over loopback TCP.
 * Each page at 1 and at 16 concurrent clients: p50/p99 latency and req/s; then the storage of each. BENCH_PEER_ROWS
 * sets the lines (default 10M). The lake comes from the bench lake cache (lake-cache.ts: generated once per size and
 * generator, reused by later runs); Postgres is loaded afresh each run into a throw-away cluster (initdb in a temp
 * folder, removed at the end or on failure).
 */
const LINES = Number(process.env.BENCH_PEER_ROWS ?? process.env.BENCH_PEER_LINES ?? 10_000_000);
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
 * OS caches the rest, as it caches the Parquet files for DuckDB). maintenance_work_mem 1 GB lets each B-tree sort
 * its keys in memory.
 */
const PG_SETTINGS = {
  shared_buffers: "'1GB'",
  maintenance_work_mem: "'1GB'",
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

/** The columns of the lake's rows, `period` (the partition folder) included, in one order for DDL, CSV and COPY. */
const COLUMNS = Object.entries(allColumns(holdings13f)).map(([name, c]) => ({ name, type: (c as { type: string }).type }));

/** Progress on stderr (the figures go to stdout): the run takes minutes. */
const progress = (step: string) => process.stderr.write(`  peer: ${step}\n`);

const mb = (bytes: number) => Math.round(bytes / 1e5) / 10;
const seconds = (ms: number) => Math.round(ms / 100) / 10;

/**
 * Loads the lake's holdings into Postgres in one pass per quarter: DuckDB writes the quarter as CSV, Postgres reads it
 * with one server-side `COPY … FREEZE` (the cluster is on this machine, so the server opens the file itself: no rows
 * cross a socket) into a table created in the same transaction (with wal_level=minimal that skips the WAL, and FREEZE
 * leaves no hint bits or visibility map for a later VACUUM to write). DuckDB writes the next quarter's CSV while
 * Postgres copies the previous one. Then the two B-trees, built at once on two connections (one core each), and
 * ANALYZE.
 */
async function loadPostgres(connect: () => Promise<pg.Client>, lakeDir: string, csvDir: string, quarters: string[]): Promise<BenchResult> {
  const { conn, instance } = await openDuck(':memory:', { threads: '1', memory_limit: '2GB' });
  const csvOf = async (q: string) => {
    const file = join(csvDir, `${q}.csv`);
    const select = COLUMNS.map((c) => (c.name === 'period' ? `${sqlString(q)} AS period` : `"${c.name}"`)).join(', ');
    await conn.run(`COPY (SELECT ${select} FROM read_parquet(${sqlString(join(lakeDir, 'holdings_13f', `period=${q}`, 'data.parquet'))}))
      TO ${sqlString(file)} (FORMAT csv, HEADER false)`);
    return file;
  };
  const [a, b] = [await connect(), await connect()];
  try {
    const t0 = performance.now();
    try {
      await a.query('BEGIN');
      await a.query(`CREATE TABLE holdings_13f (${COLUMNS.map((c) => `"${c.name}" ${PG_TYPE[c.type]}`).join(', ')})`);
      let next = csvOf(quarters[0]);
      for (let k = 0; k < quarters.length; k++) {
        const file = await next;
        if (k + 1 < quarters.length) next = csvOf(quarters[k + 1]);
        await a.query(`COPY holdings_13f (${COLUMNS.map((c) => `"${c.name}"`).join(', ')}) FROM ${sqlString(file)} WITH (FORMAT csv, FREEZE true)`);
        await rm(file);
        progress(`COPY ${quarters[k]} done (${seconds(performance.now() - t0)} s)`);
      }
      await a.query('COMMIT');
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
    const t1 = performance.now();
    await Promise.all([
      a.query('CREATE INDEX holdings_13f_cusip ON holdings_13f (cusip)'),
      b.query('CREATE INDEX holdings_13f_manager_cik ON holdings_13f (manager_cik)'),
    ]);
    const t2 = performance.now();
    await a.query('ANALYZE holdings_13f');
    const t3 = performance.now();
    return {
      name: `peer: Postgres load (${LINES.toLocaleString('en-US')} lines)`,
      figures: {
        copy_s: seconds(t1 - t0),
        btrees_s: seconds(t2 - t1),
        analyze_s: seconds(t3 - t2),
        total_s: seconds(t3 - t0),
        copy_rows_per_s: Math.round(LINES / ((t1 - t0) / 1000)),
      },
    };
  } finally {
    await Promise.all([a.end(), b.end()]);
  }
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
    const lake = await cachedLake(LINES, progress);
    closers.push(() => lake.release());
    const { lakeDir, cusips, managers } = lake;
    const quarters = (await readdir(join(lakeDir, 'holdings_13f'))).map((d) => d.replace('period=', '')).sort();
    if (quarters.length !== QUARTERS) throw new Error(`expected ${QUARTERS} quarter folders, found ${quarters.length}`);

    progress(`lake of ${LINES.toLocaleString('en-US')} lines ready; starting Postgres`);
    cluster = await startThrowawayCluster(root, PG_SETTINGS);
    const connection = { host: cluster.host, port: cluster.port, user: cluster.user, database: 'postgres' };
    const connect = async () => {
      const c = new pg.Client(connection);
      await c.connect();
      return c;
    };
    out.push({
      name: 'peer: lake (Parquet, both sort orders)',
      figures: { lines: LINES, generated_s: lake.generatedS ?? 'cached', postgres: cluster.version },
    });
    // The machine is shared: the load average beside the figures says how much of its 2 cores the run had.
    const load = () => Math.round(loadavg()[0] * 10) / 10;
    const loadBefore = load();
    out.push(await loadPostgres(connect, lakeDir, root, quarters));
    progress('Postgres loaded and indexed; measuring pages');

    const dataDir = await dataDirOver(lakeDir, 'bench-peer-data-');
    closers.push(() => rm(dataDir, { recursive: true, force: true }));
    const api: ApiUnderTest = await startHoldingsApi(dataDir);
    closers.push(() => api.close());
    const duck: LakeReaderUnderTest = await openRawDuck(lakeDir);
    closers.push(() => duck.close());
    const pgPool = new pg.Pool({ ...connection, max: Math.max(...CLIENTS) });
    closers.push(() => pgPool.end());

    const cells: Record<string, Record<string, LoadFigures>> = {};
    for (const page of pageCases(cusips, managers, LINES)) {
      const pgQuery = async (n: number) => (await pgPool.query(pageSql(page, 'holdings_13f'), page.params(n))).rows;
      samePage(page.label, { API: await api.get(page.api(1)), DuckDB: await duck.query(page, 1), Postgres: await pgQuery(1) });

      progress(`${page.label}: same first page from all three`);
      for (const clients of CLIENTS) {
        const opts = { clients, ...CALLS[clients], budgetMs: BUDGET_MS };
        const figures: Record<string, LoadFigures> = {
          API: await closedLoop((n) => api.get(page.api(n)), opts),
          DuckDB: await closedLoop((n) => duck.query(page, n), opts),
          Postgres: await closedLoop(pgQuery, opts),
        };
        cells[`${page.label} ${clients}`] = figures;
        for (const [system, f] of Object.entries(figures)) {
          const ratio: Record<string, number> = system === 'Postgres' ? {} : { p50_vs_pg: Math.round((f.p50_ms / figures.Postgres.p50_ms) * 100) / 100 };
          out.push({ name: `peer: ${page.label} ${clients} client${clients > 1 ? 's' : ''} — ${system}`, figures: { ...f, ...ratio } });
        }
      }
    }
    // The issue's throughput figure: the selective page under 16 clients, the three side by side.
    const busy = cells[`?cusip= ${Math.max(...CLIENTS)}`];
    out.push({
      name: `peer: ?cusip= throughput at ${Math.max(...CLIENTS)} clients (req/s · p99 ms)`,
      figures: Object.fromEntries(Object.entries(busy).map(([system, f]) => [system, `${f.req_s} · ${f.p99_ms}`])),
    });

    out.push({ name: 'peer: machine load during the pages (1-min load average)', figures: { before: loadBefore, after: load() } });
    const [size] = (
      await pgPool.query(
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
      figures: {
        heap_mb: mb(Number(size.heap)),
        btrees_mb: mb(Number(size.btrees)),
        total_mb: mb(Number(size.total)),
        vs_lake: Math.round((Number(size.total) / (byCusip + byManager)) * 10) / 10,
      },
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
