import { createReadStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createTestApp } from '../support/harness.ts';
import { GrantParser } from '../../ingest/sources/uspto/grant-xml.ts';
import { writeGrantFile } from '../../ingest/datasets/patents/sample.ts';
import { splitConcatenatedXml } from '../../ingest/sources/uspto/split.ts';
import { ingestInChild, latency, type BenchResult } from './support.ts';

/**
 * The weekly grant file streamed: split + parse documents/s and MB/s with the heap sampled throughout
 * (bounded memory = flat heap whatever the file size), the full ingest in a child process (peak RSS), and the
 * patent endpoint's latency. Default 20,000 generated grants (~176 MB); a real week is ~7,000 grants in
 * 0.6–1 GB because real descriptions are far longer: `BENCH_SCALE=4` writes a ~700 MB file.
 */
export default async function (): Promise<BenchResult[]> {
  const scale = Number(process.env.BENCH_SCALE ?? 1);
  const grants = Math.round(20_000 * scale);
  const dir = await mkdtemp(join(tmpdir(), 'ipg-bench-'));
  const results: BenchResult[] = [];
  try {
    const file = await writeGrantFile(dir, 2026, grants);
    const mb = (await stat(file)).size / 1e6;

    const parser = new GrantParser();
    let docs = 0;
    let peakHeap = 0;
    const t = performance.now();
    for await (const doc of splitConcatenatedXml(createReadStream(file, { highWaterMark: 1 << 20 }))) {
      if ('grant' in parser.parse(doc.xml)) docs++;
      if (docs % 500 === 0) peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
    }
    const s = (performance.now() - t) / 1000;
    results.push({
      name: `patents: split+parse ipg stream (${docs} grants, ${mb.toFixed(0)} MB)`,
      figures: {
        documents_per_s: Math.round(docs / s),
        mb_per_s: Math.round((mb / s) * 10) / 10,
        seconds: Math.round(s * 10) / 10,
        peak_heap_mb: Math.round(peakHeap / 1e6),
      },
    });

    const dataDir = join(dir, 'data');
    const child = await ingestInChild(['patents', '--from', file], { DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    results.push({
      name: `patents: full ingest in a child process (${grants} grants → Parquet)`,
      figures: { documents_per_s: Math.round(grants / (child.ms / 1000)), seconds: Math.round(child.ms / 100) / 10, peak_rss_mb: child.peakRssMb },
    });

    const app = await createTestApp();
    try {
      await app.ingest('patents', { from: file }, { skipDiff: true });
      const q = '/v1/uspto-patent-grants?assignee=siemens&kind_code=B2&claims_count_min=10&limit=25';
      const first = await app.get(q);
      if (first.status !== 200) throw new Error(`bench query failed: ${first.status} ${JSON.stringify(first.body)}`);
      results.push({
        name: 'patents: /v1/uspto-patent-grants assignee+kind_code+claims_count_min',
        figures: { ...(await latency(() => app.get(q), 100)), rows: first.body.data.length },
      });
      const one = first.body.data[0]?.patent_number;
      if (one)
        results.push({
          name: 'patents: /v1/uspto-patent-grants?patent_number=',
          figures: await latency(() => app.get(`/v1/uspto-patent-grants?patent_number=${one}`), 100),
        });
      await app.ingestSample('litigation', { seed: 1, scale: 20 });
      results.push({
        name: 'enforcement: /v1/litigation defendant+date range (600 releases)',
        figures: await latency(() => app.get('/v1/litigation?defendant=park&date_from=2023-01-01&limit=25'), 100),
      });
    } finally {
      await app.close();
    }
    return results;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
