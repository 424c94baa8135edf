import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { openDuck, queryRows } from '../../ingest/lake/duck.ts';
import { createSortCodes } from '../../ingest/lake/sort-codes.ts';
import { holdings13f, holdings13fByManager } from '../../schemas/tables/13f.ts';

/**
 * A sorted copy is written from its source's staging: within a batch it casts with the ENUM types its source's write
 * made (one per staging table, partition and column), instead of reading the partition's distinct values again.
 */
describe('ENUM sort types shared by a table and its sorted copy', () => {
  let instance: DuckDBInstance;
  let conn: DuckDBConnection;
  const types = async () => (await queryRows(conn, `SELECT type_name FROM duckdb_types() WHERE type_name LIKE 'codes_%' ORDER BY 1`)).map((r) => r.type_name);

  beforeAll(async () => {
    ({ instance, conn } = await openDuck());
    const cols = holdings13f.sortAsCodes!.map((c) => `'${c} ' || (i % 3) AS ${c}`).join(', ');
    await conn.run(`CREATE TABLE staging_holdings_13f AS SELECT CASE WHEN i < 5 THEN '2024Q4' ELSE '2025Q1' END AS period, ${cols} FROM range(10) t(i)`);
  });
  afterAll(() => {
    conn.closeSync();
    instance.closeSync();
  });

  it('the copy gets its source’s types for the same partition, another partition its own; release drops them all', async () => {
    const codes = createSortCodes(conn);
    const q4 = `CAST(period AS VARCHAR) = '2024Q4'`;
    const source = await codes.of(holdings13f, 'staging_holdings_13f', q4);
    expect(source.map((c) => c.column)).toEqual(holdings13f.sortAsCodes);
    expect(await types()).toHaveLength(holdings13f.sortAsCodes!.length);
    // The copy (same staging, same partition) reuses them: no new type.
    expect(await codes.of(holdings13fByManager, 'staging_holdings_13f', q4)).toEqual(source);
    expect(await types()).toHaveLength(holdings13f.sortAsCodes!.length);
    // Each type holds the partition's staged values, in their order.
    const [{ values }] = await queryRows(conn, `SELECT enum_range(NULL::${source[0].type})::VARCHAR[] AS values`);
    expect(values).toEqual(['manager_name 0', 'manager_name 1', 'manager_name 2']);
    const q1 = await codes.of(holdings13f, 'staging_holdings_13f', `CAST(period AS VARCHAR) = '2025Q1'`);
    expect(q1.map((c) => c.type)).not.toEqual(source.map((c) => c.type));
    expect(await types()).toHaveLength(2 * holdings13f.sortAsCodes!.length);
    await codes.release();
    expect(await types()).toEqual([]);
  });

  it('a sort column cast to its codes sorts as its text: the codes follow the values, not the order they were staged in', async () => {
    // 20,000 distinct keys staged in hash order, on two threads with insertion order off (as the ingest runs).
    await conn.run(`SET threads = 2; SET preserve_insertion_order = false`);
    await conn.run(
      `CREATE TABLE staging_probe AS SELECT 'p' AS part, CASE WHEN i % 7 = 0 THEN NULL ELSE 'k' || (hash(i) % 20000) END AS accession_number ` +
        'FROM range(100000) t(i)',
    );
    const codes = createSortCodes(conn);
    const spec = { ...holdings13f, sortAsCodes: ['accession_number'] };
    const [{ type }] = await codes.of(spec, 'staging_probe', `part = 'p'`);
    const coded = `CAST(accession_number AS ${type})`;
    const [{ same, rows }] = await queryRows(
      conn,
      'SELECT count(*) FILTER (WHERE a.v IS NOT DISTINCT FROM b.v)::INTEGER AS same, count(*)::INTEGER AS rows FROM ' +
        '(SELECT accession_number AS v, row_number() OVER (ORDER BY accession_number) AS r FROM staging_probe) a JOIN ' +
        `(SELECT ${coded}::VARCHAR AS v, row_number() OVER (ORDER BY ${coded}) AS r FROM staging_probe) b USING (r)`,
    );
    expect(rows).toBe(100000);
    expect(same).toBe(rows);
    await codes.release();
  });
});
