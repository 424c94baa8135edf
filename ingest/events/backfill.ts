import { readCatalogEntry } from '../lake/catalog.ts';
import { diffHandlers } from './diff.ts';
import { runDiffStage, type DiffSummary } from './diff-stage.ts';
import type { ChangedTable } from './handler.ts';
import { quarterBounds } from '../sources/common/normalize.ts';
import type { Settings } from '../../schemas/settings.ts';

/** The date span a partition value stands for: a quarter, a year, a month or a day; null when not a period. */
function partitionSpan(value: string): { start: string; end: string } | null {
  const q = quarterBounds(value);
  if (q) return { start: q.start, end: q.end };
  if (/^\d{4}$/.test(value)) return { start: `${value}-01-01`, end: `${value}-12-31` };
  if (/^\d{4}-\d{2}$/.test(value)) {
    const last = new Date(Date.UTC(Number(value.slice(0, 4)), Number(value.slice(5, 7)), 0)).getUTCDate();
    return { start: `${value}-01`, end: `${value}-${last}` };
  }
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return { start: value, end: value };
  return null;
}

/**
 * Recomputes events for the partitions of every diff input table that overlap [from, to]. The writer's dedup
 * makes it safe to run any number of times: only events missing from the feed are appended.
 */
export async function backfillEvents(
  settings: Settings,
  from: string,
  to: string,
  opts: { only?: string[]; quiet?: boolean } = {},
): Promise<DiffSummary & { partitions: ChangedTable[] }> {
  const handlers = diffHandlers.filter((h) => !opts.only || opts.only.includes(h.name));
  const tables = [...new Set(handlers.flatMap((h) => h.tables))];
  const changed: ChangedTable[] = [];
  for (const table of tables) {
    const entry = await readCatalogEntry(settings.lakeDir, table);
    const partitions = (entry?.partitions ?? [])
      .map((p) => p.value)
      .filter((v) => {
        const span = partitionSpan(v);
        return span ? span.start <= to && span.end >= from : true;
      });
    if (partitions.length) changed.push({ table, partitions });
  }
  const summary = await runDiffStage(settings, changed, { quiet: opts.quiet, only: opts.only });
  return { ...summary, partitions: changed };
}
