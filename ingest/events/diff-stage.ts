import { join } from 'node:path';
import { openLakeReader } from '../lake/reader.ts';
import { startRun } from '../lake/scratch.ts';
import { explainMemoryError, memoryBounds, workMemoryLimit } from '../lake/work-database.ts';
import type { Settings } from '../../schemas/settings.ts';
import { writeEvents, type SqlDrafts } from './writer.ts';
import { diffHandlers } from './diff.ts';
import type { EventDraft } from '../../schemas/events.ts';
import type { ChangedTable } from './handler.ts';

/**
 * The diff stage: after an ingest writes partitions, each handler interested in one of the changed tables
 * reads the lake and drafts events; the events writer appends those whose dedup_key is new.
 * Handlers live in `ingest/events/handlers/`, listed in `ingest/events/diff.ts`.
 */
export interface DiffSummary {
  handlers: number;
  /** Drafts the handlers made, before the writer's dedup. */
  drafted: number;
  appended: number;
}

export async function runDiffStage(
  settings: Settings,
  changed: ChangedTable[],
  opts: { quiet?: boolean; only?: string[]; datasetMemoryLimit?: string } = {},
): Promise<DiffSummary> {
  const handlers = diffHandlers.filter((h) => h.tables.some((t) => changed.some((c) => c.table === t)) && (!opts.only || opts.only.includes(h.name)));
  const summary: DiffSummary = { handlers: handlers.length, drafted: 0, appended: 0 };
  if (!handlers.length) return summary;
  // Bounded like an ingest's work database (INGEST_MEMORY_LIMIT, else the ingest's dataset's own limit, else 1GB),
  // spilling into a run's scratch: the stage also runs inside the server (the live lane), and on DuckDB's defaults a
  // real 13F quarter took it to 6.0 GB. The handlers read Parquet, not the serving copies: attaching those and
  // reading their lookups cost 260 MB of the peak and no CPU saved (docs/events.md, "Memory").
  const scratch = await startRun(settings.dataDir, 'diff');
  const duckSettings = memoryBounds(workMemoryLimit(settings, opts.datasetMemoryLimit), join(scratch.workDir, 'spill'));
  const lake = await openLakeReader(settings.lakeDir, [], {}, { serving: false, duckSettings }).catch(async (err) => {
    await scratch.finish();
    throw explainMemoryError(err, settings, opts.datasetMemoryLimit);
  });
  const log = (m: string) => {
    if (!opts.quiet) process.stderr.write(`[events] ${m}\n`);
  };
  try {
    const drafts: EventDraft[] = [];
    const sql: SqlDrafts[] = [];
    for (const h of handlers) {
      const relevant = changed.filter((c) => h.tables.includes(c.table));
      const out = await h.run({ lake, settings, log }, relevant);
      drafts.push(...(out.drafts ?? []));
      sql.push(...(out.sql ?? []));
    }
    Object.assign(summary, await writeEvents(settings, drafts, { lake, sql, workDir: scratch.workDir }));
    log(`${summary.appended} new event(s) appended`);
  } catch (err) {
    throw explainMemoryError(err, settings, opts.datasetMemoryLimit);
  } finally {
    await lake.close();
    await scratch.finish();
  }
  return summary;
}
