import { loadIngesters } from '../../ingest/pipeline/registry.ts';
import { createTestApp } from '../support/harness.ts';
import { join } from 'node:path';
import { scaleOutBench } from './scale-out.ts';
import { latency, percentile, processWallMs, type BenchResult } from './support.ts';

/**
 * Platform figures: ingest rows/s of every dataset's demo sample through the real pipeline, then p50/p99 of a
 * first page (limit 25) of every list endpoint over real HTTP, then the analyst path's cold start (`npm run sql`
 * with one query, a fresh process each time) next to the same query in a bare DuckDB process (the floor: Node plus
 * the DuckDB binding, no TypeScript), then throughput with 1, 2 and 4 API processes on one PostgreSQL state store
 * beside one process on the embedded store (test/bench/scale-out.ts). BENCH_SCALE multiplies the sample sizes.
 */
export default async function platformBench(): Promise<BenchResult[]> {
  const scale = Number(process.env.BENCH_SCALE ?? 1);
  const app = await createTestApp({ env: { RATE_LIMIT_RPS: '100000', METERING: 'off' } });
  const out: BenchResult[] = [];
  try {
    for (const d of await loadIngesters()) {
      if (!d.sample) continue;
      try {
        const s = await app.ingestSample(d.name, { scale });
        out.push({
          name: `ingest ${d.name} (demo sample ×${scale})`,
          figures: { rows: s.rowsWritten, seconds: s.elapsedMs / 1000, rows_per_s: s.rowsPerSecond },
        });
      } catch (err) {
        out.push({ name: `ingest ${d.name}`, figures: { error: (err as Error).message.slice(0, 80) } });
      }
    }
    for (const ep of app.handle.endpoints) {
      if (ep.kind !== 'list') continue;
      const url = `${ep.path}?limit=25`;
      const first = await app.get(url);
      if (first.status !== 200) continue;
      const l = await latency(() => app.get(url), 50, 5);
      out.push({ name: `GET ${url}`, figures: { rows: first.body.data.length, p50_ms: l.p50_ms, p99_ms: l.p99_ms } });
    }
    out.push(await sqlColdStart(app.dataDir));
  } finally {
    await app.close();
  }
  out.push(...(await scaleOutBench()));
  return out;
}

const SQL_QUERY = 'SELECT count(*) AS n, sum(value_usd) AS usd FROM holdings_13f';

/** Median of 5 cold starts of `npm run sql` (as the npm script runs it) and of a bare DuckDB process. */
async function sqlColdStart(dataDir: string): Promise<BenchResult> {
  const glob = join(dataDir, 'lake', 'holdings_13f', '*', '*.parquet');
  const bare =
    "const {DuckDBInstance}=require('@duckdb/node-api');(async()=>{const c=await (await DuckDBInstance.create(':memory:')).connect();" +
    `await c.runAndReadAll(${JSON.stringify(SQL_QUERY.replace('holdings_13f', `read_parquet('${glob}')`))})})()`;
  const ours: number[] = [];
  const floor: number[] = [];
  for (let i = 0; i < 5; i++) {
    ours.push(await processWallMs(['--import', 'tsx', 'ingest/sql-cli.ts', SQL_QUERY], { DATA_DIR: dataDir }));
    floor.push(await processWallMs(['-e', bare]));
  }
  return { name: 'npm run sql cold start (1 query) vs bare DuckDB process', figures: { p50_ms: percentile(ours, 50), bare_p50_ms: percentile(floor, 50) } };
}
