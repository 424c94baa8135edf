/** The public surface of `ingest/pipeline` for the API (and other layers above): import from here, not from its files. */
export { discoverModules, loadModules, type ModuleLoader } from './discover.ts';
export { dependencyOrder, loadIngesters } from './registry.ts';
export { recoverInterruptedRuns } from './recover.ts';
export { runIngest } from './runner.ts';
export { ingestSamples } from './samples.ts';
export { createLiveLane, type LiveLane } from './live/lane.ts';
