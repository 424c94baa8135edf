import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderedPartitions } from '../../ingest/lake/index.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { firmsTable, toyEndpoints, toyIngester, writeToyCsv } from './toy-dataset.ts';
import { pageAll as walk } from '../support/page-all.ts';

/**
 * Lists ordered by their partition column first read a page partition by partition. The pages must be exactly
 * the rows and order of the one-query form, including pages that straddle partitions and partitions with no match.
 */
describe('partition-first pages', () => {
  let app: TestApp;
  const snapshots: [string, number][] = [
    ['2025-10-01', 5],
    ['2025-11-01', 40],
    ['2025-12-01', 30],
    ['2026-01-01', 237],
  ];
  beforeAll(async () => {
    // Paging at limit=1 makes hundreds of calls: the per-key rate limit is not what this file tests.
    app = await createTestApp({ routes: toyEndpoints, extraTables: [firmsTable], env: { METERING: 'off', RATE_LIMIT_RPS: '100000' } });
    const dir = join(app.dataDir, 'in');
    for (const [date, n] of snapshots) await writeToyCsv(dir, date, n);
    await app.ingest(toyIngester(), { from: dir });
  });
  afterAll(() => app.close());

  async function pageAll(qs: string, limit: number): Promise<string[]> {
    return (await walk(app, '/v1/toy-firms-history', { qs, limit, maxPages: 500 })).map((d: { id: string }) => `${d.id}`);
  }

  it.each([
    ['no filter', '', ''],
    ['state=TX', 'state=TX', "WHERE state = 'TX'"],
    // 5% of rows, in every snapshot but the oldest: pages of 7 and 100 straddle snapshots.
    ['aum_min=950000', 'aum_min=950000', 'WHERE aum >= 950000'],
    // Only the newest snapshot matches: the older ones are read and yield nothing.
    ['aum_min=980000', 'aum_min=980000', 'WHERE aum >= 980000'],
  ])('%s: every row once, in SQL order', async (_name, qs, where) => {
    const want = (await app.services.lake.query(`SELECT id FROM toy_firms ${where} ORDER BY snapshot_date DESC, aum DESC, id ASC`)).map((r) => String(r.id));
    expect(want.length).toBeGreaterThan(0);
    for (const limit of [1, 7, 100]) {
      const ids = await pageAll(qs, limit);
      expect(ids).toEqual(want);
    }
  });

  it('a page the newest partition fills runs one query, restricted to that partition', async () => {
    const seen: string[] = [];
    const lake = app.services.lake;
    const original = lake.query;
    lake.query = (sql, params, opts) => {
      if (sql.includes('toy_firms')) seen.push(`${sql} ${JSON.stringify(params)}`);
      return original.call(lake, sql, params, opts);
    };
    try {
      const r = await app.get('/v1/toy-firms-history?limit=10');
      expect(r.body.data).toHaveLength(10);
      expect(seen).toHaveLength(1);
      expect(seen[0]).toContain('"snapshot_date" = $');
      expect(seen[0]).toContain('2026-01-01');
      // A constant partition column in ORDER BY would hide the file's sort order from DuckDB's top-N (full scan).
      expect(seen[0]).toMatch(/ORDER BY "aum" DESC, "id" ASC LIMIT/);
    } finally {
      lake.query = original;
    }
  });

  it('orders partition folders as DuckDB would, and refuses what it cannot order', () => {
    expect(orderedPartitions(['9', '100', '10'], 'INTEGER', 'desc')).toEqual(['100', '10', '9']);
    expect(orderedPartitions(['2024Q1', '2023Q4', '2024Q4'], 'VARCHAR', 'desc')).toEqual(['2024Q4', '2024Q1', '2023Q4']);
    expect(orderedPartitions(['2024-01-01', '2023-12-31'], 'DATE', 'asc')).toEqual(['2023-12-31', '2024-01-01']);
    expect(orderedPartitions(['__HIVE_DEFAULT_PARTITION__', '2024Q1'], 'VARCHAR', 'desc')).toBeNull();
    expect(orderedPartitions(['Zürich', 'Bern'], 'VARCHAR', 'asc')).toBeNull();
    expect(orderedPartitions(['x', '1'], 'INTEGER', 'asc')).toBeNull();
    expect(orderedPartitions(['1/2/2024'], 'DATE', 'asc')).toBeNull();
  });
});
