import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createTestApp } from '../support/harness.ts';
import { fixturePath, hasFixtures } from '../support/fixtures.ts';
import { extractOwnershipXml, parseOwnershipXml } from '../../ingest/sources/edgar/ownership/form4-xml.ts';
import { parseXml } from '../../ingest/sources/common/xml-tree.ts';
import { writeInsiderSample } from '../../ingest/datasets/insider/sample.ts';
import { latency, type BenchResult } from './support.ts';

/**
 * Form 3/4/5 ownership XML documents per second on one core (goal > 5,000/s), next to `parseXml` of xml-tree.ts
 * on the same documents as the baseline (the same htmlparser2 tokenizer building a generic element tree, no field
 * extraction: roughly the floor for any parser of ours); then the insider data-set ingest
 * (DuckDB read_csv) of a generated quarter and `/v1/insider` latency. BENCH_SCALE scales the quarter
 * (1 ≈ 15,000 filings; a real quarter has 50-70k filings: BENCH_SCALE=4).
 */
function docsPerSecond(docs: string[], fn: (xml: string) => unknown, ms = 3000): number {
  for (let i = 0; i < 200; i++) for (const d of docs) fn(d);
  const t = performance.now();
  let n = 0;
  while (performance.now() - t < ms) {
    for (const d of docs) fn(d);
    n += docs.length;
  }
  return Math.round(n / ((performance.now() - t) / 1000));
}

export default async function (): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  if (hasFixtures) {
    const dir = fixturePath('ownership');
    const docs = readdirSync(dir)
      .filter((f) => !f.endsWith('.html'))
      .map((f) => extractOwnershipXml(readFileSync(join(dir, f), 'utf8')))
      .filter((x): x is string => x != null);
    const kb = Math.round((docs.reduce((a, d) => a + d.length, 0) / docs.length / 1024) * 10) / 10;
    results.push({
      name: `insider: ownership XML parse, ${docs.length} real Form 3/4/5 documents (avg ${kb} KB), one core`,
      figures: {
        parseOwnershipXml_docs_per_s: docsPerSecond(docs, (x) => parseOwnershipXml(x)),
        xml_tree_parse_docs_per_s: docsPerSecond(docs, (x) => parseXml(x)),
        goal_docs_per_s: 5000,
      },
    });
  } else {
    results.push({ name: 'insider: ownership XML parse', figures: { skipped: 'fixtures not found (set SHARED_DIR)' } });
  }

  const app = await createTestApp();
  try {
    const scale = 250 * Number(process.env.BENCH_SCALE ?? 1);
    const dir = join(app.dataDir, 'bench-insider');
    await writeInsiderSample(dir, { seed: 7, scale });
    const ingest = await app.ingest('insider', { from: dir }, { skipDiff: true });
    results.push({
      name: `insider: data-set quarter ingest (${Math.round(60 * scale)} filings, DuckDB read_csv)`,
      figures: { rows: ingest.rowsWritten, bad_rows: ingest.badRows, ms: Math.round(ingest.elapsedMs), rows_per_s: ingest.rowsPerSecond },
    });
    const q = '/v1/insider?issuer_cik=320193&trans_code=S&limit=25';
    const first = await app.get(q);
    if (first.status !== 200) throw new Error(`bench query failed: ${first.status} ${JSON.stringify(first.body)}`);
    results.push({ name: 'insider: /v1/insider issuer_cik+trans_code', figures: { ...(await latency(() => app.get(q), 100)), rows: first.body.data.length } });
    const wide = '/v1/insider?min_value_usd=1000000&date_from=2024-07-01&limit=100';
    results.push({ name: 'insider: /v1/insider min_value_usd+date_from, limit 100', figures: await latency(() => app.get(wide), 50) });
  } finally {
    await app.close();
  }
  return results;
}
