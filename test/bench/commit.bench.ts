import { createReadStream } from 'node:fs';
import { mkdtemp, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commitRun, type Rename } from '../../ingest/lake/commit.ts';
import { checkComplete } from '../../ingest/sources/common/complete.ts';
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
      await commitRun(lake, m);
    });
    const files = TABLES * (PARTITIONS + 1);
    // The whole-file check of a CSV input (one pass: lines and quotes) against reading the same file and nothing else.
    const csv = join(lake, 'big.csv');
    const line = 'F000001,"Firm, Inc.",NY,123456789,Y\n';
    await writeFile(csv, line.repeat(Math.ceil((64 << 20) / line.length)));
    const t0 = performance.now();
    for await (const _ of createReadStream(csv));
    const readMs = performance.now() - t0;
    const t1 = performance.now();
    await checkComplete(csv);
    const checkMs = performance.now() - t1;
    return [
      { name: 'whole-file check, 64 MB CSV: plain read (baseline)', figures: { ms: Math.round(readMs) } },
      { name: 'whole-file check, 64 MB CSV: checkComplete', figures: { ms: Math.round(checkMs) } },
      { name: `commit ${files} files: renames alone (baseline)`, figures: { p50_ms: percentile(base, 50), p99_ms: percentile(base, 99) } },
      { name: `commit ${files} files: manifest + fsync + renames`, figures: { p50_ms: percentile(manifest, 50), p99_ms: percentile(manifest, 99) } },
    ];
  } finally {
    await rm(lake, { recursive: true, force: true });
  }
}
