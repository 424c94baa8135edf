import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { runDiffStage } from '../../ingest/events/diff-stage.ts';
import { openDuck, sqlString } from '../../ingest/lake/duck.ts';
import { partitionDir } from '../../ingest/lake/layout.ts';
import { holdings13f, holdings13fByManager } from '../../schemas/tables/13f.ts';
import { createTestApp } from '../support/harness.ts';
import type { BenchResult } from './support.ts';
import { generatedColumns } from '../support/generated-columns.ts';

/**
 * The 13F diff on two generated quarters (3,000,000 rows each by default; BENCH_13F_ROWS to change): 5,000
 * managers × 600 CUSIPs; between the quarters some positions grow, shrink, open and close.
 */
export default async function eventsBench(): Promise<BenchResult[]> {
  const rows = Number(process.env.BENCH_13F_ROWS ?? 3_000_000);
  const app = await createTestApp({ env: { METERING: 'off' } });
  const out: BenchResult[] = [];
  try {
    const { instance, conn } = await openDuck(':memory:', { threads: '2' });
    const gen = (q: number, period: string, end: string) => {
      const expr: Record<string, string> = {
        accession_number: `'00000${q}0000-24-' || lpad(CAST(i // 600 AS VARCHAR), 6, '0')`,
        line_no: 'CAST(i % 600 + 1 AS INTEGER)',
        manager_cik: `lpad(CAST(1000000 + i // 600 AS VARCHAR), 10, '0')`,
        manager_name: `'MANAGER ' || CAST(i // 600 AS VARCHAR)`,
        period_of_report: `DATE '${end}'`,
        issuer_name: `'ISSUER ' || CAST((i % 600 + ${q === 2 ? 'CASE WHEN i % 97 = 0 THEN 7 ELSE 0 END' : '0'}) AS VARCHAR)`,
        cusip: `lpad(CAST((i % 600 + ${q === 2 ? 'CASE WHEN i % 97 = 0 THEN 700 ELSE 0 END' : '0'}) AS VARCHAR), 8, '0') || '1'`,
        cusip_valid: 'true',
        shares:
          q === 1 ? 'CAST(1000 + i % 5000 AS DOUBLE)' : 'CAST(1000 + i % 5000 + CASE WHEN i % 3 = 0 THEN 100 WHEN i % 3 = 1 THEN -50 ELSE 0 END AS DOUBLE)',
        value_usd: 'CAST((1000 + i % 5000) * 50 AS BIGINT)',
        value_unit_decision: "'dollars'",
        value_unit_reason: "'bench'",
        amendment_effect: "'original'",
        is_current: 'true',
        source_url: "'https://www.sec.gov/Archives/edgar/data/1/x.txt'",
        parser_version: '1',
      };
      return { select: `SELECT ${generatedColumns(holdings13f, expr, ['period'])} FROM range(${rows}) t(i)`, period };
    };
    const t0 = performance.now();
    for (const [q, period, end] of [
      [1, '2024Q1', '2024-03-31'],
      [2, '2024Q2', '2024-06-30'],
    ] as const) {
      const g = gen(q, period, end);
      // The two sort orders an ingest writes: the diff reads the manager-sorted one, a slice of managers at a time.
      for (const [table, order] of [
        [holdings13f, 'cusip, manager_cik'],
        [holdings13fByManager, 'manager_cik, cusip'],
      ] as const) {
        const dir = partitionDir(app.settings.lakeDir, table, period);
        await mkdir(dir, { recursive: true });
        await conn.run(`COPY (${g.select} ORDER BY ${order}) TO ${sqlString(join(dir, 'data.parquet'))} (FORMAT parquet, COMPRESSION zstd)`);
      }
    }
    conn.closeSync();
    instance.closeSync();
    const genSeconds = (performance.now() - t0) / 1000;
    const t1 = performance.now();
    const c1 = process.cpuUsage();
    const s = await runDiffStage(app.settings, [{ table: 'holdings_13f', partitions: ['2024Q2'] }], { quiet: true, only: ['13f'] });
    const seconds = (performance.now() - t1) / 1000;
    const cpu = process.cpuUsage(c1);
    out.push({
      name: `13F diff, 2 quarters × ${rows.toLocaleString('en-US')} rows`,
      figures: {
        generate_s: Math.round(genSeconds * 10) / 10,
        events: s.appended,
        diff_s: Math.round(seconds * 10) / 10,
        diff_cpu_s: Math.round((cpu.user + cpu.system) / 100_000) / 10,
        events_per_s: Math.round(s.appended / seconds),
      },
    });
    const t2 = performance.now();
    const again = await runDiffStage(app.settings, [{ table: 'holdings_13f', partitions: ['2024Q2'] }], { quiet: true, only: ['13f'] });
    out.push({
      name: '13F diff re-run (all keys known, nothing appended)',
      figures: { appended: again.appended, seconds: Math.round(((performance.now() - t2) / 1000) * 10) / 10 },
    });
  } finally {
    await app.close();
  }
  return out;
}
