import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import def13f from '../../ingest/datasets/13f/dataset.ts';
import { runIngest } from '../../ingest/pipeline/runner.ts';
import { openDuck, queryRows, sqlString } from '../../ingest/lake/duck.ts';
import { loadSettings, type Settings } from '../../schemas/settings.ts';
import { holdings13f, holdings13fByManager } from '../../schemas/tables/13f.ts';
import { type TinyFiling, writeTinyDataSet } from './tiny-data-set.ts';

/**
 * Line numbers come from INFOTABLE_SK runs (ingest/datasets/13f/lines.ts) and the manager-sorted copy is written
 * from holdings_13f's staging (`copyOf`). Both are checked against what they replaced: `line_no` is the line's rank
 * by INFOTABLE_SK inside its filing (as the window gave), and `holdings_13f_by_manager` holds exactly the rows of
 * `holdings_13f` in its own order, after a first run and after a merge that flips earlier lines (a restatement in a
 * later window) and adds a manager. The managers and unmapped aggregates read the lake's lines of the run's own
 * quarters only: a quarter new to the lake stages no copy of its lines for them (the run's statements are seen through
 * the runner's `onLoadSql` hook).
 */

const CUSIPS = ['037833100', '594918104', '30231G102', '88579Y101', '055622104'];

interface Filing extends Omit<TinyFiling, 'lines'> {
  /** File order: [INFOTABLE_SK ('' = missing), issuer name]; the expected line number is in the name (`L<n>`). */
  lines: [number | '', string][];
}

/** The filings as a tiny data set: a million dollars a line, over five CUSIPs in turn. */
function writeDataSet(dir: string, filings: Filing[], periodOfReport?: string): Promise<void> {
  const tiny = filings.map((f) => ({
    ...f,
    lines: f.lines.map(([sk, issuer], i) => ({ sk, issuer, cusip: CUSIPS[i % CUSIPS.length], value: 1_000_000, shares: 10_000 + i })),
  }));
  return writeTinyDataSet(dir, tiny, periodOfReport);
}

const FIRST: Filing[] = [
  // A run of keys: line = SK − first + 1.
  { accession: '0001111111-24-000001', cik: '1111111', name: 'RUN CAPITAL LLC', lines: [5000, 5001, 5002, 5003].map((sk, i) => [sk, `RUN L${i + 1}`]) },
  // A run whose lines the file lists out of key order: still numbered by key.
  {
    accession: '0002222222-24-000001',
    cik: '2222222',
    name: 'SHUFFLED ADVISORS LP',
    lines: [
      [7002, 'SHUF L3'],
      [7000, 'SHUF L1'],
      [7001, 'SHUF L2'],
    ],
  },
  // Gaps and a missing key: no run, numbered by the window (a missing key last).
  {
    accession: '0003333333-24-000001',
    cik: '3333333',
    name: 'GAPPY ASSET MANAGEMENT INC',
    lines: [
      [9010, 'GAP L3'],
      [9000, 'GAP L1'],
      ['', 'GAP L4'],
      [9003, 'GAP L2'],
    ],
  },
];
const SECOND: Filing[] = [
  // Restates RUN CAPITAL's report in a later window: its first lines become superseded (merged in place).
  {
    accession: '0001111111-24-000009',
    cik: '1111111',
    name: 'RUN CAPITAL LLC',
    restatement: true,
    lines: [
      [120, 'RESTATED L1'],
      [121, 'RESTATED L2'],
    ],
  },
  { accession: '0004444444-24-000001', cik: '4444444', name: 'NEW MANAGER LLC', lines: [300, 301, 302].map((sk, i) => [sk, `NEW L${i + 1}`]) },
];

describe('13F line numbers and the manager-sorted copy', () => {
  let dir: string;
  let settings: Settings;
  const file = (table: string) => join(settings.lakeDir, table, 'period=2023Q4', 'data.parquet');

  async function lake<T = Record<string, unknown>>(sql: string): Promise<T[]> {
    const { conn, instance } = await openDuck();
    try {
      return (await queryRows(conn, sql)) as T[];
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
  }

  /** Every column of both files, as multisets (EXCEPT ALL both ways), and each file in its own sort order. */
  async function expectSameRowsEachInItsOrder(): Promise<void> {
    const a = `read_parquet(${sqlString(file(holdings13f.name))})`;
    const b = `read_parquet(${sqlString(file(holdings13fByManager.name))})`;
    const [diff] = await lake(
      `SELECT (SELECT count(*) FROM (SELECT * FROM ${a} EXCEPT ALL SELECT * FROM ${b}))::INTEGER AS only_a,
              (SELECT count(*) FROM (SELECT * FROM ${b} EXCEPT ALL SELECT * FROM ${a}))::INTEGER AS only_b,
              (SELECT count(*) FROM ${a})::INTEGER AS n`,
    );
    expect(diff).toEqual({ only_a: 0, only_b: 0, n: expect.any(Number) });
    expect(diff.n).toBeGreaterThan(0);
    for (const spec of [holdings13f, holdings13fByManager]) {
      const key = spec.sortBy.join(', ');
      // file_row_number: the position in the file, to compare with the position the table's sort order gives.
      const [{ misplaced }] = await lake(
        `SELECT count(*) FILTER (WHERE file_row_number <> pos)::INTEGER AS misplaced
         FROM (SELECT file_row_number, row_number() OVER (ORDER BY ${key}) - 1 AS pos
               FROM read_parquet(${sqlString(file(spec.name))}, file_row_number = true))`,
      );
      expect(misplaced, `${spec.name} is not in ${key} order`).toBe(0);
    }
  }

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), '13f-lines-'));
    settings = loadSettings({ DATA_DIR: join(dir, 'data'), LOG_LEVEL: 'silent' });
    await writeDataSet(join(dir, 'first'), FIRST);
    await writeDataSet(join(dir, 'second'), SECOND);
    await runIngest(def13f, { from: join(dir, 'first') }, settings, { quiet: true, skipDiff: true });
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('numbers each filing’s lines by INFOTABLE_SK, 1-based, whether or not its keys form a run', async () => {
    const rows = await lake<{ issuer_name: string; line_no: number }>(
      `SELECT issuer_name, line_no FROM read_parquet(${sqlString(file(holdings13f.name))}) ORDER BY accession_number, line_no`,
    );
    expect(rows.length).toBe(11);
    for (const r of rows) expect(`L${r.line_no}`, r.issuer_name).toBe(r.issuer_name.split(' ').pop());
  });

  it('writes the manager-sorted copy with exactly the rows of holdings_13f, each file in its order', async () => {
    await expectSameRowsEachInItsOrder();
  });

  it('writes the columns sorted as codes (sortAsCodes) as plain strings, the Parquet type a VARCHAR gets', async () => {
    for (const spec of [holdings13f, holdings13fByManager]) {
      const cols = await lake<{ name: string; type: string; converted_type: string }>(
        `SELECT name, type, converted_type FROM parquet_schema(${sqlString(file(spec.name))})`,
      );
      for (const c of spec.sortAsCodes ?? []) expect(cols.find((x) => x.name === c)).toEqual({ name: c, type: 'BYTE_ARRAY', converted_type: 'UTF8' });
    }
    expect(holdings13f.sortAsCodes?.length).toBeGreaterThan(0);
  });

  it('keeps the copy identical after a merge that supersedes earlier lines and adds a manager', async () => {
    const statements: string[] = [];
    await runIngest(def13f, { from: join(dir, 'second') }, settings, { quiet: true, skipDiff: true, onLoadSql: (sql) => statements.push(sql) });
    // A window of a quarter the lake holds: the managers and unmapped aggregates read the lake's lines of it too.
    expect(statements.filter((sql) => /CREATE OR REPLACE TEMP TABLE eff13f/.test(sql))).toHaveLength(1);
    const rows = await lake<{ issuer_name: string; is_current: boolean }>(
      `SELECT issuer_name, is_current FROM read_parquet(${sqlString(file(holdings13fByManager.name))}) WHERE manager_cik = '0001111111' ORDER BY issuer_name`,
    );
    expect(rows.map((r) => `${r.issuer_name}:${r.is_current}`)).toEqual([
      'RESTATED L1:true',
      'RESTATED L2:true',
      'RUN L1:false',
      'RUN L2:false',
      'RUN L3:false',
      'RUN L4:false',
    ]);
    await expectSameRowsEachInItsOrder();
    const [{ n }] = await lake(`SELECT count(*)::INTEGER AS n FROM read_parquet(${sqlString(file(holdings13fByManager.name))})`);
    expect(n).toBe(16);
  });

  it('reads none of the lake’s lines for a quarter the lake does not hold: its aggregates read the staged lines in place', async () => {
    // 1.07 s of CPU for a 3M-line quarter ingested after another was a copy of its own staged lines, made because the
    // lake held holdings of some other quarter (docs/13f-funds.md).
    await writeDataSet(join(dir, 'next-quarter'), [FIRST[0]], '31-MAR-2024');
    const statements: string[] = [];
    await runIngest(def13f, { from: join(dir, 'next-quarter') }, settings, { quiet: true, skipDiff: true, onLoadSql: (sql) => statements.push(sql) });
    expect(statements.filter((sql) => /TEMP TABLE eff13f/.test(sql))).toEqual([]);
    expect(statements.filter((sql) => /TEMP VIEW eff13f/.test(sql))).toHaveLength(1);
    const managers = await lake<{ period: string; holdings_count: number }>(
      `SELECT period, holdings_count FROM read_parquet(${sqlString(join(settings.lakeDir, 'managers_13f', '*', '*.parquet'))}, hive_partitioning = true) ` +
        `WHERE cik = '0001111111' ORDER BY period`,
    );
    expect(managers).toEqual([
      { period: '2023Q4', holdings_count: 2 },
      { period: '2024Q1', holdings_count: 4 },
    ]);
  });
});
