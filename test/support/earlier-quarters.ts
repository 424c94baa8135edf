import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { openDuck, queryRows, sqlIdent, sqlString } from '../../ingest/lake/duck.ts';
import { KEY_INDEX_FILE, writeKeyIndex } from '../../ingest/lake/key-index.ts';
import type { TableSpec } from '../../schemas/table.ts';

/** One copy of a partition's rows, `years` earlier: columns replaced by SQL expressions, rows kept by a condition. */
export interface EarlierCopy {
  years: number;
  replace?: Record<string, string>;
  where?: string;
}

/**
 * Writes the rows of the one partition a sample left in `dir` (a quarter-partitioned table's folder) again for each
 * copy, `years` earlier (`date` and the quarter moved together), as the writer lays a partition out: sorted by the
 * table's `sortBy`, with its key index when the table declares one. Returns the partition folders, newest first.
 */
export async function addEarlierQuarters(dir: string, spec: TableSpec, date: string, copies: EarlierCopy[]): Promise<string[]> {
  const [current] = (await readdir(dir)).filter((f) => f.includes('='));
  const src = sqlString(join(dir, current, 'data.parquet'));
  const { instance, conn } = await openDuck();
  try {
    for (const { years, replace = {}, where = 'true' } of copies) {
      const moved = `CAST(${sqlIdent(date)} - INTERVAL ${years} YEAR AS DATE)`;
      const [{ q }] = await queryRows(conn, `SELECT DISTINCT strftime(${moved}, '%Y') || 'Q' || quarter(${moved}) AS q FROM read_parquet(${src})`);
      const out = join(dir, `${spec.partitionBy}=${q}`);
      await mkdir(out, { recursive: true });
      const set = [`${moved} AS ${sqlIdent(date)}`, ...Object.entries(replace).map(([c, e]) => `${e} AS ${sqlIdent(c)}`)];
      await conn.run(
        `COPY (SELECT * REPLACE (${set.join(', ')}) FROM read_parquet(${src}) WHERE ${where} ORDER BY ${spec.sortBy.map(sqlIdent).join(', ')}) ` +
          `TO ${sqlString(join(out, 'data.parquet'))} (FORMAT parquet, COMPRESSION zstd)`,
      );
      if (spec.keyIndex) await writeKeyIndex(conn, spec, join(out, 'data.parquet'), join(out, KEY_INDEX_FILE));
    }
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
  return (await readdir(dir))
    .filter((f) => f.includes('='))
    .sort()
    .reverse();
}
