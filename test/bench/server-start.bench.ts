import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBundle, TARGETS } from '../../ingest/cli-bundle.cjs';
import { loadSettings } from '../../schemas/settings.ts';
import { buildDemoLake } from '../support/demo-lake.ts';
import { type BenchResult, interleavedChildRuns, percentile } from './support.ts';

/**
 * The API server's start, to the moment it listens: `npm start` (its bundle, dist/api.cjs, through the launcher)
 * beside the same server's sources through tsx (how it started before the bundle) and the floor, a bare Node
 * process that loads the DuckDB binding, opens an in-memory database and listens on a port. Measured in the same
 * run, interleaved, on data folders whose state store a first, untimed start made (a restart, as a rolling deploy or
 * a crash brings): an empty lake, and the demo lake (`make demo`'s 35 tables), whose open comes before the server
 * listens. Each process is stopped with SIGTERM the moment it logs that it listens; its CPU is
 * counted once it has exited, so the figure includes the short stop. The tsx row leaves out esbuild's own process,
 * which tsx starts to transpile and which is not waited for: that row is, if anything, under-counted.
 */

const RUNS = 7;

const FLOOR =
  "const {DuckDBInstance}=require('@duckdb/node-api');(async()=>{const c=await (await DuckDBInstance.create(':memory:')).connect();" +
  "await c.run('SELECT 1');const s=require('node:http').createServer((q,r)=>r.end());" +
  "s.listen(0,'127.0.0.1',()=>console.log('listening on http://127.0.0.1:'+s.address().port));" +
  "process.on('SIGTERM',()=>s.close(()=>process.exit(0)))})()";

/** Starts `args` with `env`; resolves with the wall time to its "listening on" line, once it has exited after SIGTERM. */
function untilListening(args: string[], env: Record<string, string>): Promise<number> {
  const t = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env: { ...process.env, LOG_LEVEL: 'info', PORT: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let listenedMs: number | null = null;
    const onOutput = (chunk: Buffer) => {
      out += chunk;
      if (listenedMs === null && /listening on http:\/\/[^\s:]+:\d+/.test(out)) {
        listenedMs = performance.now() - t;
        child.kill('SIGTERM');
      }
    };
    child.stdout.on('data', onOutput);
    child.stderr.on('data', onOutput);
    child.on('close', (code, signal) =>
      listenedMs !== null ? resolve(listenedMs) : reject(new Error(`${args.join(' ')} ended (${code ?? signal}) before listening: ${out.slice(-800)}`)),
    );
  });
}

export default async function serverStartBench(): Promise<BenchResult[]> {
  const root = await mkdtemp(join(tmpdir(), 'bench-server-start-'));
  try {
    await ensureBundle(TARGETS.api); // a build on first use is not a start
    const demo = join(root, 'demo');
    await buildDemoLake(loadSettings({ DATA_DIR: demo, LOG_LEVEL: 'silent' }));
    const commands = {
      bundle: () => untilListening(['ingest/cli-launch.cjs', 'api'], { DATA_DIR: join(root, 'bundle') }),
      tsx: () => untilListening(['--import', 'tsx', 'api/main.ts'], { DATA_DIR: join(root, 'tsx') }),
      bundleDemo: () => untilListening(['ingest/cli-launch.cjs', 'api'], { DATA_DIR: demo }),
      tsxDemo: () => untilListening(['--import', 'tsx', 'api/main.ts'], { DATA_DIR: demo }),
      floor: () => untilListening(['-e', FLOOR], {}),
    };
    for (const run of Object.values(commands)) await run(); // the state stores made: every timed start is a restart
    const { wall, cpu, load } = await interleavedChildRuns(commands, RUNS);
    const figures = (name: keyof typeof commands) => ({ listen_p50_ms: percentile(wall[name], 50), cpu_p50_ms: percentile(cpu[name], 50) });
    return [
      { name: 'API server start to listening: npm start (bundle)', figures: figures('bundle') },
      { name: 'the same server through tsx (the sources, before the bundle)', figures: figures('tsx') },
      { name: 'npm start (bundle) on the demo lake (35 tables)', figures: figures('bundleDemo') },
      { name: 'through tsx on the demo lake', figures: figures('tsxDemo') },
      {
        name: 'floor: bare Node + DuckDB binding + an HTTP listener',
        figures: { ...figures('floor'), runs: RUNS, load_avg: load },
      },
    ];
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
