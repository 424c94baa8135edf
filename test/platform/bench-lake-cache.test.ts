import { existsSync, lstatSync, readdirSync, realpathSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cachedLake, dataDirOver } from '../bench/lake-cache.ts';

/**
 * The bench lake cache (test/bench/lake-cache.ts) behind the peer and flatness benches: a lake is generated once per
 * size, reused by the next call, and what dead or older runs left is swept. 800 lines: 100 a quarter.
 */
describe('bench lake cache', () => {
  let root: string;
  const saved = { cache: process.env.BENCH_LAKE_CACHE, keep: process.env.BENCH_KEEP_LAKE };

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'bench-lake-cache-test-'));
    process.env.BENCH_LAKE_CACHE = root;
    delete process.env.BENCH_KEEP_LAKE;
  });
  afterAll(async () => {
    for (const [name, value] of [
      ['BENCH_LAKE_CACHE', saved.cache],
      ['BENCH_KEEP_LAKE', saved.keep],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await rm(root, { recursive: true, force: true });
  });

  it('generates a lake once with its summaries and serving copies, reuses it, and sweeps dead runs and other generator versions', async () => {
    // A dead run's half lake and another generator version's lake of the same size.
    await mkdir(join(root, 'holdings-800-0000000000.tmp-99999999'), { recursive: true });
    await mkdir(join(root, 'holdings-800-0000000000'), { recursive: true });
    await mkdir(join(root, 'holdings-1600-0000000000'), { recursive: true });

    const first = await cachedLake(800);
    expect(first.generatedS).not.toBeNull();
    expect(first.bytes).toBeGreaterThan(0);
    const quarters = readdirSync(join(first.lakeDir, 'holdings_13f')).sort();
    expect(quarters).toHaveLength(8);
    for (const copy of ['holdings_13f', 'holdings_13f_by_manager']) {
      expect(readdirSync(join(first.lakeDir, copy, quarters[0])).sort()).toEqual(['data.duckdb', 'data.parquet', 'data.summary']);
    }
    const names = readdirSync(root).sort();
    expect(names).toHaveLength(2);
    expect(names).toContain('holdings-1600-0000000000');
    expect(names.some((n) => /^holdings-800-[0-9a-f]{10}$/.test(n) && n !== 'holdings-800-0000000000')).toBe(true);

    const again = await cachedLake(800);
    expect(again.generatedS).toBeNull();
    expect(again.lakeDir).toBe(first.lakeDir);
    expect(again.cusips).toEqual(first.cusips);
    expect(again.managers).toEqual(first.managers);
    expect(again.bytes).toBe(first.bytes);

    const dataDir = await dataDirOver(first.lakeDir);
    try {
      expect(lstatSync(join(dataDir, 'lake')).isSymbolicLink()).toBe(true);
      expect(realpathSync(join(dataDir, 'lake'))).toBe(realpathSync(first.lakeDir));
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
    expect(existsSync(first.lakeDir)).toBe(true);

    await again.release();
    expect(existsSync(first.lakeDir)).toBe(true);
    process.env.BENCH_KEEP_LAKE = '0';
    await again.release();
    expect(existsSync(first.lakeDir)).toBe(false);
  });
});
