import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inStorageOrder } from '../../api/core/page-order.ts';
import { openDuck, queryRows } from '../../ingest/lake/duck.ts';
import { writeServingCopy } from '../../ingest/lake/serving.ts';
import { allColumns, type TableSpec } from '../../schemas/table.ts';

/**
 * The stored order of a serving copy (ingest/lake/serving.ts): a copy keeps its data file's sort order even when the
 * writer's connection runs with preserve_insertion_order off, as the ingest does, so a page may read its first rows
 * in storage order without sorting (api/core/page-query.ts, docs/read-path.md).
 */
const spec: TableSpec = {
  name: 'order_probe',
  description: 'serving-order test table',
  columns: {
    part: { type: 'VARCHAR', nullable: false },
    k: { type: 'VARCHAR', nullable: false },
    n: { type: 'INTEGER', nullable: false },
    payload: { type: 'VARCHAR' },
  },
  partitionBy: 'part',
  sortBy: ['k', 'n'],
  primaryKey: ['k', 'n'],
};

describe('serving copies keep their file’s order', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'serving-order-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a copy written on a connection with preserve_insertion_order off holds the rows in the file’s order', async () => {
    const partDir = join(dir, 'part=x');
    mkdirSync(partDir);
    const file = join(partDir, 'data.parquet');
    const copy = join(partDir, 'data.duckdb');
    // As the ingest opens its connection: two threads, insertion order off.
    const { instance, conn } = await openDuck(':memory:', { threads: '2', preserve_insertion_order: 'false' });
    try {
      const extra = Object.entries(allColumns(spec))
        .filter(([c]) => !(c in spec.columns))
        .map(([c, s]) => `NULL::${s.type === 'JSON' ? 'VARCHAR' : s.type} AS "${c}"`);
      // 400k rows in 2,048-row groups: a parallel CREATE TABLE AS has ~200 row groups to interleave.
      await conn.run(
        `COPY (SELECT 'k' || lpad((i % 997)::VARCHAR, 4, '0') AS k, (i // 997)::INTEGER AS n, md5(i::VARCHAR) AS payload` +
          `${extra.length ? `, ${extra.join(', ')}` : ''} FROM range(400000) t(i) ORDER BY k, n) TO '${file}' (FORMAT parquet, ROW_GROUP_SIZE 2048)`,
      );
      await writeServingCopy(conn, spec, file, copy);
      const [{ keep }] = await queryRows(conn, `SELECT current_setting('preserve_insertion_order') AS keep`);
      expect(keep).toBe(false);
      await conn.run(`ATTACH '${copy}' AS c (READ_ONLY)`);
      const [{ breaks }] = await queryRows(
        conn,
        'SELECT count(*) FILTER (WHERE pk > k OR (pk = k AND pn >= n))::INTEGER AS breaks FROM ' +
          '(SELECT k, n, lag(k) OVER (ORDER BY rowid) AS pk, lag(n) OVER (ORDER BY rowid) AS pn FROM c.rows)',
      );
      expect(breaks).toBe(0);
      const [{ ordered_by }] = await queryRows(conn, 'SELECT ordered_by FROM c.meta');
      expect(JSON.parse(String(ordered_by))).toEqual(['k', 'n']);
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
  });

  it('a page reads in storage order only when its order is an ascending prefix of the stored one', () => {
    const asc = (column: string) => ({ column, dir: 'asc' as const });
    expect(inStorageOrder(['k', 'n'], [asc('k'), asc('n')])).toBe(true);
    expect(inStorageOrder(['k', 'n'], [asc('k')])).toBe(true);
    expect(inStorageOrder(['k', 'n'], [asc('n'), asc('k')])).toBe(false);
    expect(inStorageOrder(['k', 'n'], [asc('k'), { column: 'n', dir: 'desc' }])).toBe(false);
    expect(inStorageOrder(['k'], [asc('k'), asc('n')])).toBe(false);
    expect(inStorageOrder([], [asc('k')])).toBe(false);
    expect(inStorageOrder(['k'], [])).toBe(false);
  });
});
