import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { ensureBundle, TARGETS } from '../../ingest/cli-bundle.cjs';

/** One bench's printed figures: `{ name: 'advisers: /v1/advisers 3 filters', figures: { p50_ms: 4.1, … } }`. */
export interface BenchResult {
  name: string;
  figures: Record<string, number | string>;
}

export function percentile(samples: number[], p: number): number {
  const s = [...samples].sort((a, b) => a - b);
  if (!s.length) return NaN;
  const i = Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1));
  return Math.round(s[i] * 100) / 100;
}

/** `a ÷ b`, to two decimals: the ratio a bench prints beside its baseline. */
export const ratio = (a: number, b: number): number => Math.round((a / b) * 100) / 100;

/** Runs `fn` `n` times after `warmup` runs; returns p50/p99/mean in ms. */
export async function latency(fn: () => Promise<unknown>, n = 200, warmup = 10): Promise<{ p50_ms: number; p99_ms: number; mean_ms: number; runs: number }> {
  for (let i = 0; i < warmup; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    samples.push(performance.now() - t);
  }
  return {
    p50_ms: percentile(samples, 50),
    p99_ms: percentile(samples, 99),
    mean_ms: Math.round((samples.reduce((a, b) => a + b, 0) / samples.length) * 100) / 100,
    runs: n,
  };
}

/**
 * p50/p99 and the process CPU per call of `runs` calls of `fn`, after a few warm-up calls (server and client share the
 * process, as in every bench here, so the CPU is both sides').
 */
export async function measure(fn: () => Promise<unknown>, runs: number): Promise<{ p50_ms: number; p99_ms: number; cpu_ms: number }> {
  for (let i = 0; i < Math.max(2, Math.min(10, runs / 5)); i++) await fn();
  const cpu0 = process.cpuUsage();
  const l = await latency(fn, runs, 0);
  const cpu = process.cpuUsage(cpu0);
  return { p50_ms: l.p50_ms, p99_ms: l.p99_ms, cpu_ms: Math.round(((cpu.user + cpu.system) / 1000 / runs) * 100) / 100 };
}

/** The process CPU in ms (all threads) of one call of `fn`: the bench and what it calls share the process. */
export async function cpuMs(fn: () => Promise<unknown>): Promise<number> {
  const c0 = process.cpuUsage();
  await fn();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
}

/**
 * Runs `npm run ingest` as its own process (so its memory is its own) and returns its output, wall time, peak RSS
 * and CPU time, whole and per step (the CLI prints `peak_rss_mb=`, `cpu_ms=` and `step_cpu_ms[<step>]=` when
 * REPORT_PEAK_RSS=1). It runs what the npm script runs,
 * the launcher and its prebuilt bundle (no TypeScript loader: ~0.5 s of CPU to start against ~2.3 s through tsx),
 * built first if stale, so a build is never measured.
 */
export async function ingestInChild(
  args: string[],
  env: Record<string, string>,
): Promise<{ ms: number; peakRssMb: number; cpuMs: number; stepCpuMs: Map<string, number>; stdout: string }> {
  await ensureBundle(TARGETS.ingest);
  const t = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['ingest/cli-launch.cjs', 'ingest', ...args, '--quiet'], {
      env: { ...process.env, ...env, REPORT_PEAK_RSS: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`ingest exited ${code}: ${err || out}`));
      const m = out.match(/peak_rss_mb=(\d+)/);
      const cpu = out.match(/cpu_ms=(\d+)/);
      const stepCpuMs = new Map([...out.matchAll(/^step_cpu_ms\[(.+)\]=(\d+)$/gm)].map((s) => [s[1], Number(s[2])]));
      resolve({ ms: performance.now() - t, peakRssMb: m ? Number(m[1]) : NaN, cpuMs: cpu ? Number(cpu[1]) : NaN, stepCpuMs, stdout: out });
    });
  });
}

/**
 * Issue #20 item 3's targets for an ingest against the bare engine (the 13F and N-PORT benches): CPU within this many
 * times the bare COPY's, and the process's peak RSS within this many MB. Each run prints whether it holds them, so a
 * miss shows in the bench's output, not only in the figures beside it.
 */
const INGEST_TARGETS = { cpuRatio: 4, peakRssMb: 1500 };

/** The targets beside a run's figures, and whether the run holds each (`cpuRatio` null: a run with no CPU target). */
export function ingestTargetFigures(cpuRatio: number | null, peakRssMb: number): Record<string, number | string> {
  return {
    ...(cpuRatio === null ? {} : { target_cpu_ratio: INGEST_TARGETS.cpuRatio, cpu_target: cpuRatio <= INGEST_TARGETS.cpuRatio ? 'met' : 'missed' }),
    target_peak_rss_mb: INGEST_TARGETS.peakRssMb,
    rss_target: peakRssMb <= INGEST_TARGETS.peakRssMb ? 'met' : 'missed',
  };
}

/**
 * The bare engine baseline of an ingest bench: DuckDB's `read_csv` of each `[input, output]` straight into a zstd
 * Parquet file, in its own process (`bare-copy-child.ts`), so the CPU (the COPYs alone) and peak RSS are its own.
 */
export function bareCopyInChild(copies: [input: string, output: string][]): Promise<{ cpuMs: number; peakRssMb: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/bench/bare-copy-child.ts', ...copies.flat()], { stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.on('data', (c) => (text += c));
    child.stderr.on('data', (c) => (text += c));
    child.on('close', (code) => {
      const cpu = text.match(/cpu_ms=(\d+)/);
      const rss = text.match(/peak_rss_mb=(\d+)/);
      if (code !== 0 || !cpu || !rss) return reject(new Error(`bare COPY exited ${code}: ${text}`));
      resolve({ cpuMs: Number(cpu[1]), peakRssMb: Number(rss[1]) });
    });
  });
}

/**
 * Wall time of one child process (Node itself unless `command` names another, e.g. npm) from spawn to exit, its
 * output discarded; throws on a non-zero exit.
 */
export async function processWallMs(args: string[], env: Record<string, string> = {}, command = process.execPath): Promise<number> {
  const t = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c) => (err += c));
    child.on('close', (code) => (code === 0 ? resolve(performance.now() - t) : reject(new Error(`${args.join(' ')} exited ${code}: ${err}`))));
  });
}

/**
 * Runs each command (one child process to its end, resolving to its wall time) `runs` times, interleaved so that all
 * see the same load: per command its wall times and the CPU of the children it ran (`childrenCpuMs`), and the load
 * average before → after.
 */
export async function interleavedChildRuns<K extends string>(
  commands: Record<K, () => Promise<number>>,
  runs: number,
): Promise<{ wall: Record<K, number[]>; cpu: Record<K, number[]>; load: string }> {
  const names = Object.keys(commands) as K[];
  const wall = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<K, number[]>;
  const cpu = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<K, number[]>;
  const loadBefore = loadavg()[0];
  for (let i = 0; i < runs; i++) {
    for (const name of names) {
      const cpuBefore = childrenCpuMs();
      wall[name].push(await commands[name]());
      cpu[name].push(childrenCpuMs() - cpuBefore);
    }
  }
  return { wall, cpu, load: `${loadBefore.toFixed(1)}→${loadavg()[0].toFixed(1)}` };
}

/**
 * CPU time (user + system, ms) of this process's finished children so far, from Linux's /proc (cutime + cstime,
 * which include their own waited-for children, npm's for instance); NaN elsewhere. Unlike wall time it hardly moves
 * with the machine's load, so it compares runs measured on a busy shared machine.
 */
function childrenCpuMs(): number {
  try {
    const perSecond = clockTicksPerSecond(); // first: its getconf child would count otherwise
    const fields = readFileSync('/proc/self/stat', 'utf8')
      .replace(/^.*\) /s, '')
      .split(' ');
    // Fields 16 and 17 of proc(5), counted from the state (field 3) here; in clock ticks.
    return ((Number(fields[13]) + Number(fields[14])) * 1000) / perSecond;
  } catch {
    return NaN;
  }
}

let ticks: number | undefined;
function clockTicksPerSecond(): number {
  ticks ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  return ticks;
}
