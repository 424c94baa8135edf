import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { DatasetIngester } from '../../ingest/pipeline/contract.ts';
import { loadIngesters } from '../../ingest/pipeline/registry.ts';
import { runIngest, type IngestSummary } from '../../ingest/pipeline/runner.ts';
import type { Settings } from '../../schemas/settings.ts';

/**
 * The demo lake of `ingest/demo.ts` (`make demo`), for tests: every dataset writes its sample and the real
 * ingester reads it back (`--from`, no network). Same seed, scale and order as the demo, so golden, contract
 * and fuzz suites all see the data a user sees after `make demo`.
 */

/** The entity directory and the filing index first: later ingesters resolve issuers and tickers against them. */
const DEMO_FIRST = ['entities', 'filings'];
const DEMO_SEED = 42;
const DEMO_SCALE = 1;

/** Every ingester with a sample writer, in the demo's order (`entities`, `filings`, then the rest by name). */
async function demoIngesters(): Promise<DatasetIngester[]> {
  const rank = (name: string) => {
    const i = DEMO_FIRST.indexOf(name);
    return i < 0 ? DEMO_FIRST.length : i;
  };
  return [...(await loadIngesters())].filter((d) => d.sample).sort((a, b) => rank(a.name) - rank(b.name) || a.name.localeCompare(b.name));
}

/**
 * Writes each sample under `<dataDir>/samples/<dataset>` and ingests it into `settings.lakeDir`. Unlike the demo
 * script, which reports a failing dataset and goes on, this throws (naming every failing dataset) so a test
 * never runs against a partly built lake.
 *
 * The ingest pipeline reads the wall clock (catalog `last_refresh`, hence `as_of`; event timestamps) and events get
 * random ids: a caller that needs byte-stable answers freezes `Date` around this call (see test/golden).
 */
export async function buildDemoLake(settings: Settings, opts: { seed?: number; scale?: number } = {}): Promise<IngestSummary[]> {
  const samplesDir = join(settings.dataDir, 'samples');
  await rm(samplesDir, { recursive: true, force: true });
  const summaries: IngestSummary[] = [];
  const failures: string[] = [];
  for (const d of await demoIngesters()) {
    const dir = join(samplesDir, d.name);
    try {
      await d.sample!(dir, { seed: opts.seed ?? DEMO_SEED, scale: opts.scale ?? DEMO_SCALE });
      summaries.push(await runIngest(d, { from: dir }, settings, { quiet: true }));
    } catch (err) {
      failures.push(`${d.name}: ${(err as Error).message}`);
    }
  }
  if (failures.length) throw new Error(`demo lake: ${failures.length} dataset(s) failed to ingest:\n  ${failures.join('\n  ')}`);
  return summaries;
}
