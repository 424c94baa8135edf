import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Settings } from '../../../schemas/settings.ts';
import type { TableSpec } from '../../../schemas/table.ts';
import { openDuck } from '../../lake/duck.ts';
import { partitionDir } from '../../lake/layout.ts';
import { withLock } from '../../lake/lock.ts';
import { createStagingTable } from '../../lake/staging.ts';
import { appendFiles, writeStagedPartitions } from '../../lake/writer.ts';

/**
 * Folds a partition's live append files back into its `data.parquet` once there are `threshold` or more of them
 * (one file a poll; reads slow down with many small files), under the table's ingest lock like any write.
 * Returns the partitions compacted.
 */
export async function compactAppends(settings: Settings, spec: TableSpec, values: string[], threshold: number): Promise<string[]> {
  const due: string[] = [];
  for (const v of values) if ((await appendFiles(partitionDir(settings.lakeDir, spec, v))).length >= threshold) due.push(v);
  if (!due.length) return [];
  return withLock(join(settings.lakeDir, spec.name, '.lock'), async () => {
    const workDir = join(settings.dataDir, '.work', `compact-${randomUUID().slice(0, 8)}`);
    await mkdir(workDir, { recursive: true });
    const { instance, conn } = await openDuck(join(workDir, 'work.duckdb'), { threads: '2', temp_directory: join(workDir, 'spill') });
    try {
      await createStagingTable(conn, spec);
      return (await writeStagedPartitions(conn, settings.lakeDir, spec, due)).map((p) => p.value);
    } finally {
      conn.closeSync();
      instance.closeSync();
      await rm(workDir, { recursive: true, force: true });
    }
  });
}
