import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCatalogEntry } from '../../ingest/lake/catalog.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { firmsTable, toyEndpoints, toyIngester, writeToyCsv } from './toy-dataset.ts';

describe('lake writer and catalog', () => {
  let app: TestApp;
  let dir: string;
  beforeAll(async () => {
    app = await createTestApp({ routes: toyEndpoints, extraTables: [firmsTable] });
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
