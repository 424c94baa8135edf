import { join } from 'node:path';
import { openDuck, sqlString } from '../../ingest/lake/duck.ts';
import { generatedColumns } from './generated-columns.ts';
import { eventsTable } from '../../schemas/tables/events.ts';

/**
 * `perDay` events a day in `days` day folders of the events table, from 2016-01-01 on, written by DuckDB's partitioned
 * COPY (a second or two for 3,650 folders): the many-folder lakes of the events walk's tests and the read-path bench.
 * `seq` follows the days, as the writer numbers appends in commit order. `columns`: expressions over `i` (the event's
 * number) for the columns left NULL otherwise (a company, a filing).
 */
export async function writeEventDays(lakeDir: string, days: number, perDay = 1, columns: Record<string, string> = {}): Promise<void> {
  const expr: Record<string, string> = {
    ...columns,
    id: `'ev-' || i`,
    event_type: `'sec.filing.new'`,
    importance: `'low'`,
    importance_rank: '1',
    confidence: '1.0',
    summary: `'event ' || i`,
    details: `'{}'`,
    evidence: `'[]'`,
    dedup_key: `'k' || i`,
    detected_at: `TIMESTAMP '2016-01-01' + to_days(CAST(i // ${perDay} AS INTEGER))`,
    seq: 'i + 1',
    detected_date: `DATE '2016-01-01' + CAST(i // ${perDay} AS INTEGER)`,
  };
  const select = generatedColumns(eventsTable, expr);
  const { instance, conn } = await openDuck(':memory:', { threads: '2' });
  try {
    await conn.run(
      `COPY (SELECT ${select} FROM range(${days * perDay}) t(i)) TO ${sqlString(join(lakeDir, eventsTable.name))} ` +
        '(FORMAT parquet, COMPRESSION zstd, PARTITION_BY (detected_date), OVERWRITE_OR_IGNORE)',
    );
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}
