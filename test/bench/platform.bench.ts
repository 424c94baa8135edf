import { loadIngesters } from '../../ingest/pipeline/registry.ts';
import { createTestApp } from '../support/harness.ts';
import { latency, type BenchResult } from './support.ts';

/**
 * Platform figures: ingest rows/s of every dataset's demo sample through the real pipeline, then p50/p99 of a
 * first page (limit 25) of every list endpoint over real HTTP. BENCH_SCALE multiplies the sample sizes. Throughput
 * with 1, 2 and 4 API processes has its own area: scale-out.bench.ts. The analyst path's cold start (`npm run sql`) has its own area: sql-cli.bench.ts.
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
  } finally {
    await app.close();
  }
  return out;
}
