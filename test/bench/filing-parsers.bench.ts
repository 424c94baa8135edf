import { createTestApp } from '../support/harness.ts';
import { hasFixtures } from '../support/fixtures.ts';
import { startUpstream } from '../filing-parsers/upstream-server.ts';
import { latency, percentile, type BenchResult } from './support.ts';

/**
 * Per-filing parsers on CACHED filings (the second request does no network I/O, so this is parse + serve
 * time): /extract on the 1.5 MB Apple 10-K and the 2.1 MB Union Pacific-sized case, /subsidiaries, /events.
 * Full-text proxy overhead: our response time minus the upstream's own time, with the local upstream answering
 * the recorded EFTS response after a fixed delay (BENCH_EFTS_DELAY_MS, default 150 ms, a typical EFTS latency).
 */
export default async function (): Promise<BenchResult[]> {
  if (!hasFixtures) return [{ name: 'filing-parsers: skipped (no ../shared fixtures)', figures: {} }];
  const n = Math.round(50 * Number(process.env.BENCH_SCALE ?? 1));
  const up = await startUpstream();
  const app = await createTestApp({ env: { SEC_BASE_URL: up.url, SEC_EFTS_BASE_URL: up.url } });
  const results: BenchResult[] = [];
  try {
    const cases: [string, string][] = [
      ['extract 10-K Item 1A (Apple FY2024, 1.5 MB iXBRL)', '/v1/filings/0000320193-24-000123/extract?item=1A'],
      ['extract 10-K Item 7 (Apple FY2024)', '/v1/filings/0000320193-24-000123/extract?item=7'],
      ['extract 8-K Item 5.02 (Nordstrom)', '/v1/filings/0000072333-23-000015/extract?item=5.02'],
      ['subsidiaries EX-21.1 (Tesla, in a submission)', '/v1/filings/0001564590-20-004475/subsidiaries?cik=1318605'],
      ['events 8-K (Adobe, index + documents)', '/v1/filings/0000796343-23-000044/events'],
    ];
    for (const [name, path] of cases) {
      const first = await app.get(path);
      if (first.status !== 200) throw new Error(`bench request failed: ${path} ${first.status} ${JSON.stringify(first.body)}`);
      const before = up.stats.requests;
      const figures = await latency(() => app.get(path), n, 3);
      results.push({ name: `filing-parsers: ${name}, cached`, figures: { ...figures, upstream_requests: up.stats.requests - before } });
    }

    up.eftsDelayMs = Number(process.env.BENCH_EFTS_DELAY_MS ?? 150);
    const ours: number[] = [];
    const q = '/v1/full-text?q=%22climate%20change%22&forms=8-K&limit=100';
    for (let i = 0; i < 3; i++) await app.get(q);
    for (let i = 0; i < Math.max(20, Math.round(n / 2)); i++) {
      const t = performance.now();
      const r = await app.get(q);
      if (r.status !== 200) throw new Error(`full-text failed: ${r.status}`);
      ours.push(performance.now() - t);
    }
    const overhead = ours.map((ms) => ms - up.eftsDelayMs);
    results.push({
      name: "filing-parsers: /v1/full-text 100 hits, overhead over the upstream's own time",
      figures: {
        upstream_ms: up.eftsDelayMs,
        total_p50_ms: percentile(ours, 50),
        overhead_p50_ms: percentile(overhead, 50),
        overhead_p99_ms: percentile(overhead, 99),
        runs: ours.length,
      },
    });
  } finally {
    await app.close();
    await up.close();
  }
  return results;
}
