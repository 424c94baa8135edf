import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { openDuck, queryRows, rowSet } from '../../ingest/lake/duck.ts';

/**
 * `rowSet` reads a whole table through one JSON text (a serving copy's lookup, a key summary): it must give exactly
 * the rows `queryRows` gives, value for value, whatever the text holds, and fall back to `queryRows` where JSON could
 * not carry a value exactly.
 */
let instance: DuckDBInstance;
let conn: DuckDBConnection;

/** Both readers' rows, sorted by `id`, for comparison (`rowSet` promises no order). */
async function both(sql: string): Promise<[Record<string, unknown>[], Record<string, unknown>[]]> {
  const byId = (a: Record<string, unknown>, b: Record<string, unknown>) => Number(a.id) - Number(b.id);
  return [(await rowSet(conn, sql)).sort(byId), (await queryRows(conn, sql)).sort(byId)];
}

beforeAll(async () => {
  ({ instance, conn } = await openDuck(':memory:', { threads: '2' }));
  await conn.run(`CREATE TABLE t (
    id INTEGER, s VARCHAR, b BOOLEAN, ti TINYINT, si SMALLINT, big BIGINT, hu HUGEINT, dec DECIMAL(18, 3), d DOUBLE, day DATE
  )`);
  await conn.run(`INSERT INTO t VALUES
    (1, 'plain', true, 1, 2, 3, 4, 5.5, 0.1, DATE '2024-12-31'),
    (2, 'quote " back \\ slash / tab ' || chr(9) || ' newline ' || chr(10) || ' ctl ' || chr(1), false, -128, -32768,
      9007199254740993, 170141183460469231731687303715884105727, -999999999999999.999, 5e-324, DATE '1900-02-28'),
    (3, 'unicode é 中文 🙂 ' || chr(8232), NULL, NULL, NULL, -9223372036854775808, -9007199254740991, 0.001, 1e300, DATE '0001-01-01'),
    (4, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
    (5, '', true, 127, 32767, 9007199254740991, 0, 0, -0.0, DATE '9999-12-31')`);
  // Sums whose doubles print with 17 digits.
  await conn.run('INSERT INTO t (id, d) SELECT 100 + i, i * 0.1 + 0.2 FROM range(50) r(i)');
});

afterAll(() => {
  conn?.closeSync();
  instance?.closeSync();
});

describe('rowSet', () => {
  it('gives the rows queryRows gives, value for value, over every type it reads through JSON', async () => {
    const [fast, plain] = await both('SELECT * FROM t');
    expect(fast).toHaveLength(55);
    expect(fast).toEqual(plain);
    // The typed values themselves, not only their agreement: BIGINT past 2^53 stays text, within it a number.
    const two = fast.find((r) => r.id === 2)!;
    expect(two.big).toBe('9007199254740993');
    expect(fast.find((r) => r.id === 5)!.big).toBe(9007199254740991);
    expect(two.s).toContain('"');
    expect(fast.find((r) => r.id === 1)!.day).toBe('2024-12-31');
  });

  it('reads an empty result as no rows', async () => {
    expect(await rowSet(conn, 'SELECT * FROM t WHERE id < 0')).toEqual([]);
  });

  it('falls back to queryRows for a type JSON would not carry exactly, a NaN and duplicate names', async () => {
    for (const sql of [
      `SELECT id, TIMESTAMP '2024-01-02 03:04:05.123456' AS ts, 1.5::FLOAT AS f, [1, 2] AS l FROM t WHERE id = 1`,
      `SELECT id, 'nan'::DOUBLE AS d FROM t WHERE id = 1`,
      'SELECT id, s, s FROM t WHERE id <= 2',
    ]) {
      const [fast, plain] = await both(sql);
      expect(fast).toEqual(plain);
      expect(fast.length).toBeGreaterThan(0);
    }
  });
});
