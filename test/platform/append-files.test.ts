import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDuck, queryRows, sqlString } from '../../ingest/lake/duck.ts';
import { APPEND_PREFIX, partitionDir, viewSql } from '../../ingest/lake/layout.ts';
import { type LakeReader, openLakeReader } from '../../ingest/lake/reader.ts';
import { defineTable } from '../../schemas/table.ts';

/**
 * A partition holding the live lane's append files reads as the fold will write it: one row per primary key, the
 * newest file's (docs/live-lane.md, "Reading before the fold"). Written by hand here, file by file, so each case
 * (a key rewritten twice, a key only in the data file, a key only in an append, the same key in another partition)
 * is in the files exactly once.
 */
const table = defineTable({
  name: 'toy_appended',
  description: 'append-file reads',
  columns: {
    part: { type: 'VARCHAR', nullable: false },
    id: { type: 'VARCHAR', nullable: false },
    v: { type: 'VARCHAR' },
  },
  partitionBy: 'part',
  sortBy: ['id'],
  primaryKey: ['id'],
  writeMode: 'merge',
});

let root: string;
let reader: LakeReader;

async function writeFile(part: string, name: string, rows: [string, string | null][]): Promise<void> {
  const dir = partitionDir(join(root, 'lake'), table, part);
  await mkdir(dir, { recursive: true });
  const { instance, conn } = await openDuck();
  try {
    const values = rows.map(([id, v]) => `(${sqlString(id)}, ${v === null ? 'NULL' : sqlString(v)})`).join(', ');
    await conn.run(`COPY (SELECT *, 1 AS parser_version FROM (VALUES ${values}) t(id, v)) TO ${sqlString(join(dir, name))} (FORMAT parquet)`);
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'append-files-'));
  await writeFile('a', 'data.parquet', [
    ['k1', 'old'],
    ['k2', 'data only'],
  ]);
  await writeFile('a', `${APPEND_PREFIX}000000000000001-x.parquet`, [
    ['k1', 'newer'],
    ['k3', 'append only'],
  ]);
  await writeFile('a', `${APPEND_PREFIX}000000000000002-y.parquet`, [['k1', 'newest']]);
  // Another partition: the same key, and no append file of its own.
  await writeFile('b', 'data.parquet', [
    ['k1', 'b data'],
    ['k4', null],
  ]);
  reader = await openLakeReader(join(root, 'lake'), [table], {}, { serving: false });
});

afterAll(async () => {
  await reader?.close();
  await rm(root, { recursive: true, force: true });
});

const expected = [
  { part: 'a', id: 'k1', v: 'newest' },
  { part: 'a', id: 'k2', v: 'data only' },
  { part: 'a', id: 'k3', v: 'append only' },
  { part: 'b', id: 'k1', v: 'b data' },
  { part: 'b', id: 'k4', v: null },
];

describe('reading a partition beside its live append files', () => {
  it("the table's view holds each key once, with the newest file's values, partition by partition", async () => {
    expect(await reader.query('SELECT part, id, v FROM toy_appended ORDER BY part, id')).toEqual(expected);
  });

  it("a page's relation over some partitions reads the same rows", async () => {
    const rel = reader.relation(table.name, ['a']);
    expect(await reader.query(`SELECT part, id, v FROM ${rel.sql} ORDER BY id`)).toEqual(expected.filter((r) => r.part === 'a'));
    const both = reader.relation(table.name, ['a', 'b']);
    expect(await reader.query(`SELECT part, id, v FROM ${both.sql} WHERE id = $1 ORDER BY part`, ['k1'])).toEqual(expected.filter((r) => r.id === 'k1'));
  });

  it("the analysts' view (npm run sql) reads the same rows", async () => {
    const { instance, conn } = await openDuck();
    try {
      await conn.run(viewSql(join(root, 'lake'), table));
      expect(await queryRows(conn, 'SELECT part, id, v FROM toy_appended ORDER BY part, id')).toEqual(expected);
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
  });
});
