import { copyFile, mkdir, mkdtemp, readdir, rename, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDuck, sqlString } from '../../ingest/lake/duck.ts';
import { fileSignatures } from '../../ingest/lake/file-signatures.ts';
import { openLakeReader } from '../../ingest/lake/reader.ts';
import { eventsTable } from '../../schemas/tables/events.ts';
import { writeEventDays } from '../support/event-days.ts';

/**
 * A reader decides from each file's column signature whether a table's view needs `union_by_name`. The signatures
 * are kept for the process (ingest/lake/file-signatures.ts): the live lane's diff stage opens a reader a batch, and
 * reading every events footer again cost about 0.4 s of CPU a batch on 3,650 day files. A file rewritten under the
 * same name (a commit renames a new `data.parquet` over the old) must be read again, or a view would skip
 * `union_by_name` over files that differ.
 */
describe('column signatures shared by the readers of a process', () => {
  let dir: string;
  let lakeDir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'filings-signatures-'));
    lakeDir = join(dir, 'lake');
    await mkdir(lakeDir);
    await writeEventDays(lakeDir, 3, 4);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  /** Opens a reader, counts the events files whose footers it read, and counts the rows and tickers it sees. */
  async function openAndCount(): Promise<{ footers: number; rows: number; tickers: number }> {
    let footers = 0;
    const lake = await openLakeReader(
      lakeDir,
      [],
      { onFooters: (table, files) => table === eventsTable.name && (footers += files.length) },
      { serving: false },
    );
    try {
      const [r] = await lake.query('SELECT count(*)::INTEGER AS n, count(entity_ticker)::INTEGER AS t FROM events');
      return { footers, rows: Number(r.n), tickers: Number(r.t) };
    } finally {
      await lake.close();
    }
  }

  it('reads a footer once per version of a file, and sees a rewrite with other columns', async () => {
    expect(await openAndCount()).toEqual({ footers: 3, rows: 12, tickers: 0 });
    expect(await openAndCount()).toEqual({ footers: 0, rows: 12, tickers: 0 });

    // One day's file rewritten under its own name without a column and with a ticker on each row: only its footer
    // is read again, and the view reads the three files by name (the missing column as NULL).
    const day = join(lakeDir, eventsTable.name, 'detected_date=2016-01-02');
    const [name] = (await readdir(day)).filter((f) => f.endsWith('.parquet'));
    const file = join(day, name);
    const { instance, conn } = await openDuck(':memory:');
    try {
      await conn.run(
        `COPY (SELECT * EXCLUDE (entity_name) REPLACE ('TICK' AS entity_ticker) FROM read_parquet(${sqlString(file)})) ` +
          `TO ${sqlString(`${file}.tmp`)} (FORMAT parquet)`,
      );
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
    await rename(`${file}.tmp`, file);
    expect(await openAndCount()).toEqual({ footers: 1, rows: 12, tickers: 4 });
    expect(await openAndCount()).toEqual({ footers: 0, rows: 12, tickers: 4 });

    // Renamed over by a file of the same size and mtime (a copy of itself, both at a whole second): only the inode
    // tells them apart, and it is read again.
    const second = new Date('2026-01-02T03:04:05Z');
    await utimes(file, second, second);
    expect(await openAndCount()).toEqual({ footers: 1, rows: 12, tickers: 4 });
    await copyFile(file, `${file}.tmp`);
    await utimes(`${file}.tmp`, second, second);
    await rename(`${file}.tmp`, file);
    expect(await openAndCount()).toEqual({ footers: 1, rows: 12, tickers: 4 });
    expect(await openAndCount()).toEqual({ footers: 0, rows: 12, tickers: 4 });
  });

  it('readers opening at once read their footers side by side through the process’s one footer database', async () => {
    // Files none of them has seen: each set's footers are read, concurrently, and each answer is its own files'.
    const other = join(dir, 'other');
    await mkdir(other);
    await writeEventDays(other, 6, 2);
    const days = (await readdir(join(other, eventsTable.name))).sort();
    const files = await Promise.all(
      days.map(async (d) => {
        const [name] = (await readdir(join(other, eventsTable.name, d))).filter((f) => f.endsWith('.parquet'));
        return join(other, eventsTable.name, d, name);
      }),
    );
    const sets = [files.slice(0, 2), files.slice(2, 4), files.slice(4), files];
    const read = await Promise.all(sets.map((set) => fileSignatures(set)));
    for (const [i, set] of sets.entries()) {
      expect([...read[i].keys()].sort()).toEqual([...set].sort());
      expect(new Set(read[i].values()).size).toBe(1);
    }
    expect(read[0].get(files[0])).toMatch(/entity_ticker:/);
  });
});
