import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterQuarterWritten, generateLake } from './13f-funds.bench.ts';
import { writeServingCopy } from '../../ingest/lake/serving.ts';
import { writePartitionSummary } from '../../ingest/lake/summary.ts';
import { processAlive } from '../../ingest/lake/process-alive.ts';

/**
 * Generated 13F holdings lakes kept between bench runs: at 10M lines the generator runs minutes on this 2-core
 * machine, at 50M longer, and a rerun of the peer or flatness bench should measure pages, not regenerate them.
 * One folder per size under BENCH_LAKE_CACHE (default `<system temp>/filings-bench-lakes`), named by the line count
 * and a hash of the generator's source (generateLake, its afterQuarterWritten hook and the summary and serving-copy
 * writers the hook calls): a changed generator never reuses a stale lake. The folder is built under a temp name and
 * renamed when complete, so a killed run leaves no half lake behind that a later run would take for whole. BENCH_KEEP_LAKE=0 deletes the lake after the run.
 */
export interface BenchLake {
  /** The lake folder (`<table>/period=<q>/data.parquet`), read-only for the bench. */
  lakeDir: string;
  /** Sample CUSIPs and manager CIKs present in every quarter (generateLake's return). */
  cusips: string[];
  managers: string[];
  /** Seconds the generation took in this run; null when the lake came from the cache. */
  generatedS: number | null;
  /** Bytes of the lake's files. */
  bytes: number;
  /** Removes the lake when BENCH_KEEP_LAKE=0; otherwise leaves it for the next run. */
  release(): Promise<void>;
}

interface Manifest {
  lines: number;
  cusips: string[];
  managers: string[];
  generatedS: number;
  bytes: number;
}

const MANIFEST = 'bench-lake.json';

function lakeCacheRoot(): string {
  return process.env.BENCH_LAKE_CACHE ?? join(tmpdir(), 'filings-bench-lakes');
}

function generatorHash(): string {
  const sources = [generateLake, afterQuarterWritten, writePartitionSummary, writeServingCopy];
  const hash = createHash('sha256');
  for (const f of sources) hash.update(f.toString());
  return hash.digest('hex').slice(0, 10);
}

export async function dirBytes(dir: string): Promise<number> {
  let total = 0;
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) total += await dirBytes(p);
    else if (e.isFile()) total += (await stat(p)).size;
  }
  return total;
}

/**
 * Removes what earlier runs left that no run can use: another generator version's lake of the same size, and the
 * temp folders of runs that died mid-generation.
 */
async function sweep(root: string, lines: number, current: string): Promise<void> {
  for (const name of await readdir(root)) {
    const tmp = name.match(/\.tmp-(\d+)$/);
    const stale = tmp ? !processAlive(Number(tmp[1])) : name.startsWith(`holdings-${lines}-`) && name !== current;
    if (stale) await rm(join(root, name), { recursive: true, force: true });
  }
}

/** The cached lake of `lines` holdings lines, generated (and cached) when missing. `progress` gets one line per step. */
export async function cachedLake(lines: number, progress: (step: string) => void = () => {}): Promise<BenchLake> {
  const root = lakeCacheRoot();
  await mkdir(root, { recursive: true });
  const name = `holdings-${lines}-${generatorHash()}`;
  const dir = join(root, name);
  await sweep(root, lines, name);
  const release = async () => {
    if (process.env.BENCH_KEEP_LAKE === '0') await rm(dir, { recursive: true, force: true });
  };
  if (existsSync(join(dir, MANIFEST))) {
    const m = JSON.parse(await readFile(join(dir, MANIFEST), 'utf8')) as Manifest;
    progress(`reusing the cached ${lines.toLocaleString('en-US')}-line lake ${dir}`);
    return { lakeDir: join(dir, 'lake'), cusips: m.cusips, managers: m.managers, generatedS: null, bytes: m.bytes, release };
  }
  progress(`generating a ${lines.toLocaleString('en-US')}-line lake into ${dir} (kept for the next run)`);
  const building = `${dir}.tmp-${process.pid}`;
  await rm(building, { recursive: true, force: true });
  try {
    const t = performance.now();
    const { cusips, managers } = await generateLake(join(building, 'lake'), lines);
    const generatedS = Math.round((performance.now() - t) / 100) / 10;
    const bytes = await dirBytes(join(building, 'lake'));
    const manifest: Manifest = { lines, cusips, managers, generatedS, bytes };
    await writeFile(join(building, MANIFEST), JSON.stringify(manifest, null, 2));
    await rename(building, dir);
    return { lakeDir: join(dir, 'lake'), cusips, managers, generatedS, bytes, release };
  } catch (err) {
    await rm(building, { recursive: true, force: true });
    throw err;
  }
}

/**
 * A fresh DATA_DIR for an API over a cached lake: its own state store, and `lake` a symlink to the cached folder (the
 * API only reads the lake). Remove it with `rm(dataDir, { recursive: true })`: that removes the link, not the lake.
 */
export async function dataDirOver(lakeDir: string, prefix = 'bench-data-'): Promise<string> {
  const dataDir = await mkdtemp(join(tmpdir(), prefix));
  await symlink(lakeDir, join(dataDir, 'lake'), 'dir');
  return dataDir;
}
