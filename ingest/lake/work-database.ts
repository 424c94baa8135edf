import { join } from 'node:path';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { openDuck } from './duck.ts';
import type { Settings } from '../../schemas/settings.ts';

/** The DuckDB memory limit of a write's work database when neither INGEST_MEMORY_LIMIT nor the dataset sets one. */
export const DEFAULT_INGEST_MEMORY_LIMIT = '1GB';

/** INGEST_MEMORY_LIMIT when set, else the dataset's own default (`memoryLimit` of its ingester), else 1GB. */
export function workMemoryLimit(settings: Settings, datasetLimit?: string): string {
  return settings.INGEST_MEMORY_LIMIT ?? datasetLimit ?? DEFAULT_INGEST_MEMORY_LIMIT;
}

/** DuckDB out of memory within a write's bounds, its message saying which limit and how to raise it. */
class WorkMemoryError extends Error {}

/**
 * `err` as it is, unless DuckDB ran out of memory within the bounds `workMemoryLimit` gave: then the same message with
 * the limit, where it came from and the setting that raises it. DuckDB's own advice (`SET memory_limit`) is nothing an
 * operator of `npm run ingest`, `npm run events` or the server can act on. Wrapped once: an outer write (an ingest
 * around its diff stage) passes an inner one's on.
 */
export function explainMemoryError(err: unknown, settings: Settings, datasetLimit?: string): unknown {
  if (err instanceof WorkMemoryError || !(err instanceof Error) || !/Out of Memory Error/i.test(err.message)) return err;
  const from = settings.INGEST_MEMORY_LIMIT ? 'INGEST_MEMORY_LIMIT' : datasetLimit ? "the dataset's default" : 'the default';
  return new WorkMemoryError(
    `${err.message}\nThis ran within ${workMemoryLimit(settings, datasetLimit)} (${from}); ` +
      'set INGEST_MEMORY_LIMIT to a larger size (for example INGEST_MEMORY_LIMIT=2GB) and run it again (README, "Configuration").',
    { cause: err },
  );
}

/**
 * Opens the scratch DuckDB database (`<workDir>/work.duckdb`) of a write to the lake: an ingest batch, or a live
 * lane's compaction, which rewrites a whole partition and so needs the same bound (it ran on DuckDB's default, 80% of
 * the host's memory, inside the server that runs the lane).
 *
 * Memory (docs/13f-funds.md, "Memory"): peak RSS is DuckDB's limit plus what its allocator keeps cached plus the Node
 * process. At the real 13F size (3,070,968 lines) a 2GB limit peaked at 2,482 MB; a 1GB limit with freed memory handed
 * back early (`allocator_flush_threshold` 4MB instead of 128 MiB per thread, the allocator's background threads on)
 * at 1,428 MB (1,476-1,497 MB at 16MB), and a 10M-line N-PORT data set at 1,326 MB instead of 2,346-2,775 MB, with
 * the CPU within the runs' spread (sorts spill to `spill/`). Later, a real 13F quarter's breadth (24,000 securities)
 * and the serving copies took it to 1,483–1,601 MB at 1GB: 13F runs at 768MB (1,214–1,305 MB, the same CPU).
 */
export function openWorkDatabase(workDir: string, memoryLimit: string): Promise<{ instance: DuckDBInstance; conn: DuckDBConnection }> {
  return openDuck(join(workDir, 'work.duckdb'), {
    ...memoryBounds(memoryLimit, join(workDir, 'spill')),
    threads: '2',
    // No result held whole to keep its order: a writer sorts what it writes.
    preserve_insertion_order: 'false',
  });
}

/**
 * The DuckDB settings that bound a write's memory: the limit, the folder its sorts and joins spill to, and freed
 * memory handed back early. Shared by the work database and the diff stage's lake reader (ingest/events/diff-stage.ts).
 */
export function memoryBounds(memoryLimit: string, spillDir: string): Record<string, string> {
  return { memory_limit: memoryLimit, temp_directory: spillDir, allocator_flush_threshold: '4MB', allocator_background_threads: 'true' };
}
