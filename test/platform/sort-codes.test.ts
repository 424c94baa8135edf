import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { openDuck, queryRows } from '../../ingest/lake/duck.ts';
import { createSortCodes } from '../../ingest/lake/writer.ts';
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
    // Each type holds the partition's staged values.
    const [{ values }] = await queryRows(conn, `SELECT enum_range(NULL::${source[0].type})::VARCHAR[] AS values`);
    expect([...(values as string[])].sort()).toEqual(['manager_name 0', 'manager_name 1', 'manager_name 2']);
    const q1 = await codes.of(holdings13f, 'staging_holdings_13f', `CAST(period AS VARCHAR) = '2025Q1'`);
    expect(q1.map((c) => c.type)).not.toEqual(source.map((c) => c.type));
    expect(await types()).toHaveLength(2 * holdings13f.sortAsCodes!.length);
    await codes.release();
    expect(await types()).toEqual([]);
  });
});
