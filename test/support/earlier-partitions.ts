import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { openDuck, sqlIdent, sqlString } from '../../ingest/lake/duck.ts';
import { writeKeyIndexes } from '../../ingest/lake/key-index.ts';
import type { TableSpec } from '../../schemas/table.ts';

/** One copy of a partition's rows, `years` earlier: columns replaced by SQL expressions, rows kept by a condition. */
export interface EarlierCopy {
  years: number;
  replace?: Record<string, string>;
  where?: string;
}

/** A date's calendar quarter in SQL, as the ingest derives `filed_quarter` (2024Q3). */
export const quarterOf = (date: string) => `strftime(${date}, '%Y') || 'Q' || quarter(${date})`;

/**
 * Writes the rows of the one partition a sample left in `dir` (a table's folder) again for each copy, `years` earlier
 * (`date` and the partition moved together; `of` gives the partition of a date, in SQL), as the writer lays a
 * partition out: `data.parquet` without the partition column, sorted by the table's `sortBy`, with its key index when
 * the table declares some. Returns the table's partition folders, newest first.
 */
export async function addEarlierPartitions(
  dir: string,
  spec: TableSpec,
  date: string,
  copies: EarlierCopy[],
  of: (date: string) => string = quarterOf,
): Promise<string[]> {
  const [current] = (await readdir(dir)).filter((f) => f.includes('='));
  const src = `read_parquet(${sqlString(join(dir, current, '*.parquet'))}, hive_partitioning = false)`;
  const part = sqlIdent(spec.partitionBy);
  const { instance, conn } = await openDuck();
  try {
    for (const [n, { years, replace = {}, where = 'true' }] of copies.entries()) {
      const moved = `CAST(${sqlIdent(date)} - INTERVAL ${years} YEAR AS DATE)`;
      const set = [`${moved} AS ${sqlIdent(date)}`, ...Object.entries(replace).map(([c, e]) => `${e} AS ${sqlIdent(c)}`)];
      const tmp = join(dir, `.earlier-${n}`);
      await conn.run(
        `COPY (SELECT * REPLACE (${set.join(', ')}), ${of(moved)} AS ${part} FROM ${src} WHERE ${where} ` +
          `ORDER BY ${spec.sortBy.map(sqlIdent).join(', ')}) TO ${sqlString(tmp)} (FORMAT parquet, COMPRESSION zstd, PARTITION_BY (${part}))`,
      );
      for (const folder of await readdir(tmp)) {
        const [file, ...more] = await readdir(join(tmp, folder));
        if (more.length) throw new Error(`${folder}: one file expected`);
        const out = join(dir, folder);
        await mkdir(out, { recursive: true });
        await rename(join(tmp, folder, file), join(out, 'data.parquet'));
        await writeKeyIndexes(conn, spec, join(out, 'data.parquet'), out);
      }
      await rm(tmp, { recursive: true });
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
