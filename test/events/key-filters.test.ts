import { readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import eventsRoutes from '../../api/events/routes.ts';
import { appendEvents } from '../../ingest/events/writer.ts';
import { buildKeyFilter, mayHold, readKeyFilters } from '../../ingest/lake/key-filter.ts';
import type { EventDraft } from '../../schemas/events.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { pageAll } from '../support/page-all.ts';
import { tempDir } from '../support/temp-dir.ts';
import { commandOutcome } from '../support/processes.ts';
import { openLakeReader } from '../../ingest/lake/index.ts';
import { logQueries } from '../support/query-log.ts';

/**
 * The events writer puts a Bloom filter of each file's `entity_cik`, `entity_ticker` and `accession` beside it
 * (TableSpec.keyFilters, ingest/lake/key-filter.ts), and a `?cik=`, `?ticker=` or `?accession=` page skips the days
 * whose files cannot hold the value without opening them. Pages must stay the plain filter's rows, whatever the
 * filters hold or lack.
 */
const DAYS = 12;
const START = Date.UTC(2025, 5, 2, 14, 0);
const dayOf = (i: number) => new Date(START + i * 86_400_000).toISOString().slice(0, 10);
/** Day i's companies: a common one every day, one of its own, and a rare one on days 2 and 9 only. */
const companies = (i: number) => ['0000000100', `00000002${String(i).padStart(2, '0')}`, ...(i === 2 || i === 9 ? ['0000000300'] : [])];

function draft(i: number, cik: string, j: number): EventDraft {
  return {
    event_type: 'sec.filing.new',
    importance: 'low',
    confidence: 1,
    entity_cik: cik,
    entity_ticker: `T${cik.slice(-3)}`,
    entity_name: null,
    accession: `${cik}-25-${String(i * 100 + j).padStart(6, '0')}`,
    summary: `event ${i}/${cik}/${j}`,
    details: {},
    evidence: [],
    dedup_key: `kf|${i}|${cik}|${j}`,
    occurred_at: null,
  };
}

describe('events: per-file key filters skip the days that cannot hold a key', () => {
  let app: TestApp;
  const sql: string[] = [];
  beforeAll(async () => {
    // The test app runs no refresh timer (test/support/harness.ts): a tick that a test's append set off could list a day
    // again after its filter was set aside, and two listings without it take the file for filterless for good
    // (key-filter-reads.ts).
    app = await createTestApp({ routes: eventsRoutes, env: { METERING: 'off', RATE_LIMIT_RPS: '100000' } });
    for (let i = 0; i < DAYS; i++) {
      const drafts = companies(i).flatMap((cik) => Array.from({ length: 3 }, (_, j) => draft(i, cik, j)));
      await appendEvents(app.settings, drafts, { now: new Date(START + i * 86_400_000) });
    }
    await app.services.lake.refresh();
    logQueries(app.services.lake, sql);
  });
  afterAll(() => app?.close());

  const ids = async (qs: string, limit: number) => (await pageAll(app, '/v1/events', { qs, limit })).map((e) => String(e.id));
  async function plain(where: string, value: string): Promise<string[]> {
    const rows = await app.services.lake.query(`SELECT id FROM events WHERE ${where} = $1 ORDER BY seq DESC`, [value]);
    return rows.map((r) => String(r.id));
  }
  /** The day folders the logged queries opened. */
  const daysRead = () => Array.from({ length: DAYS }, (_, i) => dayOf(i)).filter((d) => sql.some((s) => s.includes(`detected_date=${d}/`)));

  it('writes a filter beside every file', async () => {
    for (let i = 0; i < DAYS; i++) {
      const files = await readdir(join(app.settings.lakeDir, 'events', `detected_date=${dayOf(i)}`));
      const data = files.filter((f) => f.endsWith('.parquet'));
      expect(data.length).toBeGreaterThan(0);
      for (const f of data) expect(files).toContain(f.replace(/\.parquet$/, '.filter'));
    }
  });

  it('pages equal the plain filter, and read only the days that may hold the key', async () => {
    for (const limit of [2, 100]) {
      expect(await ids('cik=0000000300', limit)).toEqual(await plain('entity_cik', '0000000300'));
      expect(await ids('cik=0000000100', limit)).toEqual(await plain('entity_cik', '0000000100'));
      expect(await ids('ticker=T300', limit)).toEqual(await plain('entity_ticker', 'T300'));
    }
    sql.length = 0;
    expect(await ids('cik=0000000300', 100)).toHaveLength(6);
    // Days 2 and 9, and at most a false positive or so of the other ten (0.1% each).
    expect(daysRead()).toContain(dayOf(2));
    expect(daysRead()).toContain(dayOf(9));
    expect(daysRead().length).toBeLessThanOrEqual(4);

    const acc = '0000000205-25-000501';
    expect(await plain('accession', acc)).toHaveLength(1);
    sql.length = 0;
    expect(await ids(`accession=${acc}`, 25)).toEqual(await plain('accession', acc));
    expect(daysRead()).toContain(dayOf(5));
    expect(daysRead().length).toBeLessThanOrEqual(3);
  });

  it('an unknown company opens no events file; a file without its filter has its day read', async () => {
    sql.length = 0;
    const none = await app.get('/v1/events?cik=0000009999');
    expect(none.status).toBe(200);
    expect(none.body.data).toEqual([]);
    expect(daysRead().length).toBeLessThanOrEqual(2);

    // A new file of the newest day whose filter never made it (a crash between the two renames): the day may hold
    // anything, so it is read, and the rare company's event in it is found.
    const last = DAYS - 1;
    const dir = join(app.settings.lakeDir, 'events', `detected_date=${dayOf(last)}`);
    const before = new Set(await readdir(dir));
    await appendEvents(app.settings, [draft(last, '0000000300', 7)], { now: new Date(START + last * 86_400_000 + 3_600_000) });
    const added = (await readdir(dir)).filter((f) => !before.has(f));
    expect(added.filter((f) => f.endsWith('.filter'))).toHaveLength(1);
    const [filter] = added.filter((f) => f.endsWith('.filter'));
    await rename(join(dir, filter), join(dir, `${filter}.aside`));
    await app.services.lake.refresh();
    sql.length = 0;
    expect(await ids('cik=0000009999', 25)).toEqual([]);
    expect(daysRead()).toContain(dayOf(last));
    const rare = await plain('entity_cik', '0000000300');
    expect(rare).toHaveLength(7);
    for (const limit of [2, 100]) expect(await ids('cik=0000000300', limit)).toEqual(rare);

    // The filter renamed in after a listing saw the file without it: the next listing looks again and uses it.
    await rename(join(dir, `${filter}.aside`), join(dir, filter));
    await app.services.lake.refresh();
    sql.length = 0;
    expect(await ids('cik=0000009999', 25)).toEqual([]);
    expect(daysRead()).not.toContain(dayOf(last));
  });

  it('`npm run events -- key-filters` writes the filters an older lake lacks, and readers use them at their next listing', async () => {
    // An older lake: no file has its filter (renamed, so the app's reader meets them as new files), and two listings
    // took them all for filterless.
    const days = Array.from({ length: DAYS }, (_, i) => join(app.settings.lakeDir, 'events', `detected_date=${dayOf(i)}`));
    for (const dir of days) {
      for (const f of await readdir(dir)) {
        if (f.endsWith('.filter')) await rm(join(dir, f));
        else if (f.endsWith('.parquet')) await rename(join(dir, f), join(dir, f.replace(/\.parquet$/, '-old.parquet')));
      }
    }
    const reader = await openLakeReader(app.settings.lakeDir);
    try {
      await reader.refresh();
      await app.services.lake.refresh();
      await app.services.lake.refresh();
      expect([...reader.keyFilters('events')!.values()].every((x) => x === null)).toBe(true);
      sql.length = 0;
      expect(await ids('cik=0000009999', 25)).toEqual([]);
      expect(daysRead()).toHaveLength(DAYS);

      const files = (await Promise.all(days.map((d) => readdir(d)))).flat().filter((f) => f.endsWith('.parquet')).length;
      expect(files).toBeGreaterThanOrEqual(DAYS);
      const run = await commandOutcome(process.execPath, ['ingest/cli-launch.cjs', 'events', 'key-filters'], {
        env: { DATA_DIR: app.settings.dataDir },
      });
      expect(run.stderr).toContain(`[key-filters] ${files}/${files} file(s)`);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(`${files} key filter(s) written; ${files} events file(s) in all`);
      for (const dir of days) {
        const names = await readdir(dir);
        for (const f of names.filter((x) => x.endsWith('.parquet'))) expect(names).toContain(f.replace(/\.parquet$/, '.filter'));
      }
      // A reader's timer check (changed catalogs only) lists the table again and reads the new filters.
      await reader.refresh({ changedOnly: true });
      expect([...reader.keyFilters('events')!.values()].every((x) => x !== null)).toBe(true);
      await app.services.lake.refresh();
      sql.length = 0;
      expect(await ids('cik=0000009999', 25)).toEqual([]);
      expect(daysRead().length).toBeLessThanOrEqual(2);
      expect(await ids('cik=0000000300', 100)).toEqual(await plain('entity_cik', '0000000300'));
      // Again: nothing left to write.
      const again = await commandOutcome(process.execPath, ['ingest/cli-launch.cjs', 'events', 'key-filters', '--quiet'], {
        env: { DATA_DIR: app.settings.dataDir },
      });
      expect(again.stdout).toContain(`0 key filter(s) written; ${files} events file(s) in all`);
    } finally {
      await reader.close();
    }
  });

  it('a filter holds every value it was built from and few others', () => {
    const values = Array.from({ length: 5_000 }, (_, i) => String(1_000_000 + i).padStart(10, '0'));
    const f = buildKeyFilter(values);
    expect(values.every((v) => mayHold(f, v))).toBe(true);
    const others = Array.from({ length: 20_000 }, (_, i) => String(5_000_000 + i).padStart(10, '0'));
    const positives = others.filter((v) => mayHold(f, v)).length;
    // 0.1% expected (20 of 20,000); the bound leaves room for the hash's luck, and fails at the former 1%.
    expect(positives / others.length).toBeLessThan(0.004);
    // An empty file's filter holds nothing.
    expect(mayHold(buildKeyFilter([]), '0000000001')).toBe(false);
  });

  it('a filter written with other probes (the former 1% rate: 7) is read with its own', async () => {
    const values = Array.from({ length: 500 }, (_, i) => String(2_000_000 + i).padStart(10, '0'));
    const f = buildKeyFilter(values);
    const file = join(tempDir('key-filter-'), 'part-a.parquet');
    await writeFile(file.replace(/\.parquet$/, '.filter'), JSON.stringify({ columns: { entity_cik: { k: 7, bits: Buffer.from(f.bits).toString('base64') } } }));
    const read = (await readKeyFilters(file))!.get('entity_cik')!;
    expect(read.k).toBe(7);
    expect(values.every((v) => mayHold(read, v))).toBe(true);
  });
});
