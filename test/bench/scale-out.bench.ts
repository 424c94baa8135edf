import { scaleOutBench } from './scale-out.ts';
import type { BenchResult } from './support.ts';

/**
 * `npx tsx test/bench/run.ts scale-out`: requests/s with 1, 2 and 4 API processes on one PostgreSQL state store beside
 * one process on the embedded store (test/bench/scale-out.ts), alone, without the platform area's ingest and list
 * figures that run before it there.
 */
export default function scaleOut(): Promise<BenchResult[]> {
  return scaleOutBench();
}
