import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { carryOverRows } from '../../ingest/lake/carry-over.ts';
import { openDuck, queryRows, sqlString } from '../../ingest/lake/duck.ts';
import { createStagingTable } from '../../ingest/lake/staging.ts';
import { defineTable } from '../../schemas/table.ts';

/**
 * A merge keeps a partition's rows the run did not stage (ingest/lake/carry-over.ts): from one file, the keys to carry
 * are found from the key columns first and only those rows are read whole (a 10M-line N-PORT partition merged again
 * ran out of memory at 1GB before); from several (the live lane's append files), the newest file's row of each key.
 */
const byId = defineTable({
  name: 'toy_carried',
  description: 'carry-over',
  columns: { part: { type: 'VARCHAR', nullable: false }, id: { type: 'VARCHAR', nullable: false }, v: { type: 'VARCHAR' } },
  partitionBy: 'part',
  sortBy: ['id'],
  primaryKey: ['id'],
  writeMode: 'merge',
});
// A key that includes the partition column, a DATE the file does not hold (it is the folder name).
const byDay = defineTable({
  name: 'toy_carried_daily',
  description: 'carry-over, dated key',
  columns: { day: { type: 'DATE', nullable: false }, id: { type: 'VARCHAR', nullable: false }, v: { type: 'VARCHAR' } },
  partitionBy: 'day',
  sortBy: ['id'],
  primaryKey: ['day', 'id'],
  writeMode: 'merge',
});

const none = async () => {};

describe('a merge’s carry-over of the rows a run did not stage', () => {
  let instance: DuckDBInstance;
  let conn: DuckDBConnection;
  let root: string;
  const file = async (name: string, rows: [string, string | null][]) => {
    const path = join(root, name);
    const values = rows.map(([id, v]) => `(${sqlString(id)}, ${v === null ? 'NULL' : sqlString(v)})`).join(', ');
    await conn.run(`COPY (SELECT *, 1 AS parser_version FROM (VALUES ${values}) t(id, v)) TO ${sqlString(path)} (FORMAT parquet)`);
    return path;
  };
  const staged = async (table: string) =>
    (await queryRows(conn, `SELECT CAST(${table === 'staging_toy_carried' ? 'part' : 'day'} AS VARCHAR) AS p, id, v FROM ${table} ORDER BY 1, 2`)).map(
      (r) => `${r.p}/${r.id}=${r.v}`,
    );

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'carry-over-'));
    ({ instance, conn } = await openDuck());
    await createStagingTable(conn, byId);
    await createStagingTable(conn, byDay);
  });
  afterAll(async () => {
    conn.closeSync();
    instance.closeSync();
    await rm(root, { recursive: true, force: true });
  });

  it('one file: its rows whose key is not staged join the staged ones, nulls and all; a staged key keeps the staged row', async () => {
    const data = await file('a.parquet', [
      ['k1', 'old'],
      ['k2', 'kept'],
      ['k3', null],
    ]);
    await conn.run(`INSERT INTO staging_toy_carried VALUES ('a', 'k1', 'new', 1), ('a', 'k9', 'added', 1), ('b', 'k2', 'other partition', 1)`);
    // The codes' admission (sort-codes.ts) sees the rows to carry, before they are staged.
    const admitted: string[][] = [];
    const admit = async (relation: string) => {
      admitted.push((await queryRows(conn, `SELECT id FROM ${relation} ORDER BY 1`)).map((r) => String(r.id)));
    };
    await carryOverRows(conn, 'staging_toy_carried', byId, 'a', [data], admit);
    expect(await staged('staging_toy_carried')).toEqual(['a/k1=new', 'a/k2=kept', 'a/k3=null', 'a/k9=added', 'b/k2=other partition']);
    // Nothing left to carry: a second pass adds no row, and leaves no work table behind.
    await carryOverRows(conn, 'staging_toy_carried', byId, 'a', [data], admit);
    expect(await staged('staging_toy_carried')).toHaveLength(5);
    expect(admitted).toEqual([['k2', 'k3']]);
    expect(await queryRows(conn, `SELECT table_name FROM duckdb_tables() WHERE table_name LIKE 'carry_%'`)).toEqual([]);
  });

  it('a key that includes a DATE partition column matches the folder’s value', async () => {
    const data = await file('d.parquet', [
      ['k1', 'old'],
      ['k2', 'kept'],
    ]);
    await conn.run(`INSERT INTO staging_toy_carried_daily VALUES (DATE '2026-01-05', 'k1', 'new', 1)`);
    await carryOverRows(conn, 'staging_toy_carried_daily', byDay, '2026-01-05', [data], none);
    expect(await staged('staging_toy_carried_daily')).toEqual(['2026-01-05/k1=new', '2026-01-05/k2=kept']);
  });

  it('several files: each key not staged is carried once, from the newest file', async () => {
    await conn.run('DELETE FROM staging_toy_carried');
    const data = await file('data.parquet', [
      ['k1', 'data'],
      ['k2', 'data only'],
      ['k4', 'staged over'],
    ]);
    const live = await file('part-live-000000000000001-x.parquet', [
      ['k1', 'newer'],
      ['k3', 'append only'],
    ]);
    await conn.run(`INSERT INTO staging_toy_carried VALUES ('c', 'k4', 'staged', 1)`);
    const admitted: string[] = [];
    const admit = async (relation: string) => {
      admitted.push(...(await queryRows(conn, `SELECT id || '=' || v AS r FROM ${relation} ORDER BY 1`)).map((r) => String(r.r)));
    };
    await carryOverRows(conn, 'staging_toy_carried', byId, 'c', [data, live], admit);
    expect(await staged('staging_toy_carried')).toEqual(['c/k1=newer', 'c/k2=data only', 'c/k3=append only', 'c/k4=staged']);
    // Handed over file by file: each file's own carried rows.
    expect(admitted.sort()).toEqual(['k1=newer', 'k2=data only', 'k3=append only']);
  });
  it('few superseding keys against a larger file (a compaction): the same rows, the file read once past those keys', async () => {
    await conn.run('DELETE FROM staging_toy_carried');
    const data = await file('big.parquet', [
      ['k1', 'data'],
      ['k2', 'data'],
      ['k3', 'data'],
      ['k4', 'data'],
      ['k5', null],
      ['k6', 'data'],
    ]);
    const live = await file('part-live-000000000000002-y.parquet', [['k3', 'newer']]);
    await conn.run(`INSERT INTO staging_toy_carried VALUES ('d', 'k2', 'staged', 1)`);
    const admitted: string[] = [];
    const paths: boolean[] = [];
    const admit = async (relation: string) => {
      // The large file past its two superseding keys (an anti-join); the one-row append file, with one staged key
      // against it, through the list of the keys to carry.
      paths.push(relation.includes('ANTI JOIN'));
      admitted.push(...(await queryRows(conn, `SELECT id FROM ${relation} ORDER BY 1`)).map((r) => String(r.id)));
    };
    await carryOverRows(conn, 'staging_toy_carried', byId, 'd', [data, live], admit);
    expect(paths).toEqual([true, false]);
    expect(await staged('staging_toy_carried')).toEqual(['d/k1=data', 'd/k2=staged', 'd/k3=newer', 'd/k4=data', 'd/k5=null', 'd/k6=data']);
    expect(admitted.sort()).toEqual(['k1', 'k3', 'k4', 'k5', 'k6']);
  });
});
