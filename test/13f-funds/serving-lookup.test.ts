import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDuck, queryRows } from '../../ingest/lake/duck.ts';
import { attachServing, writeServingCopy } from '../../ingest/lake/serving.ts';
import { fileFingerprint, TOP_ROWS } from '../../ingest/lake/summary.ts';
import { holdings13f } from '../../schemas/tables/13f.ts';
import { allColumns, defineTable, type TableSpec } from '../../schemas/table.ts';

/**
 * Lookup columns of a serving copy (TableSpec.servingLookup, ingest/lake/serving.ts): a value repeated on every row of
 * its key (a filing's text on each of its lines) is stored once per key beside the rows, which leave it out. A file in
 * which some key carries two values of such a column gets a copy with every column on every row.
 */
const spec: TableSpec = {
  name: 'lookup_probe',
  description: 'serving-lookup test table',
  columns: {
    part: { type: 'VARCHAR', nullable: false },
    filing: { type: 'VARCHAR', nullable: false },
    n: { type: 'INTEGER', nullable: false },
    filer: { type: 'VARCHAR' },
    filed: { type: 'DATE' },
    amount: { type: 'BIGINT' },
  },
  partitionBy: 'part',
  sortBy: ['amount', 'filing', 'n'],
  primaryKey: ['filing', 'n'],
  servingLookup: { key: 'filing', columns: ['filer', 'filed', 'parser_version'] },
};

describe('serving copy lookups', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'serving-lookup-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Writes a partition file of `spec` (filings f0…f49, 20 lines each), its copy, and attaches the copy. */
  async function copyOf(name: string, filerSql: string, table: TableSpec = spec) {
    const partDir = join(dir, `part=${name}`);
    mkdirSync(partDir);
    const file = join(partDir, 'data.parquet');
    const copy = join(partDir, 'data.duckdb');
    const { instance, conn } = await openDuck(':memory:', { threads: '2', preserve_insertion_order: 'false' });
    await conn.run(
      `COPY (SELECT 'f' || (i // 20) AS filing, (i % 20)::INTEGER AS n, ${filerSql} AS filer, DATE '2025-01-01' + (i // 20)::INTEGER AS filed, ` +
        `(i * 7919 % 1000)::BIGINT AS amount, 3 AS parser_version FROM range(1000) t(i) ORDER BY amount, filing, n) TO '${file}' (FORMAT parquet)`,
    );
    await writeServingCopy(conn, table, file, copy);
    const attached = await attachServing(conn, 'c', copy, await fileFingerprint(file), Object.keys(allColumns(table)));
    const columns = async (table: string) =>
      (await queryRows(conn, `SELECT column_name FROM duckdb_columns() WHERE database_name = 'c' AND table_name = '${table}' ORDER BY column_index`)).map(
        (r) => r.column_name,
      );
    return { conn, instance, file, attached, columns };
  }

  it('stores the lookup columns once per key, out of the rows, and reads them back by key', async () => {
    // The filer is a function of the filing (NULL for every line of f7): the lookup holds it.
    const { conn, instance, attached, columns } = await copyOf('a', `CASE WHEN i // 20 = 7 THEN NULL ELSE 'Filer ' || (i // 20) END`);
    try {
      expect(await columns('rows')).toEqual(['part', 'filing', 'n', 'amount']);
      expect(await columns('lookup')).toEqual(['filing', 'filer', 'filed', 'parser_version']);
      expect(attached?.lookup?.key).toBe('filing');
      expect(attached?.lookup?.columns).toEqual(['filer', 'filed', 'parser_version']);
      expect(attached?.lookup?.values.size).toBe(50);
      expect(attached?.lookup?.values.get('f3')).toEqual({ filer: 'Filer 3', filed: '2025-01-04', parser_version: 3 });
      expect(attached?.lookup?.values.get('f7')).toEqual({ filer: null, filed: '2025-01-08', parser_version: 3 });
      const [{ n }] = await queryRows(conn, 'SELECT count(*)::INTEGER AS n FROM c.rows');
      expect(n).toBe(1000);
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
  });

  it('copies whose lookups hold the same content share one set of values in a reader; others, and copies without a digest, read their own', async () => {
    const filer = `'Filer ' || (i // 20)`;
    const { conn, instance } = await copyOf('s1', filer);
    try {
      const twin = await copyOf('s2', filer);
      twin.conn.closeSync();
      twin.instance.closeSync();
      const other = await copyOf('s3', `'Other ' || (i // 20)`);
      other.conn.closeSync();
      other.instance.closeSync();
      // A copy written before its meta recorded the digest: the same copy with the column dropped.
      const older = join(dir, 'part=s4');
      mkdirSync(older);
      await conn.run(`COPY (SELECT * FROM read_parquet('${join(dir, 'part=s2', 'data.parquet')}')) TO '${join(older, 'data.parquet')}' (FORMAT parquet)`);
      await conn.run(`ATTACH '${join(dir, 'part=s2', 'data.duckdb')}' AS src (READ_ONLY)`);
      await conn.run(`ATTACH '${join(older, 'data.duckdb')}' AS old`);
      for (const t of ['rows', 'lookup', 'top', 'meta']) {
        if ((await queryRows(conn, `SELECT 1 FROM duckdb_tables() WHERE database_name = 'src' AND table_name = '${t}'`)).length) {
          await conn.run(`CREATE TABLE old.${t} AS SELECT * FROM src.${t}`);
        }
      }
      await conn.run(`UPDATE old.meta SET data_fingerprint = '${await fileFingerprint(join(older, 'data.parquet'))}'`);
      await conn.run('ALTER TABLE old.meta DROP COLUMN lookup_digest');
      await conn.run('DETACH old');
      await conn.run('DETACH src');
      const names = Object.keys(allColumns(spec));
      const cache = new Map();
      const attach = async (alias: string, part: string) =>
        attachServing(conn, alias, join(dir, `part=${part}`, 'data.duckdb'), await fileFingerprint(join(dir, `part=${part}`, 'data.parquet')), names, cache);
      await conn.run('DETACH c');
      const [a, b, c, d] = [await attach('x1', 's1'), await attach('x2', 's2'), await attach('x3', 's3'), await attach('x4', 's4')];
      expect(a?.lookup?.values.get('f3')).toEqual({ filer: 'Filer 3', filed: '2025-01-04', parser_version: 3 });
      // The same content: one Map, read once.
      expect(b?.lookup?.values).toBe(a?.lookup?.values);
      // Other content, and no digest recorded: each its own, with its own values.
      expect(c?.lookup?.values).not.toBe(a?.lookup?.values);
      expect(c?.lookup?.values.get('f3')).toEqual({ filer: 'Other 3', filed: '2025-01-04', parser_version: 3 });
      expect(d?.lookup?.values).not.toBe(a?.lookup?.values);
      expect(d?.lookup?.values).toEqual(a?.lookup?.values);
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
  });

  it('a key with two values of a lookup column, or a value on only some of its lines: the copy keeps every column on every row', async () => {
    for (const [name, filer] of [
      ['two-values', `CASE WHEN i = 45 THEN 'Other' ELSE 'Filer ' || (i // 20) END`],
      ['some-null', `CASE WHEN i = 45 THEN NULL ELSE 'Filer ' || (i // 20) END`],
    ]) {
      const { conn, instance, file, attached, columns } = await copyOf(name, filer);
      try {
        expect(attached?.lookup, name).toBeNull();
        expect(await columns('rows'), name).toEqual(Object.keys(allColumns(spec)));
        expect(await columns('lookup'), name).toEqual([]);
        const fileRows = `SELECT ${Object.keys(allColumns(spec)).join(', ')} FROM read_parquet('${file}', hive_partitioning = true)`;
        const [{ differ }] = await queryRows(conn, `SELECT count(*)::INTEGER AS differ FROM (SELECT * FROM c.rows EXCEPT ALL ${fileRows})`);
        expect(differ, name).toBe(0);
      } finally {
        conn.closeSync();
        instance.closeSync();
      }
    }
  });

  it('a table with a key summary: the copy keeps each key’s TOP_ROWS largest rows in its top table', async () => {
    // Keyed by the line number: 20 keys of 50 rows each, more than TOP_ROWS.
    const { conn, instance, attached, columns } = await copyOf('top', `'Filer ' || (i // 20)`, { ...spec, summary: { key: 'n', max: 'amount' } });
    try {
      expect(attached?.top).toBe(true);
      expect(await columns('top')).toEqual(await columns('rows'));
      const [{ n, keys }] = await queryRows(conn, 'SELECT count(*)::INTEGER AS n, count(DISTINCT n)::INTEGER AS keys FROM c.top');
      expect([n, keys]).toEqual([20 * TOP_ROWS, 20]);
      // Each key's kept rows are its largest: none left out is larger than the smallest kept.
      const [{ wrong }] = await queryRows(
        conn,
        'SELECT count(*)::INTEGER AS wrong FROM c.rows r WHERE NOT EXISTS (SELECT 1 FROM c.top t WHERE t.filing = r.filing AND t.n = r.n) ' +
          'AND r.amount > (SELECT min(amount) FROM c.top t WHERE t.n = r.n)',
      );
      expect(wrong).toBe(0);
      // Stored in key order (the window's hash order was compressed at the checkpoint: more CPU, more bytes).
      const [{ unordered }] = await queryRows(
        conn,
        'SELECT count(*)::INTEGER AS unordered FROM (SELECT n < lag(n) OVER (ORDER BY rowid) AS back FROM c.top) WHERE back',
      );
      expect(unordered).toBe(0);
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
    // Without a key summary, no top table.
    const plain = await copyOf('plain', `'Filer ' || (i // 20)`);
    try {
      expect(plain.attached?.top).toBe(false);
    } finally {
      plain.conn.closeSync();
      plain.instance.closeSync();
    }
  });

  it('a copy is attached only when its rows hold the table’s columns now, and counts its top table only when of the same', async () => {
    const table = { ...spec, summary: { key: 'n', max: 'amount' } };
    const { conn, instance, file, attached } = await copyOf('columns', `'Filer ' || (i // 20)`, table);
    try {
      expect(attached).not.toBeNull();
      await conn.run('DETACH c');
      const copy = join(dir, 'part=columns', 'data.duckdb');
      const fp = await fileFingerprint(file);
      const columns = Object.keys(allColumns(table));
      // The table gained a column since the copy was written: the copy is not read (its Parquet file is).
      expect(await attachServing(conn, 'd', copy, fp, [...columns, 'added'])).toBeNull();
      // A top table not of the rows' columns counts as none.
      await conn.run(`ATTACH '${copy}' AS e`);
      await conn.run('ALTER TABLE e.top DROP COLUMN amount');
      await conn.run('DETACH e');
      expect((await attachServing(conn, 'f', copy, fp, columns))?.top).toBe(false);
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
  });

  it('a table refuses a lookup column that pages partition, sort, key or summarize by, and a key or column it lacks', () => {
    const base = { ...spec, servingLookup: undefined };
    expect(() => defineTable({ ...base, servingLookup: { key: 'filing', columns: ['amount'] } })).toThrow(
      /lookup column amount is a partition, sort, key or summary column/,
    );
    expect(() => defineTable({ ...base, servingLookup: { key: 'filing', columns: ['part'] } })).toThrow(/lookup column part is a partition/);
    expect(() => defineTable({ ...base, servingLookup: { key: 'nope', columns: ['filer'] } })).toThrow(/lookup key nope not in columns/);
    expect(() => defineTable({ ...base, servingLookup: { key: 'filing', columns: ['filing'] } })).toThrow(/lookup column filing not in columns, or the key/);
    expect(() => defineTable({ ...base, servingLookup: { key: 'filing', columns: ['filer', 'parser_version'] } })).not.toThrow();
    // The 13F holdings keep their filters' and orders' columns on the rows.
    expect(holdings13f.servingLookup?.columns).not.toContain('is_current');
    expect(holdings13f.servingLookup?.columns).not.toContain('manager_cik');
  });
});
