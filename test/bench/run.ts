import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BenchResult } from './support.ts';

/**
 * `make bench [BENCH=name]`: runs every `test/bench/<area>.bench.ts` (default export: async () => BenchResult[])
 * and prints its figures. Figures only: targets are read by people, never asserted by a timed unit test.
 */
const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2).concat(process.env.BENCH ? [process.env.BENCH] : []);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .sort();
let failed = 0;
for (const f of files) {
  const area = f.replace(/\.bench\.ts$/, '');
  if (only.length && !only.includes(area)) continue;
  process.stdout.write(`\n== ${area}\n`);
  try {
    const mod = (await import(pathToFileURL(join(here, f)).href)) as { default: () => Promise<BenchResult[]> };
    for (const r of await mod.default()) {
      const figs = Object.entries(r.figures)
        .map(([k, v]) => `${k}=${typeof v === 'number' ? v.toLocaleString('en-US', { maximumFractionDigits: 2 }) : v}`)
        .join('  ');
      process.stdout.write(`${r.name.padEnd(58)} ${figs}\n`);
    }
  } catch (err) {
    failed++;
    process.stdout.write(`  FAILED: ${(err as Error).stack ?? err}\n`);
  }
}
process.exitCode = failed ? 1 : 0;
