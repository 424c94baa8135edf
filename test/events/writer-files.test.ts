import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendEvents, type SqlDrafts } from '../../ingest/events/writer.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import eventsRoutes from '../../api/events/routes.ts';

/**
 * The events writer appends a large batch in files of a bounded number of events (docs/events.md, "Memory"): a real
 * 13F quarter drafts over a million. Each file is whole or absent, so a batch that fails half-way leaves whole files,
 * and a rerun appends exactly what is missing.
 */

/** A SQL draft statement: `n` events keyed `<prefix><i>`, the given summary, one day apart from 2026-01-01. */
function sqlDrafts(prefix: string, from: number, n: number, summary: string): SqlDrafts {
  return {
    sql:
      `SELECT 'sec.test.event' AS event_type, 'low' AS importance, 1.0 AS confidence, '0000000001' AS entity_cik, NULL AS entity_ticker, ` +
      `'Test Co' AS entity_name, NULL AS accession, $1 AS summary, '{}' AS details, '[]' AS evidence, $2 || i AS dedup_key, ` +
      `CAST(DATE '2026-01-01' + CAST(i % 28 AS INTEGER) AS VARCHAR) AS occurred_at FROM range(${from}, ${from + n}) t(i)`,
    params: [summary, prefix],
  };
}

describe('events writer: a batch in bounded files', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ routes: eventsRoutes });
  });
  afterAll(() => app.close());

  const now = new Date('2026-03-02T10:00:00Z');
  const files = async () => (await readdir(join(app.settings.lakeDir, 'events', 'detected_date=2026-03-02'))).filter((f) => f.endsWith('.parquet'));
  const rows = async () => {
    await app.services.lake.refresh();
    return app.services.lake.query(
      "SELECT dedup_key, summary, seq, filename AS file FROM read_parquet($1, filename = true) WHERE dedup_key LIKE 'k%' ORDER BY seq",
      [join(app.settings.lakeDir, 'events', '*', '*.parquet')],
    );
  };

  it('writes a file each time perFile drafts are waiting; keys once, the first draft winning; seq runs on', async () => {
    // 25 keys in five statements; the third repeats keys 0-4 of the first with another summary.
    const statements = [
      sqlDrafts('k', 0, 5, 'first'),
      sqlDrafts('k', 5, 5, 'first'),
      sqlDrafts('k', 0, 5, 'repeat'),
      sqlDrafts('k', 10, 10, 'first'),
      sqlDrafts('k', 20, 5, 'first'),
    ];
    expect(await appendEvents(app.settings, [], { now, sql: statements, perFile: 8 })).toBe(25);
    // Waiting after each statement: 5; 10 → a file of 10; 5 repeats; 15 → a file of the 10 new; 5 → the last file.
    expect(await files()).toHaveLength(3);
    const all = await rows();
    expect(all.map((r) => r.dedup_key).sort()).toEqual(Array.from({ length: 25 }, (_, i) => `k${i}`).sort());
    expect(all.every((r) => r.summary === 'first')).toBe(true);
    expect(all.map((r) => Number(r.seq))).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    // Each file holds one run of seq: a file's seqs all come after the previous file's.
    const byFile = new Map<string, number[]>();
    for (const r of all) byFile.set(String(r.file), [...(byFile.get(String(r.file)) ?? []), Number(r.seq)]);
    const spans = [...byFile.values()].map((s) => [Math.min(...s), Math.max(...s), s.length]);
    expect(spans).toEqual([
      [1, 10, 10],
      [11, 20, 10],
      [21, 25, 5],
    ]);
  });

  it('a batch that fails after a file keeps that file whole, and a rerun appends exactly what is missing', async () => {
    const late = sqlDrafts('k', 100, 3, 'late');
    const failing: SqlDrafts = { sql: late.sql.replace("'Test Co' AS entity_name", "error('drafting failed') AS entity_name"), params: late.params };
    const before = (await files()).length;
    await expect(
      appendEvents(app.settings, [], { now, sql: [sqlDrafts('k', 30, 10, 'first'), sqlDrafts('k', 40, 4, 'first'), failing], perFile: 8 }),
    ).rejects.toThrow(/drafting failed/);
    expect(await files()).toHaveLength(before + 1);
    expect((await rows()).length).toBe(35);
    // The rerun, as the commit's roll-forward runs it: every statement again, the failing one fixed.
    const rerun = [sqlDrafts('k', 30, 10, 'first'), sqlDrafts('k', 40, 4, 'first'), sqlDrafts('k', 100, 3, 'late')];
    expect(await appendEvents(app.settings, [], { now, sql: rerun, perFile: 8 })).toBe(7);
    const all = await rows();
    expect(all).toHaveLength(42);
    expect(new Set(all.map((r) => r.dedup_key)).size).toBe(42);
    expect(all.map((r) => Number(r.seq))).toEqual(Array.from({ length: 42 }, (_, i) => i + 1));
  });

  it("a clock stepped back a day files the batch under the newest day, its seq after that day's largest", async () => {
    // A later day holds only larger seqs: /v1/events walks the days newest first on that, the monitor scanner reads
    // the days from its position on, and the writer reads the newest day alone for the largest seq.
    const later = new Date('2026-03-03T08:00:00Z');
    expect(await appendEvents(app.settings, [], { now: later, sql: [sqlDrafts('k', 200, 2, 'later')] })).toBe(2);
    const behind = new Date('2026-03-01T23:00:00Z');
    expect(await appendEvents(app.settings, [], { now: behind, sql: [sqlDrafts('k', 300, 2, 'behind')] })).toBe(2);
    expect(await readdir(join(app.settings.lakeDir, 'events'))).not.toContain('detected_date=2026-03-01');
    await app.services.lake.refresh();
    const rows = await app.services.lake.query(
      'SELECT summary, seq, CAST(detected_date AS VARCHAR) AS day, CAST(detected_at AS VARCHAR) AS at ' +
        "FROM events WHERE summary IN ('later', 'behind') ORDER BY seq",
    );
    expect(rows.map((r) => [r.summary, Number(r.seq), r.day])).toEqual([
      ['later', 43, '2026-03-03'],
      ['later', 44, '2026-03-03'],
      ['behind', 45, '2026-03-03'],
      ['behind', 46, '2026-03-03'],
    ]);
    // detected_at stays within its day folder (the start of that day), so `since`/`until` bounds still meet it.
    expect(rows.slice(2).map((r) => r.at)).toEqual(['2026-03-03 00:00:00', '2026-03-03 00:00:00']);
  });
});
