import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import stats, { quarterEndOf } from '../../ingest/datasets/private-fund-stats/dataset.ts';
import { statsSheets } from '../../ingest/datasets/private-fund-stats/sample.ts';
import { readXlsx, xlsxMembers } from '../../ingest/sources/common/xlsx.ts';
import { writeZip } from '../../ingest/sources/common/zip.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { runLoad } from './load-harness.ts';
import privateFundStatsRoutes from '../../api/private-fund-stats/routes.ts';
import { tempDir } from '../support/temp-dir.ts';

describe('private-fund-stats: workbook parsing', () => {
  it('quarter from file names', () => {
    expect(quarterEndOf('private-funds-statistics-2025-q2.xlsx')).toBe('2025-06-30');
    expect(quarterEndOf('pfs_Q4_2024.xlsx')).toBe('2024-12-31');
    expect(quarterEndOf('stats.xlsx')).toBeNull();
  });

  it('reads an XLSX: inline and shared strings, numbers, gaps; long rows with masked cells and footnotes', async () => {
    const dir = tempDir('pfs-');
    const path = join(dir, 'private-funds-statistics-2025-q3.xlsx');
    await writeZip(
      path,
      xlsxMembers([
        {
          name: 'Table 7',
          rows: [
            ['Table 7. Number of Funds & Advisers'],
            [null],
            ['Fund type', 'Funds', 'Advisers', null, 'GAV %'],
            ['Hedge Fund', 1234, '567', null, '12.5%'],
            ['Liquidity Fund', '*', 3, null, 'n/a'],
            ['Odd Fund', 'abc', 4],
            ['Note: figures are rounded.'],
          ],
        },
      ]),
    );
    const sheets = await readXlsx(path);
    expect(sheets[0].name).toBe('Table 7');
    expect(sheets[0].rows[3]).toEqual(['Hedge Fund', '1234', '567', '', '12.5%']);
    const c = await runLoad(stats, [{ path, url: null }]);
    expect(c.invalid).toEqual([]);
    const rows = c.rows.private_fund_stats!;
    expect(rows.map((r) => [r.row_key, r.metric_key, r.value, r.value_raw])).toEqual([
      ['Hedge Fund', 'Funds', 1234, '1234'],
      ['Hedge Fund', 'Advisers', 567, '567'],
      ['Hedge Fund', 'GAV %', 12.5, '12.5%'],
      ['Liquidity Fund', 'Funds', null, '*'],
      ['Liquidity Fund', 'Advisers', 3, '3'],
      ['Liquidity Fund', 'GAV %', null, 'n/a'],
      ['Odd Fund', 'Funds', null, 'abc'],
      ['Odd Fund', 'Advisers', 4, '4'],
    ]);
    expect(rows[0]).toMatchObject({
      quarter_end_date: '2025-09-30',
      tab_name: 'Table 7',
      table_title: 'Table 7. Number of Funds & Advisers',
      row_order: 1,
      col_order: 1,
      source_line: 4,
      source_file: 'private-funds-statistics-2025-q3.xlsx!Table 7',
    });
    expect(c.bad).toEqual([{ file: 'private-funds-statistics-2025-q3.xlsx!Table 7', line: 6, reason: "tab 'Table 7': unparsable value 'abc' (kept as text)" }]);
  });
});

describe('GET /v1/private-fund-stats', () => {
  let app: TestApp;
  const sheets = statsSheets(8);
  beforeAll(async () => {
    app = await createTestApp({ routes: privateFundStatsRoutes });
    const s = await app.ingestSample(stats, { seed: 8, skipDiff: true });
    expect(s.badRows).toBe(0);
  });
  afterAll(() => app?.close());

  it('long format in table order, every filter, value range', async () => {
    const r = await app.get('/v1/private-fund-stats?tab_name=table%201&row_key=Hedge%20Fund&metric_key=2025%20Q4');
    expect(r.status).toBe(200);
    const hedge = sheets[0].rows.find((x) => x[0] === 'Hedge Fund')!;
    expect(r.body.data).toEqual([
      expect.objectContaining({
        quarter_end_date: '2025-12-31',
        tab_name: 'Table 1',
        row_key: 'Hedge Fund',
        metric_key: '2025 Q4',
        value: hedge[5],
        source: 'sec_private_fund_stats',
      }),
    ]);
    const q = await app.get('/v1/private-fund-stats?quarter_end_date=2025-12-31&tab_name=Table%203&limit=100');
    expect(q.body.data).toHaveLength(20);
    expect(q.body.data.map((d: any) => d.row_key).slice(0, 4)).toEqual(['5th', '5th', '5th', '5th']);
    const range = await app.get('/v1/private-fund-stats?tab_name=Table%203&min_value=2&max_value=4&limit=100');
    const expected = sheets[2].rows
      .slice(2)
      .flatMap((row) => row.slice(1))
      .filter((v) => typeof v === 'number' && v >= 2 && v <= 4);
    expect(range.body.data.map((d: any) => d.value).sort()).toEqual((expected as number[]).sort());
    const none = await app.get('/v1/private-fund-stats?quarter_end_date=2020-03-31');
    expect(none.body.warnings[0].code).toBe('empty_result');
  });

  it('422 on min_value > max_value and a bad date', async () => {
    const r = await app.get('/v1/private-fund-stats?min_value=5&max_value=1');
    expect(r.status).toBe(422);
    expect(r.body.detail[0].loc).toEqual(['query', 'max_value']);
    const d = await app.get('/v1/private-fund-stats?quarter_end_date=2025-13-31');
    expect(d.status).toBe(422);
  });
});
