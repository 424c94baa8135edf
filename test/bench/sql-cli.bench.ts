import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import holdings13f from '../../ingest/datasets/13f/dataset.ts';
import { runIngest } from '../../ingest/pipeline/runner.ts';
import { ensureBundle, TARGETS } from '../../ingest/cli-bundle.cjs';
import { loadSettings } from '../../schemas/settings.ts';
import { interleavedChildRuns, percentile, processWallMs, type BenchResult } from './support.ts';

/**
 * The analyst path's cold start (issue #17: under 2 s): `npm run sql` with one query, a fresh process each time,
 * next to the same query in a bare DuckDB process (`node -e` with @duckdb/node-api: Node plus the binding, the
 * floor), measured in the same run and interleaved so both see the same load. Rows: `SELECT 1`, a real query over
 * the 13F demo sample, the same through `npm run` itself (npm's own start included), and the sources through tsx
 * (how `npm run sql` ran before the bundle). The load average is printed because every figure scales with it.
 */

const RUNS = 7;
const TARGET_MS = 2000;
const REAL_QUERY = 'SELECT count(*) AS n, sum(value_usd) AS usd FROM holdings_13f';

/** The same statement in a bare DuckDB process, the table read straight from the lake's Parquet files. */
function bareScript(sql: string): string {
  return (
    "const {DuckDBInstance}=require('@duckdb/node-api');(async()=>{const c=await (await DuckDBInstance.create(':memory:')).connect();" +
    `await c.runAndReadAll(${JSON.stringify(sql)})})()`
  );
}

export default async function sqlCliBench(): Promise<BenchResult[]> {
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-sql-'));
  try {
    const settings = loadSettings({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    const samples = join(dataDir, 'samples', '13f');
    await holdings13f.sample?.(samples, { seed: 42, scale: Number(process.env.BENCH_SCALE ?? 1) });
    const rows = (await runIngest(holdings13f, { from: samples }, settings, { quiet: true })).rowsWritten;
    await ensureBundle(TARGETS.sql); // a build on first use is not a cold start
    const env = { DATA_DIR: dataDir };
    const glob = join(settings.lakeDir, 'holdings_13f', '*', '*.parquet');
    const commands = {
      select1: () => processWallMs(['ingest/cli-launch.cjs', 'sql', 'SELECT 1'], env),
      select1Bare: () => processWallMs(['-e', bareScript('SELECT 1')]),
      real: () => processWallMs(['ingest/cli-launch.cjs', 'sql', REAL_QUERY], env),
      realBare: () => processWallMs(['-e', bareScript(REAL_QUERY.replace('holdings_13f', `read_parquet('${glob}')`))]),
      viaNpm: () => processWallMs(['run', '-s', 'sql', '--', REAL_QUERY], env, 'npm'),
      viaTsx: () => processWallMs(['--import', 'tsx', 'ingest/sql-cli.ts', REAL_QUERY], env),
    };
    type Command = keyof typeof commands;
    const { wall, cpu, load } = await interleavedChildRuns(commands, RUNS);
    const figures = (ours: Command, bare?: Command) => ({
      p50_ms: percentile(wall[ours], 50),
      ...(bare ? { bare_p50_ms: percentile(wall[bare], 50) } : {}),
      cpu_p50_ms: percentile(cpu[ours], 50),
      ...(bare ? { bare_cpu_p50_ms: percentile(cpu[bare], 50) } : {}),
    });
    return [
      { name: 'npm run sql cold start: SELECT 1 vs bare DuckDB process', figures: { ...figures('select1', 'select1Bare'), target_ms: TARGET_MS } },
      { name: `npm run sql cold start: 13F count+sum (${rows} rows) vs bare`, figures: { ...figures('real', 'realBare'), target_ms: TARGET_MS } },
      { name: 'the 13F query through `npm run -s sql` (npm start included)', figures: figures('viaNpm') },
      { name: 'the 13F query through tsx (the sources, before the bundle)', figures: { ...figures('viaTsx'), runs: RUNS, load_avg: load } },
    ];
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
