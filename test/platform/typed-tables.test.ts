import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { readCatalogEntry } from '../../ingest/lake/catalog.ts';
import { openDuck, queryRows } from '../../ingest/lake/duck.ts';
import { defineIngester } from '../../ingest/pipeline/contract.ts';
import type { LoadContext } from '../../ingest/sources/common/context.ts';
import { runIngest } from '../../ingest/pipeline/runner.ts';
import { loadSettings, type Settings } from '../../schemas/settings.ts';
import { rowSchema } from '../../schemas/row-schema.ts';
import { ddlColumns, defineTable, type RowOf } from '../../schemas/table.ts';
import type { holdings13f } from '../../schemas/tables/13f.ts';
import { firmsTable } from './toy-dataset.ts';

/**
 * Typed tables on the ingest side: the row type comes from the columns, rows are validated strictly, staging
 * carries NOT NULL, and the runner refuses a staged primary key that is null or repeated before writing anything.
 */

type HoldingRow = RowOf<typeof holdings13f>;
type FirmRow = RowOf<typeof firmsTable>;

// Compile-time checks (`npx tsc --noEmit` fails if one of these stops holding); never called.
function typeChecks(ctx: LoadContext, row: FirmRow): void {
  void ctx.append(firmsTable, row);
  void ctx.append(firmsTable, { snapshot_date: '2026-01-01', id: 'F1', name: 'Firm', aum: 1 });
  // @ts-expect-error a misspelt column is not a column of the table
  void ctx.append(firmsTable, { ...row, stat: 'NY' });
  // @ts-expect-error a non-null column (aum) is required
  void ctx.append(firmsTable, { snapshot_date: '2026-01-01', id: 'F1', name: 'Firm' });
  // @ts-expect-error a value of the wrong type (aum is BIGINT)
  void ctx.append(firmsTable, { ...row, aum: '12' });
  // @ts-expect-error append takes the table object, not its name
  void ctx.append('toy_firms', row);
  // @ts-expect-error key lists are checked against the columns
  defineTable({ name: 'x', description: 'x', columns: { a: { type: 'VARCHAR', nullable: false } }, partitionBy: 'b', sortBy: [], primaryKey: [] });
}
void typeChecks;

describe('row types inferred from the columns', () => {
  it('maps column types and nullability to the row type', () => {
    expectTypeOf<HoldingRow['accession_number']>().toEqualTypeOf<string>();
    expectTypeOf<HoldingRow['line_no']>().toEqualTypeOf<number>();
    expectTypeOf<HoldingRow['is_current']>().toEqualTypeOf<boolean>();
    expectTypeOf<HoldingRow['period']>().toEqualTypeOf<string>();
    expectTypeOf<HoldingRow['value_usd']>().toEqualTypeOf<number | bigint | null | undefined>();
    expectTypeOf<HoldingRow['issuer_cik']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<HoldingRow>().toHaveProperty('source_url');
    expectTypeOf<keyof FirmRow>().toEqualTypeOf<'snapshot_date' | 'id' | 'name' | 'state' | 'aum' | 'active' | 'source_url'>();
  });

  it('defineTable refuses, at run time too, key columns that are not columns and a nullable partition column', () => {
    const spec = { name: 'x', description: 'x', columns: { a: { type: 'VARCHAR', nullable: false } }, partitionBy: 'a', sortBy: ['b'], primaryKey: ['a'] };
    expect(() => defineTable(spec as never)).toThrow(/key column b not in columns/);
    const nullablePartition = { ...spec, columns: { a: { type: 'VARCHAR' } }, sortBy: ['a'] };
    expect(() => defineTable(nullablePartition as never)).toThrow('table x: partition column a must be nullable: false');
  });

  it('defineTable refuses a head order (TableSpec.head) that could tie rows or names the partition column', () => {
    const columns = { p: { type: 'VARCHAR', nullable: false }, d: { type: 'DATE' }, k: { type: 'VARCHAR', nullable: false } } as const;
    const spec = { name: 'h', description: 'h', columns, partitionBy: 'p', sortBy: ['k'], primaryKey: ['k'] } as const;
    const head = (order: { column: string; dir: 'asc' | 'desc' }[]) => defineTable({ ...spec, sortBy: ['k'], primaryKey: ['k'], head: { order } });
    expect(
      head([
        { column: 'd', dir: 'desc' },
        { column: 'k', dir: 'asc' },
      ]).head?.order,
    ).toHaveLength(2);
    expect(() => head([{ column: 'd', dir: 'desc' }])).toThrow('table h: head order lacks primary key column k');
    expect(() =>
      head([
        { column: 'p', dir: 'desc' },
        { column: 'k', dir: 'asc' },
      ]),
    ).toThrow('table h: head column p not in columns, or the partition');
    expect(() =>
      head([
        { column: 'x', dir: 'desc' },
        { column: 'k', dir: 'asc' },
      ]),
    ).toThrow('table h: head column x not in columns, or the partition');
  });
});

describe('strict rows and NOT NULL staging', () => {
  it('the row validator rejects a key the table does not have', () => {
    const ok = { snapshot_date: '2026-01-01', id: 'F1', name: 'Firm', aum: 1 };
    expect(rowSchema(firmsTable).safeParse(ok).success).toBe(true);
    const r = rowSchema(firmsTable).safeParse({ ...ok, stat: 'NY' });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]).toMatchObject({ code: 'unrecognized_keys', keys: ['stat'] });
  });

  it('staging DDL declares non-null columns NOT NULL (parser_version included)', () => {
    const ddl = ddlColumns(firmsTable);
    expect(ddl).toContain('"id" VARCHAR NOT NULL');
    expect(ddl).toContain('"aum" BIGINT NOT NULL');
    expect(ddl).toContain('"parser_version" INTEGER NOT NULL');
    expect(ddl).toMatch(/"state" VARCHAR(,|$)/);
  });
});

/** A table whose key column may be null, so the key check (not NOT NULL) is what refuses a null key. */
const keysTable = defineTable({
  name: 'toy_keys',
  description: 'Primary-key check test table',
  columns: {
    day: { type: 'DATE', nullable: false },
    id: { type: 'VARCHAR' },
    n: { type: 'INTEGER', nullable: false },
  },
  partitionBy: 'day',
  sortBy: ['id'],
  primaryKey: ['id'],
  writeMode: 'replace',
});

type KeyRow = { day: string; id: string | null; n: number | null };

/** Stages the given rows with SQL (like the bulk loaders) or through append, as the test asks. */
function keysIngester(rows: KeyRow[], path: 'sql' | 'append' = 'sql') {
  return defineIngester({
    name: 'toy_keys',
    description: 'toy',
    tables: [keysTable],
    dependsOn: [],
    parserVersion: 1,
    source: 'toy_source',
    sourceUrls: ['https://example.invalid/keys'],
    argsHelp: '',
    inputs: async () => [],
    async load(ctx) {
      for (const r of rows) {
        if (path === 'append') {
          // The null n of a bad-row test is the point: it goes through the run-time check, not the compiler.
          await ctx.append(keysTable, r as RowOf<typeof keysTable>);
          continue;
        }
        await ctx.sql(`INSERT INTO staging_toy_keys VALUES ($1::DATE, $2, $3, ${ctx.parserVersion})`, [r.day, r.id, r.n]);
      }
    },
  });
}

/** Unknown-key rows must reach the stager untyped: the cast stands for a dataset whose types were bypassed. */
const misspeltIngester = defineIngester({
  name: 'toy_firms',
  description: 'toy',
  tables: [firmsTable],
  dependsOn: [],
  parserVersion: 1,
  source: 'toy_source',
  sourceUrls: ['https://example.invalid/firms'],
  argsHelp: '',
  inputs: async () => [],
  async load(ctx) {
    await ctx.append(firmsTable, { snapshot_date: '2026-01-01', id: 'F1', name: 'Firm 1', aum: 1 }, { file: 'firms.csv', line: 2 });
    const misspelt = { snapshot_date: '2026-01-01', id: 'F2', name: 'Firm 2', aum: 2, stat: 'NY' };
    await ctx.append(firmsTable, misspelt as FirmRow, { file: 'firms.csv', line: 3 });
  },
});

describe('the runner checks what reaches staging', () => {
  let dataDir: string;
  let settings: Settings;
  const run = (def: Parameters<typeof runIngest>[0]) => runIngest(def, {}, settings, { quiet: true, skipDiff: true });
  const lakeRows = async () => {
    const { instance, conn } = await openDuck();
    try {
      const glob = join(settings.lakeDir, 'toy_keys', '*', '*.parquet');
      return await queryRows(conn, `SELECT CAST(day AS VARCHAR) AS day, id, n FROM read_parquet('${glob}', hive_partitioning = true) ORDER BY day, id`);
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'typed-tables-'));
    settings = loadSettings({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('a row with an unknown key is a bad row naming the key, and is not written', async () => {
    const s = await run(misspeltIngester);
    expect(s.rowsWritten).toBe(1);
    expect(s.badRows).toBe(1);
    expect(s.badRowSamples[0]).toEqual({ file: 'firms.csv', line: 3, reason: 'unknown column stat (not in table toy_firms)' });
  });

  it('a key may repeat across partitions (it is unique per partition)', async () => {
    const s = await run(
      keysIngester([
        { day: '2026-01-01', id: 'a', n: 1 },
        { day: '2026-01-01', id: 'b', n: 2 },
        { day: '2026-01-02', id: 'a', n: 3 },
      ]),
    );
    expect(s.rowsWritten).toBe(3);
    expect(await lakeRows()).toHaveLength(3);
  });

  it('a repeated key fails the run with table, key and value named, and writes nothing', async () => {
    const before = await readCatalogEntry(settings.lakeDir, 'toy_keys');
    const failing = run(
      keysIngester([
        { day: '2026-01-01', id: 'c', n: 4 },
        { day: '2026-01-02', id: 'z', n: 5 },
        { day: '2026-01-02', id: 'z', n: 6 },
      ]),
    );
    await expect(failing).rejects.toThrow('toy_keys: primary key (id) is not unique in this run: day="2026-01-02", id="z" is staged 2 times');
    expect(await readCatalogEntry(settings.lakeDir, 'toy_keys')).toEqual(before);
    expect((await lakeRows()).map((r) => `${r.day}/${r.id}`)).toEqual(['2026-01-01/a', '2026-01-01/b', '2026-01-02/a']);
    expect(await readdir(join(dataDir, '.work'))).toEqual([]);
  });

  it('appended rows are held to the same key check', async () => {
    const rows = [
      { day: '2026-01-03', id: 'q', n: 1 },
      { day: '2026-01-03', id: 'q', n: 2 },
    ];
    await expect(run(keysIngester(rows, 'append'))).rejects.toThrow(/toy_keys: primary key \(id\) is not unique.*id="q"/);
    expect(await lakeRows()).toHaveLength(3);
  });

  it('a null key column fails the run, naming the row', async () => {
    await expect(run(keysIngester([{ day: '2026-01-04', id: null, n: 1 }]))).rejects.toThrow(
      'toy_keys: a staged row has a null in its primary key (id): day="2026-01-04", id=null',
    );
    expect(await lakeRows()).toHaveLength(3);
  });

  it('a SQL-path null in a non-null column fails on the staging NOT NULL', async () => {
    await expect(run(keysIngester([{ day: '2026-01-05', id: 'x', n: null }]))).rejects.toThrow(/NOT NULL constraint failed: staging_toy_keys\.n/);
    expect(await lakeRows()).toHaveLength(3);
  });
});
