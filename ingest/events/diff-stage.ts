import { openLakeReader } from '../lake/reader.ts';
import type { Settings } from '../../schemas/settings.ts';
import { appendEvents, type SqlDrafts } from './writer.ts';
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
  drafted: number;
  appended: number;
}

export async function runDiffStage(settings: Settings, changed: ChangedTable[], opts: { quiet?: boolean; only?: string[] } = {}): Promise<DiffSummary> {
  const handlers = diffHandlers.filter((h) => h.tables.some((t) => changed.some((c) => c.table === t)) && (!opts.only || opts.only.includes(h.name)));
  const summary: DiffSummary = { handlers: handlers.length, drafted: 0, appended: 0 };
  if (!handlers.length) return summary;
  const lake = await openLakeReader(settings.lakeDir);
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
    summary.drafted = drafts.length + sql.length;
    summary.appended = await appendEvents(settings, drafts, { lake, sql });
    log(`${summary.appended} new event(s) appended`);
  } finally {
    lake.close();
  }
  return summary;
}
