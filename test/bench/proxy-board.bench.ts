import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTestApp } from '../support/harness.ts';
import { fixturePath, hasFixtures } from '../support/fixtures.ts';
import { extractProxy } from '../../ingest/sources/edgar/proxy/extract.ts';
import { readProxySubmission } from '../../ingest/sources/edgar/proxy/submission.ts';
import { writeIrs990Sample } from '../../ingest/datasets/irs990/sample.ts';
import { writeProxySample } from '../../ingest/datasets/proxy/sample.ts';
import { latency, type BenchResult } from './support.ts';

/**
 * Extractor speed on the real proxies, 990 ingest throughput, and the three endpoints' latency over a
 * lake of generated returns (default 5,000 returns ≈ 17,500 people; BENCH_SCALE multiplies it; the IRS
 * publishes ~300,000 990/990-EZ returns a year, i.e. BENCH_SCALE=60).
 */
export default async function (): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  if (hasFixtures) {
    for (const rel of ['proxy/def14a_180_degree_capital_2020_full_submission.txt', 'proxy/def14a_cabot_corp_inline_xbrl.htm']) {
      const text = await readFile(fixturePath(rel), 'utf8');
      const doc = readProxySubmission(text, rel);
      const t = await latency(async () => extractProxy(doc.html), 10, 2);
      results.push({ name: `proxy-board: extractProxy ${rel.split('/')[1]}`, figures: { ...t, html_mb: Math.round(doc.html.length / 1e4) / 100 } });
    }
  }
  const returns = Math.round(5000 * Number(process.env.BENCH_SCALE ?? 1));
  const app = await createTestApp();
  try {
    const dir990 = join(app.dataDir, 'bench-990');
    await writeIrs990Sample(dir990, { seed: 99, scale: returns / 4 });
    const irs = await app.ingest('irs990', { from: dir990 }, { skipDiff: true });
    results.push({
      name: `proxy-board: ingest ${returns} Form 990/990-EZ returns`,
      figures: {
        rows: irs.rowsWritten,
        bad_rows: irs.badRows,
        ms: Math.round(irs.elapsedMs),
        rows_per_s: Math.round(irs.rowsPerSecond),
        returns_per_s: Math.round(returns / (irs.elapsedMs / 1000)),
      },
    });
    const dirProxy = join(app.dataDir, 'bench-proxy');
    await writeProxySample(dirProxy, { seed: 5, scale: 100 });
    const px = await app.ingest('proxy', { from: dirProxy }, { skipDiff: true });
    results.push({
      name: 'proxy-board: ingest 300 generated DEF 14A submissions',
      figures: { rows: px.rowsWritten, ms: Math.round(px.elapsedMs), filings_per_s: Math.round(300 / (px.elapsedMs / 1000)) },
    });
    const queries = [
      '/v1/board?person_name=Jane%20Doe&limit=25',
      '/v1/board?source_type=irs_990&role=officer&organization_name=food&limit=25',
      '/v1/proxy/officers?min_age=60&is_independent=true&limit=25',
      '/v1/compensation?min_total_usd=3000000&min_fiscal_year=2022&limit=25',
    ];
    for (const q of queries) {
      const first = await app.get(q);
      if (first.status !== 200) throw new Error(`bench query failed: ${q} ${first.status}`);
      results.push({ name: `proxy-board: ${q}`, figures: { ...(await latency(() => app.get(q), 100)), rows: first.body.data.length } });
    }
    return results;
  } finally {
    await app.close();
  }
}
