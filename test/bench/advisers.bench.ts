import { join } from 'node:path';
import { createTestApp } from '../support/harness.ts';
import { DEMO_FIRMS } from '../../ingest/samples/firms.ts';
import { writeRosterSample } from '../../ingest/datasets/advisers/sample.ts';
import { latency, type BenchResult } from './support.ts';

/**
 * `/v1/advisers` with three filters over a generated 20,000-adviser snapshot (the target; a real
 * month has ~23,000 registered + exempt advisers). BENCH_SCALE multiplies the roster size.
 */
export default async function (): Promise<BenchResult[]> {
  const advisers = Math.round(20_000 * Number(process.env.BENCH_SCALE ?? 1));
  const app = await createTestApp();
  try {
    const dir = join(app.dataDir, 'bench-roster');
    await writeRosterSample(dir, { seed: 2026, scale: advisers / DEMO_FIRMS });
    const ingest = await app.ingest('advisers', { from: dir }, { skipDiff: true });
    const results: BenchResult[] = [
      {
        name: `advisers: ingest roster zips (${ingest.rowsWritten} advisers)`,
        figures: { rows: ingest.rowsWritten, bad_rows: ingest.badRows, ms: Math.round(ingest.elapsedMs), rows_per_s: Math.round(ingest.rowsPerSecond) },
      },
    ];
    const three = '/v1/advisers?aum_min=100000000&state=NY&has_private_funds=true&limit=25';
    const first = await app.get(three);
    if (first.status !== 200) throw new Error(`bench query failed: ${first.status} ${JSON.stringify(first.body)}`);
    results.push({
      name: 'advisers: /v1/advisers aum_min+state+has_private_funds',
      figures: { ...(await latency(() => app.get(three), 200)), rows: first.body.data.length },
    });
    const cursor = first.body.page.next_cursor as string | null;
    if (cursor) {
      const next = `${three}&cursor=${encodeURIComponent(cursor)}`;
      results.push({ name: 'advisers: same, second page (keyset cursor)', figures: await latency(() => app.get(next), 100) });
    }
    const q = '/v1/advisers?q=capital&disciplinary=false&aum_max=5000000000&limit=25';
    results.push({ name: 'advisers: /v1/advisers q+disciplinary+aum_max', figures: await latency(() => app.get(q), 100) });
    const crd = first.body.data[0]?.crd;
    if (crd) results.push({ name: 'advisers: /v1/advisers/{crd}', figures: await latency(() => app.get(`/v1/advisers/${crd}`), 100) });
    return results;
  } finally {
    await app.close();
  }
}
