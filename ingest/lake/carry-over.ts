import { randomUUID } from 'node:crypto';
import type { DuckDBConnection } from '@duckdb/node-api';
import { queryRows, sqlIdent, sqlString } from './duck.ts';
import type { TableSpec } from '../../schemas/table.ts';

/**
 * A merge's carry-over: inserts into `staging` the rows of a partition's `files` whose primary key the run did not
 * stage, so the partition keeps them. The files hold no partition column (it is the folder name): it is added back as
 * `value`, so a key may include it.
 *
 * File by file, the keys to carry are found first, from the key columns alone (`EXCEPT` the staged keys), then only
 * those rows are read whole. A 10M-line N-PORT partition merged with the same data set again took 6.9 s of CPU this
 * way (and 15.9 s with 1M of its lines to carry), where one statement reading the partition's rows whole against the
 * staged keys ran out of memory at the 1GB limit (its window over the file's rows), and without that window took
 * 97–106 s (docs/13f-funds.md).
 *
 * Several files (the live lane's append files beside `data.parquet`, folded in here: compaction): for a key in several
 * files the newest file wins, so a retried live batch never leaves two rows. `files` come oldest first
 * (`data.parquet`, then `part-live-<time>` by name): a file's keys are also superseded by those of the files after it.
 * With few superseding keys against a large file, the file's rows are read once past them (an anti-join) instead: the
 * same 10M-line partition with one append file of 10,000 rows, nothing staged (a compaction), took 23.6 s of CPU at a
 * peak RSS of 1,190 MB (67.2 s and 1,425 MB through the list of the keys to carry, nearly all of the file's); the
 * window over whole rows ran out of memory at 1GB.
 */
export async function carryOverRows(
  conn: DuckDBConnection,
  staging: string,
  spec: TableSpec,
  value: string,
  files: string[],
  /** Called with the rows to carry over (a relation) before they are inserted: sort-codes.ts's `admit`. */
  admit: (relation: string) => Promise<void>,
): Promise<void> {
  // Oldest first (`data.parquet`, then the append files by time): a file's rows give way to the run's and to newer files'.
  for (const [i, file] of files.entries()) await carryFromFile(conn, staging, spec, value, file, files.slice(i + 1), admit);
}

async function carryFromFile(
  conn: DuckDBConnection,
  staging: string,
  spec: TableSpec,
  value: string,
  file: string,
  newer: string[],
  admit: (relation: string) => Promise<void>,
): Promise<void> {
  const part = sqlIdent(spec.partitionBy);
  const rowsOf = (f: string) => `(SELECT *, ${sqlString(value)} AS ${part} FROM read_parquet(${sqlString(f)}, hive_partitioning = false))`;
  // The partition column is compared as text on both sides, as the folder name is.
  const key = (alias: string) => spec.primaryKey.map((c) => (c === spec.partitionBy ? `CAST(${alias}.${sqlIdent(c)} AS VARCHAR)` : `${alias}.${sqlIdent(c)}`));
  const named = (alias: string) => key(alias).map((k, i) => `${k} AS k${i}`);
  const superseding = [
    `SELECT ${named('s').join(', ')} FROM ${staging} s WHERE CAST(s.${part} AS VARCHAR) = ${sqlString(value)}`,
    ...newer.map((f) => `SELECT ${named('n').join(', ')} FROM ${rowsOf(f)} n`),
  ].join(' UNION ALL ');
  const on = (alias: string) =>
    key('e')
      .map((k, i) => `${k} IS NOT DISTINCT FROM ${alias}.k${i}`)
      .join(' AND ');
  // Few superseding keys against a large file (a compaction, a small run into a big quarter): the file's rows are read
  // once, past those keys, with no list of the keys to carry (which would be nearly all of the file's).
  const count = async (from: string) => Number((await queryRows(conn, `SELECT count(*)::BIGINT AS n FROM ${from}`))[0].n);
  let supersedingRows = await count(`${staging} WHERE CAST(${part} AS VARCHAR) = ${sqlString(value)}`);
  for (const f of newer) supersedingRows += await count(`read_parquet(${sqlString(f)})`);
  const few = 2 * supersedingRows < (await count(`read_parquet(${sqlString(file)})`));
  // Otherwise the keys to carry first, from the key columns alone. EXCEPT compares NULLs as equal, as IS NOT DISTINCT
  // FROM does.
  const carry = few ? null : sqlIdent(`carry_${randomUUID().slice(0, 8)}`);
  if (carry) await conn.run(`CREATE TEMP TABLE ${carry} AS SELECT ${named('e').join(', ')} FROM ${rowsOf(file)} e EXCEPT (${superseding})`);
  try {
    // A quarter merged again carries nothing: no admission, no read of its rows.
    if (carry && (await count(carry)) === 0) return;
    const carried = carry
      ? `(SELECT e.* FROM ${rowsOf(file)} e SEMI JOIN ${carry} c ON ${on('c')})`
      : `(SELECT e.* FROM ${rowsOf(file)} e ANTI JOIN (${superseding}) x ON ${on('x')})`;
    await admit(carried);
    await conn.run(`INSERT INTO ${staging} BY NAME SELECT * FROM ${carried}`);
  } finally {
    if (carry) await conn.run(`DROP TABLE IF EXISTS ${carry}`);
  }
}
