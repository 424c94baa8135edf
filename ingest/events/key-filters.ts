import { openDuck } from '../lake/duck.ts';
import { writeMissingKeyFilters } from '../lake/key-filter.ts';
import { withLock } from '../lake/lock.ts';
import { eventsTable } from '../../schemas/tables/events.ts';
import type { Settings } from '../../schemas/settings.ts';
import { eventsLock } from './writer.ts';

/**
 * `npm run events -- key-filters`: writes the key filters of every events file that has none (a lake written before
 * them), under the events writer's lock, so that company and filing pages skip those days too (docs/read-path.md,
 * "Key filters"). At 500 events a file, 6 ms of CPU a file: 18 s for 3,650 days (make bench BENCH=event-filters).
 */
export async function backfillEventKeyFilters(
  settings: Settings,
  progress: (done: number, of: number) => void = () => {},
): Promise<{ files: number; written: number; skipped: number }> {
  return withLock(eventsLock(settings), async () => {
    const { instance, conn } = await openDuck(':memory:', { threads: '1' });
    try {
      return await writeMissingKeyFilters(conn, settings.lakeDir, eventsTable, progress);
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
  });
}
