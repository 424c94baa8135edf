import { ingestSamples } from '../../ingest/pipeline/samples.ts';
import type { IngestSummary } from '../../ingest/pipeline/runner.ts';
import type { Settings } from '../../schemas/settings.ts';

/**
 * The demo lake of `api/demo.ts` (`make demo`), for tests: the same samples, seed, scale and order, so golden,
 * contract and fuzz suites see the data a user sees after `make demo`. Unlike the demo script, which reports a
 * failing dataset and goes on, this throws (naming every failing dataset) so a test never runs against a partly
 * built lake.
 *
 * The ingest pipeline reads the wall clock (catalog `last_refresh`, hence `as_of`; event timestamps) and events get
 * random ids: a caller that needs byte-stable answers freezes `Date` around this call (see test/golden).
 */
export async function buildDemoLake(settings: Settings, opts: { seed?: number; scale?: number } = {}): Promise<IngestSummary[]> {
  const outcomes = await ingestSamples(settings, opts);
  const failures = outcomes.flatMap((o) => ('error' in o ? [`${o.dataset.name}: ${o.error.message}`] : []));
  if (failures.length) throw new Error(`demo lake: ${failures.length} dataset(s) failed to ingest:\n  ${failures.join('\n  ')}`);
  return outcomes.flatMap((o) => ('summary' in o ? [o.summary] : []));
}
