import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import eventsRoutes from '../../api/events/routes.ts';
import { openLake, type Lake } from '../../api/core/lake.ts';
import { selectPage } from '../../api/core/page-query.ts';
import type { Filters } from '../../api/core/page-walk.ts';
import type { DuckDBConnection } from '@duckdb/node-api';
import { openDuck, queryRows, resultRows, rowSet, sqlIdent, sqlString } from '../../ingest/lake/duck.ts';
import { type LakeReader, openLakeReader } from '../../ingest/lake/reader.ts';
import { SUMMARY_FILE } from '../../ingest/lake/summary.ts';
import { tableFiles, viewSqlOver } from '../../ingest/lake/layout.ts';
import { listTable } from '../../ingest/lake/listing.ts';
import { SERVING_FILE } from '../../ingest/lake/serving.ts';
import type { TableSpec } from '../../schemas/table.ts';
import { ALL_TABLES } from '../../schemas/tables/index.ts';
import { eventsTable } from '../../schemas/tables/events.ts';
import { holdings13f, holdings13fByManager } from '../../schemas/tables/13f.ts';
import { createTestApp } from '../support/harness.ts';
import { firmsTable, toyEndpoints, toyIngester, writeToyCsv } from '../platform/toy-dataset.ts';
import { generateLake } from './13f-funds.bench.ts';
import { cpuMs, measure, percentile, type BenchResult } from './support.ts';
import { writeEventDays } from '../support/event-days.ts';

/**
 * The read path's per-request overheads (docs/read-path.md), a few minutes:
 *  1. pages with the events table at 36, 365 and 3,650 day folders (the 36-folder run is the baseline): a page of
 *     another table (what the per-request listing taxed), with the CPU per request, beside what the listing that used
 *     to run on every request (synchronous, every table) costs on that lake;
 *  2. a `?cusip=` page of a holdings lake (BENCH_READ_ROWS lines, 400,000 by default) through the statement cache,
 *     without it, and raw DuckDB running the same SQL texts and values on the same files (unprepared, and prepared),
 *     measured in turn (one call of each per round).
 *  3. /v1/events first and next pages at each folder count, measured in turn beside the first count (the baseline);
 *  4. `/v1/holdings` pages over a BENCH_READ_SUMMARY_ROWS-line lake (1,000,000) with key summaries and serving copies,
 *     beside the same pages read from Parquet (LAKE_SERVING=off) and raw DuckDB running that path's SQL on the same
 *     files: a known CUSIP, an unknown one, `?cusip=&min_value=` with ≈ 3 lines a quarter passing (every quarter
 *     read), and `?manager=` on the manager-sorted copy.
 *  5. (BENCH_READ_PARTS=trips) the rows of a served `?cusip=` page read from the materialized result, as the lake reads
 *     them, beside the client's `runAndReadAll` (a worker call per chunk), 16 callers on 4 connections.
 */
export default async function readPathBench(): Promise<BenchResult[]> {
  const out: BenchResult[] = [];
  let base: { other: number } | null = null;
  // BENCH_READ_DAYS picks the folder counts (default 36,365,3650; the first is the baseline).
  const counts = (process.env.BENCH_READ_DAYS ?? '36,365,3650').split(',').filter(Boolean).map(Number);
  // BENCH_READ_PARTS picks the holdings runs (default both): cache, summaries; and trips, on request.
  const parts = new Set((process.env.BENCH_READ_PARTS ?? 'cache,summaries').split(','));
  for (const days of counts) {
    const r = await folderCountRun(days);
    base ??= { other: r.other.cpu_ms };
    out.push({
      name: `read-path: /v1/toy-firms-history page, events at ${days} day folders`,
      figures: { ...r.other, cpu_vs_36_pct: pct(r.other.cpu_ms, base.other), old_sync_listing_ms: r.oldListingMs },
    });
  }
  if (counts.length) out.push(...(await eventsPagesInTurn(counts)));
  if (parts.has('cache')) out.push(...(await statementCacheRun(Number(process.env.BENCH_READ_ROWS ?? 400_000))));
  if (parts.has('summaries')) out.push(...(await summaryRun(Number(process.env.BENCH_READ_SUMMARY_ROWS ?? 1_000_000))));
  if (parts.has('trips')) out.push(...(await tripsRun(Number(process.env.BENCH_READ_TRIP_ROWS ?? 5_000_000))));
  return out;
}

/** `/v1/holdings`' page order (newest quarter, then CUSIP, manager, accession, line). */
const BY_CUSIP = [
  { column: 'period', dir: 'desc' as const },
  { column: 'cusip', dir: 'asc' as const },
  { column: 'manager_cik', dir: 'asc' as const },
  { column: 'accession_number', dir: 'asc' as const },
  { column: 'line_no', dir: 'asc' as const },
];

const pct = (x: number, base: number) => Math.round(((x - base) / base) * 1000) / 10;

/**
 * Several variants measured in turn, one call of each per round, so a load that comes and goes on a shared machine
 * falls on all of them alike; per variant the p50/p99 and the process CPU of its calls. Each round takes the variants
 * in a new order (a seeded shuffle), so no variant is always measured right after the same one: in a fixed order the
 * 3,650-folder first page, always run after the 36-folder full scan, read 1.14–1.20× the CPU of the 36-folder one in
 * three runs, and 0.99–1.08× shuffled (docs/read-path.md).
 */
async function measureInTurn<K extends string>(
  variants: Record<K, () => Promise<unknown>>,
  runs: number,
): Promise<Record<K, { p50_ms: number; p99_ms: number; cpu_ms: number }>> {
  const keys = Object.keys(variants) as K[];
  const wall = new Map<K, number[]>(keys.map((k) => [k, []]));
  const cpu = new Map<K, number>(keys.map((k) => [k, 0]));
  for (let i = 0; i < 10; i++) for (const k of keys) await variants[k]();
  let seed = 20;
  const random = () => {
    seed = (seed * 48_271) % 2_147_483_647;
    return seed / 2_147_483_647;
  };
  for (let i = 0; i < runs; i++) {
    const round = [...keys];
    for (let j = round.length - 1; j > 0; j--) {
      const r = Math.floor(random() * (j + 1));
      [round[j], round[r]] = [round[r], round[j]];
    }
    for (const k of round) {
      const c0 = process.cpuUsage();
      const t = performance.now();
      await variants[k]();
      wall.get(k)?.push(performance.now() - t);
      const c = process.cpuUsage(c0);
      cpu.set(k, (cpu.get(k) ?? 0) + c.user + c.system);
    }
  }
  const out = {} as Record<K, { p50_ms: number; p99_ms: number; cpu_ms: number }>;
  for (const k of keys) {
    const w = wall.get(k) ?? [];
    out[k] = { p50_ms: percentile(w, 50), p99_ms: percentile(w, 99), cpu_ms: Math.round(((cpu.get(k) ?? 0) / 1000 / runs) * 100) / 100 };
  }
  return out;
}

/** Progress on stderr: a loaded 2-core machine stretches the run, and the figures print only at its end. */
const step = (m: string) => process.stderr.write(`  read-path: ${m}\n`);

async function folderCountRun(days: number) {
  const app = await createTestApp({
    routes: [...toyEndpoints, ...eventsRoutes],
    extraTables: [firmsTable],
    env: { RATE_LIMIT_RPS: '100000', METERING: 'off' },
  });
  try {
    await writeToyCsv(join(app.dataDir, 'in'), '2026-01-01', 2000);
    let t = performance.now();
    await writeEventDays(app.settings.lakeDir, days);
    step(`${days} day folders written in ${Math.round(performance.now() - t)} ms`);
    t = performance.now();
    await app.ingest(toyIngester(), { from: join(app.dataDir, 'in') }, { skipDiff: true });
    step(`toy ingest + full refresh in ${Math.round(performance.now() - t)} ms`);
    const other = await measure(() => app.get('/v1/toy-firms-history?state=NY&limit=25'), 100);
    step(`toy page p50 ${other.p50_ms} ms`);
    // What every request paid before: the synchronous listing of every table's partition folders.
    const tables = [...ALL_TABLES, firmsTable];
    const old: number[] = [];
    for (let i = 0; i < 20; i++) {
      const t = performance.now();
      for (const s of tables) tableFiles(app.settings.lakeDir, s.name);
      old.push(performance.now() - t);
    }
    return { other, oldListingMs: percentile(old, 50) };
  } finally {
    await app.close();
  }
}

/**
 * `/v1/events` first and next pages (limit 25, two events a day: both pages are full at 36 days) on lakes of each
 * folder count, all open at once and measured in turn (one call of each per round), so the machine's load falls on
 * every count alike; each row carries its ratio to the first count's (the baseline) p50 and CPU. The walk reads the
 * newest days until the page is full (docs/read-path.md), so the figures should not move with the folder count.
 * Beside them, without HTTP: the walk's queries for a first page (`selectPage`), and the query the page ran before
 * the walk (`seq DESC` top-N over the view of every day; up to 365 folders, it takes seconds at 3,650).
 */
async function eventsPagesInTurn(counts: number[]): Promise<BenchResult[]> {
  const apps: Awaited<ReturnType<typeof createTestApp>>[] = [];
  try {
    const variants: Record<string, () => Promise<unknown>> = {};
    for (const days of counts) {
      const app = await createTestApp({ routes: eventsRoutes, env: { RATE_LIMIT_RPS: '100000', METERING: 'off' } });
      apps.push(app);
      await writeEventDays(app.settings.lakeDir, days, 2);
      await app.services.lake.refresh();
      const first = await app.get('/v1/events?limit=25');
      if (first.status !== 200 || !first.body.page.next_cursor) throw new Error(`/v1/events at ${days} days: ${first.status}`);
      const next = `/v1/events?limit=25&cursor=${encodeURIComponent(first.body.page.next_cursor)}`;
      variants[`first ${days}`] = () => app.get('/v1/events?limit=25');
      variants[`next ${days}`] = () => app.get(next);
      const lake = app.services.lake;
      variants[`walk ${days}`] = () => selectPage(lake, eventsTable, EVENTS_ORDER, { where: [], params: [] }, 26, null, { windows: true });
      if (days <= 365) variants[`scan ${days}`] = () => lake.query('SELECT * FROM "events" ORDER BY "seq" DESC LIMIT 26');
      step(`events lake of ${days} day folders ready`);
    }
    const r = await measureInTurn(variants, Number(process.env.BENCH_READ_EVENT_RUNS ?? 60));
    const out: BenchResult[] = [];
    const what: Record<string, string> = {
      first: '/v1/events first page',
      next: '/v1/events next page',
      walk: "first page's walk queries (selectPage, no HTTP)",
      scan: 'former page query (seq DESC over the view, no HTTP)',
    };
    for (const page of Object.keys(what)) {
      const base = r[`${page} ${counts[0]}`];
      for (const days of counts) {
        const x = r[`${page} ${days}`];
        if (!x || !base) continue;
        out.push({
          name: `read-path: ${what[page]}, ${days} day folders (baseline ${counts[0]})`,
          figures: { ...x, p50_vs_base: ratio(x.p50_ms, base.p50_ms), cpu_vs_base: ratio(x.cpu_ms, base.cpu_ms) },
        });
      }
    }
    return out;
  } finally {
    for (const app of apps) await app.close();
  }
}

const EVENTS_ORDER = eventsRoutes[0].kind === 'list' ? eventsRoutes[0].orderBy : [];

const ratio = (x: number, base: number) => Math.round((x / base) * 1000) / 1000;

/** Records the SQL texts and values a page ran, to replay them on raw DuckDB. */
function recording(lake: Lake, log: { sql: string; params: unknown[] }[]): Lake {
  return {
    ...lake,
    query: (sql, params = [], o) => {
      log.push({ sql, params });
      return lake.query(sql, params, o);
    },
  };
}

async function statementCacheRun(rows: number): Promise<BenchResult[]> {
  const app = await createTestApp({ routes: [] });
  const out: BenchResult[] = [];
  try {
    const { cusips } = await generateLake(app.settings.lakeDir, rows);
    const order = BY_CUSIP;
    // The filters /v1/holdings?cusip= builds: the CUSIP and the current-lines default.
    const filters = (c: string) => ({ where: ['"cusip" = $1', '"is_current" = true'], params: [c] });
    // The Parquet path (generateLake writes serving copies too): this run measures the statement cache on it.
    const cached = await openLake(app.settings.lakeDir, { refreshMs: 0, serving: false });
    const plain = await openLake(app.settings.lakeDir, { refreshMs: 0, statementCache: 0, serving: false });
    const runs = 200;
    const pageOf = (lake: Lake) => {
      let i = 0;
      return () => selectPage(lake, holdings13f, order, filters(cusips[i++ % cusips.length]), 26, null);
    };
    // The same texts and values on a bare DuckDB over the same files (the lake's settings, its view).
    const pages: { sql: string; params: unknown[] }[][] = [];
    for (const c of cusips) {
      const log: { sql: string; params: unknown[] }[] = [];
      await selectPage(recording(plain, log), holdings13f, order, filters(c), 26, null);
      pages.push(log);
    }
    const { instance, conn } = await openDuck(':memory:', { threads: '2' });
    try {
      await conn.run('SET GLOBAL parquet_metadata_cache = true');
      await conn.run('SET GLOBAL late_materialization_max_rows = 0');
      await conn.run(viewSqlOver(holdings13f, (await listTable(app.settings.lakeDir, holdings13f.name)).files, true));
      let j = 0;
      const rawPage = async () => {
        for (const q of pages[j++ % pages.length]) (await conn.runAndReadAll(q.sql, q.params as never)).getRowObjectsJson();
      };
      const prepared = new Map<string, Awaited<ReturnType<typeof conn.prepare>>>();
      let k = 0;
      const rawPrepared = async () => {
        for (const q of pages[k++ % pages.length]) {
          let p = prepared.get(q.sql);
          if (!p) prepared.set(q.sql, (p = await conn.prepare(q.sql)));
          p.bind(q.params as never);
          (await p.runAndReadAll()).getRowObjectsJson();
        }
      };
      const r = await measureInTurn({ cached: pageOf(cached), plain: pageOf(plain), raw: rawPage, rawPrepared }, runs);
      const withCache = r.cached;
      const without = r.plain;
      const raw = r.raw;
      const rawPrep = r.rawPrepared;
      const perPage = (pages.flat().length / pages.length).toFixed(1);
      const name = `read-path: ?cusip= page (${rows.toLocaleString('en-US')}-line holdings, 8 quarters, ${perPage} queries a page)`;
      out.push({ name: `${name}, statement cache`, figures: { ...withCache, cpu_vs_uncached_pct: pct(withCache.cpu_ms, without.cpu_ms) } });
      out.push({ name: `${name}, no cache`, figures: without });
      out.push({ name: `${name}, raw DuckDB same SQL`, figures: raw });
      out.push({ name: `${name}, raw DuckDB prepared`, figures: rawPrep });
    } finally {
      conn.closeSync();
      instance.closeSync();
      await cached.close();
      await plain.close();
    }
  } finally {
    await app.close();
  }
  return out;
}

/**
 * /v1/holdings pages over the serving copies (docs/read-path.md), measured in turn with the Parquet path (the same
 * lake opened with LAKE_SERVING=off: key summaries on in both) and raw DuckDB running the Parquet path's recorded SQL,
 * prepared, on the plain Parquet files.
 */
async function summaryRun(rows: number): Promise<BenchResult[]> {
  const app = await createTestApp({ routes: [] });
  const out: BenchResult[] = [];
  try {
    // generateLake writes what an ingest writes beside each quarter file (afterQuarterWritten): the key summary and
    // the serving copy, for both holdings tables. The copies' build time is the ingest's cost, printed beside.
    const { cusips, managers, servingMs } = await generateLake(app.settings.lakeDir, rows);
    let parquetBytes = 0;
    let servingBytes = 0;
    for (const spec of [holdings13f, holdings13fByManager]) {
      for (const f of tableFiles(app.settings.lakeDir, spec.name)) {
        parquetBytes += statSync(f).size;
        servingBytes += statSync(join(dirname(f), SERVING_FILE)).size;
      }
    }
    out.push({
      name: `read-path: serving copies of both holdings tables (${rows.toLocaleString('en-US')} lines, 16 files)`,
      figures: { build_s: Math.round(servingMs / 100) / 10, parquet_mb: mb(parquetBytes), serving_mb: mb(servingBytes) },
    });
    out.push(await openRun(app.settings.lakeDir, rows));
    out.push(await sharedTopIndexRun(app.settings.lakeDir, rows));
    const byCusip = BY_CUSIP;
    const byManager = [byCusip[0], byCusip[2], byCusip[1], byCusip[3], byCusip[4]];
    // value_usd is uniform over 1,000 + [0, 1e8): the minimum that lets ≈ 3 lines of a CUSIP a quarter through.
    const perQuarter = rows / 8 / 20_000;
    const worstMin = Math.round(1000 + 1e8 * Math.max(0, 1 - 3 / perQuarter));
    // The filters and bounds /v1/holdings builds for `?cusip=` (and `&min_value=`), and for `?manager=<cik>`.
    const filters = (c: string, min?: number) => ({
      where: ['"cusip" = $1', '"is_current" = true', ...(min === undefined ? [] : ['"value_usd" >= $2'])],
      params: min === undefined ? [c] : [c, min],
      bounds: { cusip: { in: [c] }, ...(min === undefined ? {} : { value_usd: { gte: min } }) },
    });
    const managerFilters = (cik: string) => ({ where: ['"manager_cik" = $1', '"is_current" = true'], params: [cik], bounds: { manager_cik: { in: [cik] } } });
    // BENCH_READ_SERVING_RUNS: rounds per kind (100); fewer for a 5M-line lake on a loaded machine.
    const rounds = Number(process.env.BENCH_READ_SERVING_RUNS ?? 100);
    // As the server opens it: serving copies preloaded (LAKE_SERVING_PRELOAD_MB), waited for before the timed rounds.
    const lake = await openLake(app.settings.lakeDir, { refreshMs: 0, servingPreloadBytes: app.settings.LAKE_SERVING_PRELOAD_MB * 2 ** 20 });
    await lake.preloaded();
    const parquet = await openLake(app.settings.lakeDir, { refreshMs: 0, serving: false });
    const { instance, conn } = await openDuck(':memory:', { threads: '2' });
    try {
      await conn.run('SET GLOBAL parquet_metadata_cache = true');
      await conn.run('SET GLOBAL late_materialization_max_rows = 0');
      for (const spec of [holdings13f, holdings13fByManager]) {
        await conn.run(viewSqlOver(spec, (await listTable(app.settings.lakeDir, spec.name)).files, true));
      }
      type Kind = [string, TableSpec, typeof byCusip, (i: number) => Filters];
      const kinds: Kind[] = [
        ['?cusip= known', holdings13f, byCusip, (i) => filters(cusips[i % cusips.length])],
        ['?cusip= unknown', holdings13f, byCusip, (i) => filters(`Z${String(i % 1000).padStart(8, '0')}`)],
        [`?cusip=&min_value= (≈3 lines a quarter pass: all 8 quarters)`, holdings13f, byCusip, (i) => filters(cusips[i % cusips.length], worstMin)],
        ['?manager= (by-manager copy)', holdings13fByManager, byManager, (i) => managerFilters(managers[i % managers.length].padStart(10, '0'))],
      ];
      for (const [kind, spec, order, make] of kinds) {
        step(`${kind}: serving, Parquet, raw`);
        // The Parquet path, recorded: raw DuckDB runs its texts and values, prepared once, on the same files.
        const pages: { sql: string; params: unknown[] }[][] = [];
        for (let i = 0; i < Math.min(50, rounds); i++) {
          const log: { sql: string; params: unknown[] }[] = [];
          await selectPage(recording(parquet, log), spec, order, make(i), 26, null);
          pages.push(log);
        }
        const prepared = new Map<string, Awaited<ReturnType<typeof conn.prepare>>>();
        let a = 0;
        let b = 0;
        let k = 0;
        const r = await measureInTurn(
          {
            serving: () => selectPage(lake, spec, order, make(a++), 26, null),
            parquet: () => selectPage(parquet, spec, order, make(b++), 26, null),
            raw: async () => {
              for (const q of pages[k++ % pages.length]) {
                let p = prepared.get(q.sql);
                if (!p) prepared.set(q.sql, (p = await conn.prepare(q.sql)));
                p.bind(q.params as never);
                (await p.runAndReadAll()).getRowObjectsJson();
              }
            },
          },
          rounds,
        );
        const name = `read-path: /v1/holdings ${kind} (${rows.toLocaleString('en-US')} lines, 8 quarters)`;
        out.push({ name: `${name}, serving copies`, figures: { ...r.serving, cpu_vs_parquet_pct: pct(r.serving.cpu_ms, r.parquet.cpu_ms) } });
        out.push({ name: `${name}, Parquet path (LAKE_SERVING=off)`, figures: r.parquet });
        out.push({ name: `${name}, raw DuckDB Parquet path's SQL, prepared`, figures: r.raw });
      }
    } finally {
      conn.closeSync();
      instance.closeSync();
      await lake.close();
      await parquet.close();
    }
  } finally {
    await app.close();
  }
  return out;
}

/**
 * Opening the API's reader over the holdings lake (docs/read-path.md, "Opening the lake"): the CPU of an
 * `openLakeReader` as the API opens it (serving copies, heads; the top index builds after it, off the open), beside
 * the key summaries and the copies' lookups it reads whole, read in the same run three ways: as the reader reads them
 * (one JSON text, `rowSet`), value by value (`queryRows`, the reader's way before), and by raw DuckDB alone (the
 * result left in the engine: the floor). Rounds alternate the three reads.
 */
async function openRun(lakeDir: string, rows: number): Promise<BenchResult> {
  step('opening the reader: summaries and lookups read whole');
  const rounds = Number(process.env.BENCH_READ_OPEN_RUNS ?? 5);
  const opens: number[] = [];
  for (let i = 0; i < rounds; i++) {
    let reader: LakeReader | undefined;
    opens.push(await cpuMs(async () => (reader = await openLakeReader(lakeDir, [], {}, { serving: true, heads: true }))));
    await reader?.close();
  }
  const dirs = [holdings13f, holdings13fByManager].flatMap((spec) => tableFiles(lakeDir, spec.name).map(dirname));
  const { instance, conn } = await openDuck(':memory:', { threads: '2' });
  const reads: Record<'json' | 'values' | 'raw', number[]> = { json: [], values: [], raw: [] };
  try {
    const sqls: string[] = [];
    for (const [i, dir] of dirs.entries()) {
      await conn.run(`ATTACH ${sqlString(join(dir, SERVING_FILE))} AS ${sqlIdent(`open_${i}`)} (READ_ONLY)`);
      sqls.push(`SELECT * FROM read_parquet(${sqlString(join(dir, SUMMARY_FILE))})`, `SELECT * FROM ${sqlIdent(`open_${i}`)}.lookup`);
    }
    const ways = {
      json: (sql: string) => rowSet(conn, sql),
      values: (sql: string) => queryRows(conn, sql),
      raw: (sql: string) => conn.run(sql),
    };
    for (let i = 0; i < rounds; i++) {
      for (const [way, read] of Object.entries(ways) as [keyof typeof ways, (sql: string) => Promise<unknown>][]) {
        reads[way].push(
          await cpuMs(async () => {
            for (const sql of sqls) await read(sql);
          }),
        );
      }
    }
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
  const r = (ms: number[]) => Math.round(percentile(ms, 50) * 10) / 10;
  return {
    name: `read-path: opening the API's reader over both holdings tables (${rows.toLocaleString('en-US')} lines, 16 partitions), CPU median of ${rounds}`,
    figures: {
      open_cpu_ms: r(opens),
      summaries_lookups_json_cpu_ms: r(reads.json),
      summaries_lookups_value_by_value_cpu_ms: r(reads.values),
      raw_duckdb_same_reads_cpu_ms: r(reads.raw),
    },
  };
}

/**
 * The top indexes shared by the API processes of a host (docs/read-path.md, "The top index"): the CPU of a reader
 * opened as the API opens it until its indexes are ready (`preloaded`), first in an empty index folder (it builds
 * them), then a second reader beside it (it attaches the first one's files); beside raw DuckDB writing the same two
 * tables from the same copies' `top` tables (the engine's floor for a build). Rounds alternate, each in a fresh folder.
 */
async function sharedTopIndexRun(lakeDir: string, rows: number): Promise<BenchResult> {
  step('top indexes: built by the first reader, attached by the second, and after both closed by a restarted one');
  const rounds = Number(process.env.BENCH_READ_OPEN_RUNS ?? 5);
  const first: number[] = [];
  const second: number[] = [];
  const restarted: number[] = [];
  const raw: number[] = [];
  const specs = [holdings13f, holdings13fByManager];
  for (let i = 0; i < rounds; i++) {
    const dir = mkdtempSync(join(tmpdir(), 'bench-top-'));
    const readers: LakeReader[] = [];
    const open = async () => {
      const reader = await openLakeReader(lakeDir, [], {}, { serving: true, topIndex: true, topIndexDir: dir });
      readers.push(reader);
      await reader.preloaded();
    };
    try {
      first.push(await cpuMs(open));
      second.push(await cpuMs(open));
      for (const r of readers.splice(0)) await r.close();
      // Every reader stopped: the last one kept the files for the next start, which attaches them.
      restarted.push(await cpuMs(open));
    } finally {
      for (const r of readers) await r.close();
      rmSync(dir, { recursive: true, force: true });
    }
    const { instance, conn } = await openDuck(':memory:', { threads: '2' });
    const file = join(tmpdir(), `bench-top-raw-${process.pid}.duckdb`);
    try {
      await conn.run(`ATTACH ${sqlString(file)} AS raw_top`);
      const selects: string[][] = specs.map(() => []);
      for (const [s, spec] of specs.entries()) {
        for (const [j, f] of tableFiles(lakeDir, spec.name).entries()) {
          const alias = sqlIdent(`raw_${s}_${j}`);
          await conn.run(`ATTACH ${sqlString(join(dirname(f), SERVING_FILE))} AS ${alias} (READ_ONLY)`);
          selects[s].push(`SELECT * FROM ${alias}.top`);
        }
      }
      raw.push(
        await cpuMs(async () => {
          for (const [s, spec] of specs.entries()) {
            await conn.run(`CREATE TABLE raw_top.t${s} AS SELECT * FROM (${selects[s].join(' UNION ALL ')}) ORDER BY ${sqlIdent(spec.summary!.key)}`);
            await conn.run('CHECKPOINT raw_top');
          }
        }),
      );
    } finally {
      conn.closeSync();
      instance.closeSync();
      rmSync(file, { force: true });
      rmSync(`${file}.wal`, { force: true });
    }
  }
  const r = (ms: number[]) => Math.round(percentile(ms, 50));
  return {
    name: `read-path: top indexes of both holdings tables (${rows.toLocaleString('en-US')} lines), a reader's open until ready, CPU median of ${rounds}`,
    figures: {
      first_reader_builds_cpu_ms: r(first),
      second_reader_attaches_cpu_ms: r(second),
      restart_attaches_kept_cpu_ms: r(restarted),
      raw_duckdb_build_cpu_ms: r(raw),
    },
  };
}

const mb = (bytes: number) => Math.round(bytes / 1e5) / 10;

/**
 * A query's rows read two ways on the same prepared statements (docs/read-path.md, "One trip per query"): from the
 * materialized result, synchronously (`resultRows`, what the lake and the state store run), and through the client's
 * `runAndReadAll`, which fetches each chunk, and the empty one that ends them, through a worker call of its own. Two
 * queries: a served `?cusip=` page, the API lake's own SQL (recorded from `selectPage` over BENCH_READ_TRIP_ROWS lines,
 * 5,000,000: ≈ 31 lines of a CUSIP a quarter, so a page reads its newest quarter's copy) run on a DuckDB of one thread
 * that attaches the same copies under the same aliases, preloaded; and a point read of a 100,000-row table, the size
 * of statement the state store runs. 16 callers share 4 connections as the server's requests share its pool. The
 * variants alternate, `BENCH_READ_TRIP_ROUNDS` rounds (6) of `BENCH_READ_TRIP_PAGES` pages (2,000; ten times that
 * many point reads) each.
 */
async function tripsRun(rows: number): Promise<BenchResult[]> {
  const app = await createTestApp({ routes: [] });
  try {
    const { cusips } = await generateLake(app.settings.lakeDir, rows);
    const lake = await openLake(app.settings.lakeDir, { refreshMs: 0, servingPreloadBytes: 0 });
    const order = BY_CUSIP;
    const pages: { sql: string; params: unknown[] }[] = [];
    for (const c of cusips) {
      const log: { sql: string; params: unknown[] }[] = [];
      await selectPage(
        recording(lake, log),
        holdings13f,
        order,
        { where: ['"cusip" = $1', '"is_current" = true'], params: [c], bounds: { cusip: { in: [c] } } },
        26,
        null,
      );
      // A page the top index answers (a key with few lines a quarter) reads the index's file, not a copy: left out.
      pages.push(...log.filter((q) => !/"top_\d+"\.top/.test(q.sql)));
    }
    if (!pages.length) throw new Error('trips: no page read the copies (a lake this small puts every page on the top index)');
    const attached = (await lake.query(`SELECT database_name AS alias, path FROM duckdb_databases() WHERE database_name LIKE 'serving%'`)) as {
      alias: string;
      path: string;
    }[];
    await lake.close();
    const { instance, conn } = await openDuck(':memory:', { threads: '1' });
    const conns = [conn, ...(await Promise.all([1, 2, 3].map(() => instance.connect())))];
    try {
      for (const a of attached) {
        await conn.run(`ATTACH ${sqlString(a.path)} AS ${sqlIdent(a.alias)} (READ_ONLY)`);
        await conn.run(`SELECT sum(hash(COLUMNS(*))) FROM ${sqlIdent(a.alias)}.rows`);
      }
      await conn.run(`CREATE TABLE usage AS SELECT i AS id, 'key_' || i AS k, i * 3 AS used, now() AS at FROM range(100000) r(i)`);
      const perRound = Number(process.env.BENCH_READ_TRIP_PAGES ?? 2000);
      step(`trips: ${pages.length} recorded pages, ${attached.length} copies attached`);
      const page = await tripRounds(conns, pages, perRound);
      const point = await tripRounds(
        conns,
        Array.from({ length: 1000 }, (_, i) => ({ sql: 'SELECT * FROM usage WHERE id = $1', params: [i * 97] })),
        perRound * 10,
      );
      const name = (what: string) => `read-path: ${what}, 16 callers on 4 connections`;
      const served = `served ?cusip= page's rows (${rows.toLocaleString('en-US')} lines)`;
      return [
        { name: `${name(served)}, from the materialized result (the lake's read)`, figures: page.materialized },
        { name: `${name(served)}, client's runAndReadAll (a worker call per chunk)`, figures: page.runAndReadAll },
        { name: `${name('point read of a 100,000-row table')}, from the materialized result`, figures: point.materialized },
        { name: `${name('point read of a 100,000-row table')}, client's runAndReadAll`, figures: point.runAndReadAll },
      ];
    } finally {
      for (const c of conns) c.closeSync();
      instance.closeSync();
    }
  } finally {
    await app.close();
  }
}

/** `queries` run `perRound` times a round by 16 callers on `conns` (caller j on connection j % 4, one query at a time on each), each variant in turn. */
async function tripRounds(conns: DuckDBConnection[], queries: { sql: string; params: unknown[] }[], perRound: number) {
  const texts = [...new Set(queries.map((q) => q.sql))];
  const prepared = await Promise.all(conns.map(async (c) => new Map(await Promise.all(texts.map(async (q) => [q, await c.prepare(q)] as const)))));
  const bound = (i: number) => {
    const q = queries[Math.floor(i / conns.length) % queries.length];
    const p = prepared[i % conns.length].get(q.sql);
    if (!p) throw new Error('trips: statement not prepared');
    p.bind(q.params as never);
    return p;
  };
  const variants = {
    materialized: async (i: number) => resultRows(await bound(i).run()).length,
    runAndReadAll: async (i: number) => (await bound(i).runAndReadAll()).getRowObjectsJson().length,
  };
  const cpu = { materialized: [] as number[], runAndReadAll: [] as number[] };
  const rate = { materialized: [] as number[], runAndReadAll: [] as number[] };
  const rounds = Number(process.env.BENCH_READ_TRIP_ROUNDS ?? 6);
  for (let r = 0; r < rounds; r++) {
    for (const k of (r % 2 ? ['runAndReadAll', 'materialized'] : ['materialized', 'runAndReadAll']) as (keyof typeof variants)[]) {
      const busy = conns.map(() => Promise.resolve(0));
      let next = 0;
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      await Promise.all(
        Array.from({ length: 16 }, async (_, j) => {
          const slot = j % conns.length;
          while (next < perRound) {
            const i = next++;
            const run = busy[slot].then(() => variants[k](i * conns.length + slot));
            busy[slot] = run;
            await run;
          }
        }),
      );
      const u = process.cpuUsage(c0);
      cpu[k].push((u.user + u.system) / 1000 / perRound);
      rate[k].push(perRound / ((performance.now() - t0) / 1000));
    }
  }
  const fig = (k: keyof typeof variants) => ({
    cpu_ms_min: Math.round(Math.min(...cpu[k]) * 1000) / 1000,
    cpu_ms_median: Math.round(percentile(cpu[k], 50) * 1000) / 1000,
    cpu_ms_max: Math.round(Math.max(...cpu[k]) * 1000) / 1000,
    per_s_min: Math.round(Math.min(...rate[k])),
    per_s_median: Math.round(percentile(rate[k], 50)),
    per_s_max: Math.round(Math.max(...rate[k])),
  });
  return { materialized: fig('materialized'), runAndReadAll: fig('runAndReadAll') };
}
