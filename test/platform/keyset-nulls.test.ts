import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineList, f } from '../../api/core/endpoint.ts';
import { p } from '../../api/core/params.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { firmsTable, toyIngester, writeToyCsv } from './toy-dataset.ts';
import { pageAll as walk } from '../support/page-all.ts';

/**
 * A page order may hold a nullable column before its last one (`keysetPredicate`, api/core/sql.ts): NULLs come last in
 * either direction, as DuckDB orders them, and a cursor taken on a row holding NULL there pages on among the NULLs.
 * Every row must come once, in the one-query SQL order, whatever the page size and wherever the NULLs fall.
 */
// Partition first (every snapshot, newest first), or the newest snapshot alone in one query (ids repeat across snapshots).
const byState = (path: string, dir: 'asc' | 'desc', partitionFirst: boolean) =>
  defineList({
    path,
    summary: 'Toy firms by state',
    tag: 'Test',
    source: 'toy_source',
    table: firmsTable,
    ...(partitionFirst ? {} : { scope: 'latest_partition' as const }),
    params: { active: p.bool() },
    filters: { active: f.flag('active') },
    orderBy: [...(partitionFirst ? [{ column: 'snapshot_date' as const, dir: 'desc' as const }] : []), { column: 'state', dir }, { column: 'id', dir: 'asc' }],
    record: z.object({ id: z.string() }),
    toRecord: (r) => ({ id: String(r.id) }),
  });

describe('keyset paging over a nullable order column', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({
      routes: [
        byState('/v1/toy-by-state', 'asc', true),
        byState('/v1/toy-by-state-desc', 'desc', true),
        byState('/v1/toy-by-state-all', 'asc', false),
        byState('/v1/toy-by-state-all-desc', 'desc', false),
      ],
      extraTables: [firmsTable],
      env: { METERING: 'off', RATE_LIMIT_RPS: '100000' },
    });
    const dir = join(app.dataDir, 'in');
    // No NULL state in one snapshot, every state NULL in another, NULLs scattered in the newest.
    await writeToyCsv(dir, '2025-11-01', 31);
    await writeToyCsv(dir, '2025-12-01', 9, { noState: () => true });
    await writeToyCsv(dir, '2026-01-01', 40, { noState: (i) => i % 4 === 0 });
    await app.ingest(toyIngester(), { from: dir });
  });
  afterAll(() => app.close());

  async function pageAll(path: string, qs: string, limit: number): Promise<string[]> {
    return (await walk(app, path, { qs, limit, maxPages: 500 })).map((d: { id: string }) => d.id);
  }

  it.each([
    ['/v1/toy-by-state', 'true', 'snapshot_date DESC, state ASC NULLS LAST, id'],
    ['/v1/toy-by-state-desc', 'true', 'snapshot_date DESC, state DESC NULLS LAST, id'],
    ['/v1/toy-by-state-all', "snapshot_date = '2026-01-01'", 'state ASC NULLS LAST, id'],
    ['/v1/toy-by-state-all-desc', "snapshot_date = '2026-01-01'", 'state DESC NULLS LAST, id'],
  ])('%s: every row once, NULLs last, at every page size', async (path, scope, order) => {
    for (const [qs, where] of [
      ['', scope],
      ['active=true', `${scope} AND active`],
    ]) {
      const want = (await app.services.lake.query(`SELECT id FROM toy_firms WHERE ${where} ORDER BY ${order}`)).map((r) => String(r.id));
      expect(want.length).toBeGreaterThan(15);
      for (const limit of [1, 3, 7, 100]) expect(await pageAll(path, qs, limit)).toEqual(want);
    }
  });
});
