import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lakeEventReader } from '../../api/monitors/runtime.ts';
import type { Lake } from '../../api/core/lake.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { writeEventDays } from '../support/event-days.ts';

/**
 * The monitor scanner reads the events after its position from the day folders that can hold them, not the whole
 * feed each poll (230-300 ms of CPU at 18M events in 3,650 day folders). A later day never holds a smaller `seq`
 * (the events writer files a batch under the newest day when its clock stands before it), so those are the newest
 * folders back to the first whose smallest `seq` is at most the position's. Counted here: the folders each poll reads.
 */

const DAYS = 400;
/** Event `i` of the generated feed (`writeEventDays`, two a day): id `ev-<i>`, seq `i + 1`. */
const position = (seq: number) => ({ seq, id: `ev-${seq - 1}` });

describe('the monitor scanner reads the day folders from its position on', () => {
  let app: TestApp;
  /** The day folders of each relation the reader asked for, in order. */
  const read: string[][] = [];
  let reader: ReturnType<typeof lakeEventReader>;
  beforeAll(async () => {
    app = await createTestApp({ routes: [] });
    await writeEventDays(app.settings.lakeDir, DAYS, 2);
    await app.services.lake.refresh();
    const lake = app.services.lake;
    const counted: Pick<Lake, 'query' | 'partitions' | 'relation'> = {
      query: (sql, params, opts) => lake.query(sql, params, opts),
      partitions: (table) => lake.partitions(table),
      relation: (table, partitions) => {
        read.push([...partitions]);
        return lake.relation(table, partitions);
      },
    };
    reader = lakeEventReader(counted);
  });
  afterAll(() => app.close());

  const poll = async (after: { seq: number; id: string }, limit: number) => {
    read.length = 0;
    return (await reader(after, limit)).map((e) => e.seq);
  };

  /** The folders probed one at a time before the read, and the read's folders. */
  const probesAndRead = () => ({ probes: read.slice(0, -1), read: read.at(-1) });
  /** Probes a poll may take: the newest folder, the oldest, then halving. */
  const MOST_PROBES = 2 + Math.ceil(Math.log2(DAYS));

  it('a scanner that keeps up reads the newest folder alone, and every event after its position', async () => {
    // Caught up, or a few events behind in the newest folder: one probe, one folder read.
    expect(await poll(position(800), 100)).toEqual([]);
    expect(read).toEqual([['2017-02-03'], ['2017-02-03']]);
    expect(await poll(position(799), 100)).toEqual([800]);
    expect(read).toHaveLength(2);
    // The first event of the third-newest day: that day's second event and the two newer days'.
    expect(await poll(position(795), 100)).toEqual([796, 797, 798, 799, 800]);
    const { probes, read: days } = probesAndRead();
    expect(days).toEqual(['2017-02-01', '2017-02-02', '2017-02-03']);
    expect(probes.every((p) => p.length === 1)).toBe(true);
    expect(probes.length).toBeLessThanOrEqual(MOST_PROBES);
  });

  it('a scanner that has read nothing starts from the oldest event; one far behind reads from its own day on', async () => {
    expect(await poll({ seq: -1, id: '' }, 3)).toEqual([1, 2, 3]);
    expect(read.map((days) => days.length)).toEqual([DAYS]);
    // Days behind, the folders are found by halving: a few probes, not one per folder.
    expect(await poll(position(4), 3)).toEqual([5, 6, 7]);
    expect(probesAndRead().read).toHaveLength(DAYS - 1);
    expect(probesAndRead().probes.length).toBeLessThanOrEqual(MOST_PROBES);
    expect(await poll(position(401), 2)).toEqual([402, 403]);
    expect(probesAndRead().read?.[0]).toBe('2016-07-19');
    expect(probesAndRead().probes.length).toBeLessThanOrEqual(MOST_PROBES);
  });
});
