import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Settings } from '../../schemas/settings.ts';
import type { DatasetIngester } from './contract.ts';
import { dependencyOrder, loadIngesters } from './registry.ts';
import { runIngest, type IngestSummary } from './runner.ts';

/** The demo's sample universe: `make demo` and the tests that stand for it use the same seed and size. */
const DEMO_SAMPLE = { seed: 42, scale: 1 };

export type SampleOutcome = { dataset: DatasetIngester; summary: IngestSummary } | { dataset: DatasetIngester; error: Error };

/**
 * Every dataset with a sample writer writes its sample (our own files in the publisher's real format) under
 * `<dataDir>/samples/<name>` and its real ingester reads it back with `--from`, in dependency order. A failing
 * dataset is reported in its outcome and the others go on; the caller decides whether that is fatal.
 */
export async function ingestSamples(
  settings: Settings,
  opts: { seed?: number; scale?: number; onOutcome?: (o: SampleOutcome) => void } = {},
): Promise<SampleOutcome[]> {
  const samplesDir = join(settings.dataDir, 'samples');
  await rm(samplesDir, { recursive: true, force: true });
  const outcomes: SampleOutcome[] = [];
  for (const dataset of dependencyOrder(await loadIngesters())) {
    if (!dataset.sample) continue;
    const dir = join(samplesDir, dataset.name);
    let outcome: SampleOutcome;
    try {
      await dataset.sample(dir, { seed: opts.seed ?? DEMO_SAMPLE.seed, scale: opts.scale ?? DEMO_SAMPLE.scale });
      outcome = { dataset, summary: await runIngest(dataset, { from: dir }, settings, { quiet: true }) };
    } catch (err) {
      outcome = { dataset, error: err as Error };
    }
    outcomes.push(outcome);
    opts.onOutcome?.(outcome);
  }
  return outcomes;
}
