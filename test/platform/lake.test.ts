import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCatalogEntry } from '../../ingest/lake/catalog.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { firmsTable, toyEndpoints, toyIngester, writeToyCsv } from './toy-dataset.ts';

/** The firms table written in row groups of 2,048 rows (DuckDB's vector size, the smallest group it writes). */
const smallGroups = { ...firmsTable, name: 'toy_firms_small_groups', rowGroupSize: 2_048 };

describe('lake writer and catalog', () => {
  let app: TestApp;
  let dir: string;
  beforeAll(async () => {
    app = await createTestApp({ routes: toyEndpoints, extraTables: [firmsTable, smallGroups] });
    dir = join(app.dataDir, 'in');
    await writeToyCsv(dir, '2026-01-01', 120, { badLines: [5, 77] });
  });
  afterAll(() => app.close());

  it('writes one zstd parquet file per Hive partition and records the catalog', async () => {
    const s = await app.ingest(toyIngester(), { from: dir });
    expect(s.rowsWritten).toBe(118);
    expect(s.badRows).toBe(2);
    expect(s.badRowSamples.map((b) => b.line)).toEqual([5, 77]);
    const part = join(app.settings.lakeDir, 'toy_firms', 'snapshot_date=2026-01-01');
    expect(readdirSync(part)).toEqual(['data.parquet']);
    const cat = await readCatalogEntry(app.settings.lakeDir, 'toy_firms');
    expect(cat!.record_count).toBe(118);
    expect(cat!.partitions[0]).toMatchObject({ value: '2026-01-01', rows: 118, parser_version: 1 });
    expect(cat!.last_run!.bad_rows).toBe(2);
    const [{ codec }] = await app.services.lake.query(`SELECT compression AS codec FROM parquet_metadata('${join(part, 'data.parquet')}') LIMIT 1`);
    expect(String(codec).toUpperCase()).toBe('ZSTD');
  });

  it("a table's row-group size sets its files' row groups (the filing index's 16,384: docs/layouts.md)", async () => {
    const many = join(app.dataDir, 'in-many');
    await writeToyCsv(many, '2026-01-01', 5_000);
    await app.ingest(toyIngester(1, smallGroups), { from: many }, { skipDiff: true });
    const file = join(app.settings.lakeDir, smallGroups.name, 'snapshot_date=2026-01-01', 'data.parquet');
    const groups = await app.services.lake.query(`SELECT DISTINCT row_group_id AS id, row_group_num_rows AS n FROM parquet_metadata('${file}') ORDER BY 1`);
    expect(groups.map((g) => g.n)).toEqual([2_048, 2_048, 904]);
    // The default stays DuckDB's: the 118 rows above in one group.
    const def = join(app.settings.lakeDir, 'toy_firms', 'snapshot_date=2026-01-01', 'data.parquet');
    const [{ n }] = await app.services.lake.query(`SELECT count(DISTINCT row_group_id) AS n FROM parquet_metadata('${def}')`);
    expect(n).toBe(1);
  });

  it('re-running the same period replaces the partition (idempotent)', async () => {
    await app.ingest(toyIngester(), { from: dir });
    const [{ n }] = await app.services.lake.query('SELECT count(*) AS n FROM toy_firms');
    expect(n).toBe(118);
  });

  it('a crash before commit leaves the previous partition untouched and no temp file visible', async () => {
    const other = join(app.dataDir, 'in2');
    await writeToyCsv(other, '2026-01-01', 5);
    await expect(app.ingest(toyIngester(), { from: other }, { failBeforeCommit: true, force: true })).rejects.toThrow(/simulated crash/);
    const [{ n }] = await app.services.lake.query('SELECT count(*) AS n FROM toy_firms');
    expect(n).toBe(118);
    const part = join(app.settings.lakeDir, 'toy_firms', 'snapshot_date=2026-01-01');
    expect(readdirSync(part)).toEqual(['data.parquet']);
    expect(existsSync(join(app.dataDir, '.work')) ? readdirSync(join(app.dataDir, '.work')) : []).toEqual([]);
  });

  it('bumping the parser version re-derives old partitions from the recorded raw inputs', async () => {
    const s = await app.ingest(toyIngester(2), { from: join(app.dataDir, 'in') });
    expect(s.rowsWritten).toBe(118);
    const [{ name, pv }] = await app.services.lake.query("SELECT name, parser_version AS pv FROM toy_firms WHERE id = 'F00001'");
    expect(name).toBe('Firm 1 v2');
    expect(pv).toBe(2);
  });
});
