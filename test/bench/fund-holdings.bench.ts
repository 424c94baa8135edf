import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import nportRoutes from '../../api/nport/routes.ts';
import { openDuck, queryRows, sqlString } from '../../ingest/lake/duck.ts';
import { createTestApp } from '../support/harness.ts';
import { generateNportDataSet } from './nport-ingest.bench.ts';
import { ingestInChild, measure, type BenchResult } from './support.ts';

/**
 * `/v1/funds/holdings` pages over one N-PORT quarter (docs/layouts.md): a data set of BENCH_FUND_LINES positions
 * (3,000,000 by default; a real quarter holds 5–10M) generated in the published layout (`generateNportDataSet`: ≈300
 * positions a report, 20,000 securities drawn uniformly, one CUSIP in 33 `N/A`) and ingested by the CLI, so the file is
 * the writer's own. Each page through HTTP in this process (server and client share it, as in every bench here):
 * p50/p99 and the process's CPU per call, `BENCH_FUND_RUNS` calls (40) over 20 keys drawn from the data. Beside each,
 * in the same run on the same file, raw DuckDB (one thread, prepared, the API reader's settings): the page's top-N in
 * the order the list had before 2026-11-28 (accession, holding: every match of the quarter sorted), and in today's
 * order, the file's own (CUSIP, series, accession, holding), which is the query the API runs.
 */
const LINES = Number(process.env.BENCH_FUND_LINES ?? 3_000_000);
const RUNS = Number(process.env.BENCH_FUND_RUNS ?? 40);

export default async function fundHoldingsBench(): Promise<BenchResult[]> {
  const root = await mkdtemp(join(tmpdir(), 'bench-fund-holdings-'));
  const app = await createTestApp({ routes: nportRoutes, env: { METERING: 'off', RATE_LIMIT_RPS: '1000000' } });
  try {
    await generateNportDataSet(join(root, 'src'), LINES);
    await ingestInChild(['nport', '--from', join(root, 'src')], { DATA_DIR: app.dataDir });
    await app.services.lake.refresh();
    const file = join(app.settings.lakeDir, 'fund_holdings', 'report_quarter=2024Q4', 'data.parquet');
    const { instance, conn } = await openDuck(':memory:', { threads: '1' });
    try {
      await conn.run('SET GLOBAL parquet_metadata_cache = true');
      await conn.run('SET GLOBAL late_materialization_max_rows = 0');
      const keys = async (col: string) =>
        (await queryRows(conn, `SELECT DISTINCT ${col} AS k FROM read_parquet(${sqlString(file)}) WHERE ${col} IS NOT NULL ORDER BY hash(k) LIMIT 20`)).map(
          (r) => String(r.k),
        );
      const [series, registrants, accessions, cusips] = [
        await keys('series_id'),
        await keys('registrant_cik'),
        await keys('accession_number'),
        await keys('cusip'),
      ];
      type Page = [name: string, query: (i: number) => string, where: string, key: (i: number) => string | null];
      const pages: Page[] = [
        ['first page, no filter', () => '', 'true', () => null],
        ['?series_id= (a fund)', (i) => `series_id=${series[i % 20]}`, 'series_id = $1', (i) => series[i % 20]],
        ['?registrant_cik=', (i) => `registrant_cik=${registrants[i % 20]}`, 'registrant_cik = $1', (i) => registrants[i % 20]],
        ['?accession_number=', (i) => `accession_number=${accessions[i % 20]}`, 'accession_number = $1', (i) => accessions[i % 20]],
        ['?cusip=', (i) => `cusip=${cusips[i % 20]}`, 'cusip = $1', (i) => cusips[i % 20]],
        ['?cusip= unknown', (i) => `cusip=ZZZZZZZZ${i % 10}`, 'cusip = $1', (i) => `ZZZZZZZZ${i % 10}`],
        [
          '?asset_category=DBT&min_value_usd=15000000',
          () => 'asset_category=DBT&min_value_usd=15000000',
          "asset_category = 'DBT' AND value_usd >= 15000000",
          () => null,
        ],
      ];
      const out: BenchResult[] = [];
      for (const [name, query, where, key] of pages) {
        let i = 0;
        const api = await measure(async () => {
          const r = await app.get(`/v1/funds/holdings?limit=25&${query(i++)}`);
          if (r.status !== 200) throw new Error(`${name}: ${r.status}`);
        }, RUNS);
        const raw = async (order: string) => {
          const p = await conn.prepare(`SELECT * FROM read_parquet(${sqlString(file)}) WHERE ${where} AND is_current ORDER BY ${order} LIMIT 26`);
          let j = 0;
          return measure(
            async () => {
              const k = key(j++);
              if (k !== null) p.bind([k]);
              await p.run();
            },
            Math.max(5, Math.round(RUNS / 4)),
          );
        };
        const before = await raw('accession_number, holding_id');
        const topN = await raw('cusip, series_id, accession_number, holding_id');
        out.push({
          name: `fund-holdings: ${name} (${LINES.toLocaleString('en-US')} positions)`,
          figures: {
            ...api,
            raw_old_order_p50_ms: before.p50_ms,
            raw_old_order_cpu_ms: before.cpu_ms,
            raw_file_order_p50_ms: topN.p50_ms,
            raw_file_order_cpu_ms: topN.cpu_ms,
          },
        });
      }
      return out;
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
  } finally {
    await app.close();
    await rm(root, { recursive: true, force: true });
  }
}
