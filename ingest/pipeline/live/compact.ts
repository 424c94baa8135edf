import { join } from 'node:path';
import type { Settings } from '../../../schemas/settings.ts';
import type { TableSpec } from '../../../schemas/table.ts';
import { commitRun, type RunManifest } from '../../lake/commit.ts';
import { partitionDir } from '../../lake/layout.ts';
import { withLock } from '../../lake/lock.ts';
import { startRun } from '../../lake/scratch.ts';
import { createStagingTable } from '../../lake/staging.ts';
import { appendFiles, partitionRenames, writeStagedPartitions } from '../../lake/writer.ts';
import { explainMemoryError, openWorkDatabase, workMemoryLimit } from '../../lake/work-database.ts';

/**
 * Folds a partition's live append files back into its `data.parquet` once there are `threshold` or more of them
 * (one file a poll; reads slow down with many small files), under the table's ingest lock like any write, and
 * committed like an ingest (a manifest, then the renames and the folded files' removal: a crash is rolled forward),
 * in a work database with an ingest's memory bounds (`datasetMemoryLimit`: the ingester's `memoryLimit`). Returns the
 * partitions compacted.
 */
export async function compactAppends(settings: Settings, spec: TableSpec, values: string[], threshold: number, datasetMemoryLimit?: string): Promise<string[]> {
  const due: string[] = [];
  for (const v of values) if ((await appendFiles(partitionDir(settings.lakeDir, spec, v))).length >= threshold) due.push(v);
  if (!due.length) return [];
  return withLock(join(settings.lakeDir, spec.name, '.lock'), async () => {
    const scratch = await startRun(settings.dataDir, `compact-${spec.name}`);
    // The ingest's bounds (INGEST_MEMORY_LIMIT, else the dataset's own): a 13F quarter's fold rewrites 3M lines.
    const { instance, conn } = await openWorkDatabase(scratch.workDir, workMemoryLimit(settings, datasetMemoryLimit));
    try {
      await createStagingTable(conn, spec);
      const parts = await writeStagedPartitions(conn, settings.lakeDir, spec, scratch.id, new Map(), due);
      const manifest: RunManifest = {
        run: scratch.id,
        dataset: `compact-${spec.name}`,
        tables: [spec.name],
        renames: parts.flatMap(partitionRenames),
        removals: parts.flatMap((p) => p.superseded),
        changed: [],
        events: false,
      };
      await commitRun(settings.lakeDir, manifest);
      return parts.map((p) => p.value);
    } catch (err) {
      throw explainMemoryError(err, settings, datasetMemoryLimit);
    } finally {
      conn.closeSync();
      instance.closeSync();
      await scratch.finish();
    }
  });
}
