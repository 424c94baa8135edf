import { mkdtemp, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyRenames, removeManifest, writeManifest, type Rename } from '../../ingest/lake/commit.ts';
import { percentile, type BenchResult } from './support.ts';

const TABLES = 2;
const PARTITIONS = 8;
const RUNS = 50;

/**
 * The cost of committing a run's tables together: a manifest written and fsynced, the renames, the manifest removed,
 * against the baseline measured in the same run: the same renames alone (what the writer did before manifests).
 * 2 tables × 8 partitions + 2 catalog entries per commit; file sizes do not matter to a rename.
 */
export default async function commitBench(): Promise<BenchResult[]> {
  const lake = await mkdtemp(join(tmpdir(), 'filings-commit-bench-'));
  const stage = async (run: string): Promise<Rename[]> => {
    const out: Rename[] = [];
    for (let t = 0; t < TABLES; t++) {
      for (let p = 0; p < PARTITIONS; p++) {
        const dir = join(lake, `t${t}`, `p=${p}`);
        await mkdir(dir, { recursive: true });
        const from = join(dir, `.x-data.parquet.tmp-${run}`);
        await writeFile(from, 'x');
        out.push({ from, to: join(dir, 'data.parquet') });
      }
      const from = join(lake, `t${t}`, `_catalog.json.tmp-${run}`);
      await writeFile(from, '{}');
      out.push({ from, to: join(lake, `t${t}`, '_catalog.json') });
    }
    return out;
  };
  const time = async (fn: (run: string, renames: Rename[]) => Promise<void>): Promise<number[]> => {
    const ms: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const run = `bench-${i}`;
      const renames = await stage(run);
      const t0 = performance.now();
      await fn(run, renames);
      ms.push(performance.now() - t0);
    }
    return ms;
  };
  try {
    const base = await time(async (_run, renames) => {
      for (const r of renames) await rename(r.from, r.to);
    });
    const manifest = await time(async (run, renames) => {
      const m = { run, dataset: 'bench', tables: ['t0', 't1'], renames, changed: [], events: false };
      await writeManifest(lake, m);
      await applyRenames(m);
      await removeManifest(lake, run);
    });
    const files = TABLES * (PARTITIONS + 1);
    return [
      { name: `commit ${files} files: renames alone (baseline)`, figures: { p50_ms: percentile(base, 50), p99_ms: percentile(base, 99) } },
      { name: `commit ${files} files: manifest + fsync + renames`, figures: { p50_ms: percentile(manifest, 50), p99_ms: percentile(manifest, 99) } },
    ];
  } finally {
    await rm(lake, { recursive: true, force: true });
  }
}
