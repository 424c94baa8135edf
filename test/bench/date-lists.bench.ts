import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import filingsRoutes from '../../api/filings/routes.ts';
import { openDuck, queryRows, sqlString } from '../../ingest/lake/duck.ts';
import { filingsTable } from '../../schemas/tables/filings.ts';
import { generatedColumns } from '../support/generated-columns.ts';
import { createTestApp } from '../support/harness.ts';
import { measure, type BenchResult } from './support.ts';

/**
 * `/v1/filings` over a filing index of BENCH_FILINGS_QUARTERS quarters (40) of BENCH_FILINGS_PER_QUARTER filings (300,000:
 * the index's recent rate, 12M in all), written straight into the lake layout by DuckDB in the writer's sort order
 * (CIK, date, accession). Each page through HTTP in this process (p50/p99, the process's CPU per call, BENCH_FILINGS_RUNS
 * calls, 20) beside raw DuckDB on the same files in the same run (one thread, prepared): the page as the one query over
 * every quarter's file that the list ran before its order led with the quarter (docs/layouts.md).
 */
const QUARTERS = Number(process.env.BENCH_FILINGS_QUARTERS ?? 40);
const PER = Number(process.env.BENCH_FILINGS_PER_QUARTER ?? 300_000);
const RUNS = Number(process.env.BENCH_FILINGS_RUNS ?? 20);
const FORMS = `['4', '8-K', '10-Q', 'SC 13G', '424B2', '10-K', 'D', 'S-1'][1 + CAST(hash(i * 7) % 8 AS BIGINT)]`;

export default async function dateListsBench(): Promise<BenchResult[]> {
  const app = await createTestApp({ routes: filingsRoutes, env: { METERING: 'off', RATE_LIMIT_RPS: '1000000' } });
  const { instance, conn } = await openDuck(':memory:', { threads: '2', memory_limit: '4GB' });
  try {
    const dir = join(app.settings.lakeDir, filingsTable.name);
    const quarters = Array.from({ length: QUARTERS }, (_, k) => {
      const q = 2025 * 4 + 3 - k;
      return { name: `${Math.floor(q / 4)}Q${(q % 4) + 1}`, start: `DATE '${Math.floor(q / 4)}-${String((q % 4) * 3 + 1).padStart(2, '0')}-01'` };
    });
    const t0 = performance.now();
    for (const q of quarters) {
      const expr: Record<string, string> = {
        accession: `lpad(CAST(1000000 + i % 900000 AS VARCHAR), 10, '0') || '-${q.name.slice(2, 4)}-' || lpad(CAST(i AS VARCHAR), 6, '0')`,
        cik: `lpad(CAST(hash(i) % 700000 AS VARCHAR), 10, '0')`,
        company: `'COMPANY ' || (hash(i) % 700000)`,
        form: FORMS,
        base_form: FORMS,
        is_amendment: 'false',
        filed_date: `${q.start} + CAST(i * 90 // ${PER} AS INTEGER)`,
        size: 'hash(i) % 1000000',
        filing_url: `'https://www.sec.gov/Archives/edgar/data/' || i || '.txt'`,
        index_url: `'https://www.sec.gov/Archives/edgar/data/' || i || '-index.htm'`,
        detail_source: `'index'`,
      };
      const part = join(dir, `filed_quarter=${q.name}`);
      await mkdir(part, { recursive: true });
      await conn.run(
        `COPY (SELECT ${generatedColumns(filingsTable, expr, ['filed_quarter'])} FROM range(${PER}) t(i) ORDER BY ${filingsTable.sortBy.join(', ')}) ` +
          `TO ${sqlString(join(part, 'data.parquet'))} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 122880)`,
      );
    }
    const generatedS = Math.round((performance.now() - t0) / 100) / 10;
    await app.services.lake.refresh();
    await conn.run('SET threads = 1');
    await conn.run('SET GLOBAL parquet_metadata_cache = true');
    await conn.run('SET GLOBAL late_materialization_max_rows = 0');
    const all = `read_parquet(${sqlString(join(dir, '*', '*.parquet'))}, hive_partitioning = true)`;
    // A filer of the newest quarter with a filing in few quarters: its page walks back through the quarters.
    const ciks = (
      await queryRows(
        conn,
        `SELECT DISTINCT cik FROM read_parquet(${sqlString(join(dir, `filed_quarter=${quarters[0].name}`, '*.parquet'))}) ORDER BY hash(cik) LIMIT 10`,
      )
    ).map((r) => String(r.cik));
    const month = quarters[Math.min(8, quarters.length - 1)].start.slice(6, 13);
    const pages: [name: string, query: (i: number) => string, where: string, key: (i: number) => unknown[]][] = [
      ['first page, no filter', () => '', 'true', () => []],
      ['?form_type=10-K', () => 'form_type=10-K', 'form = $1', () => ['10-K']],
      ['?cik= (a filer of the newest quarter)', (i) => `cik=${ciks[i % 10]}`, 'cik = $1', (i) => [ciks[i % 10]]],
      [
        `?filed_from=&filed_to= (${month}, two years back)`,
        () => `filed_from=${month}-01&filed_to=${month}-28`,
        'filed_date BETWEEN $1::DATE AND $2::DATE',
        () => [`${month}-01`, `${month}-28`],
      ],
    ];
    const out: BenchResult[] = [
      { name: `date-lists: filing index of ${(QUARTERS * PER).toLocaleString('en-US')} filings in ${QUARTERS} quarters`, figures: { generated_s: generatedS } },
    ];
    for (const [name, query, where, key] of pages) {
      let i = 0;
      const api = await measure(async () => {
        const r = await app.get(`/v1/filings?limit=25&${query(i++)}`);
        if (r.status !== 200) throw new Error(`${name}: ${r.status}`);
      }, RUNS);
      const p = await conn.prepare(`SELECT * FROM ${all} WHERE ${where} ORDER BY filed_date DESC, accession DESC, cik LIMIT 26`);
      let j = 0;
      const raw = await measure(
        async () => {
          const k = key(j++);
          if (k.length) p.bind(k as never);
          await p.run();
        },
        Math.max(3, Math.round(RUNS / 4)),
      );
      out.push({
        name: `date-lists: /v1/filings ${name}`,
        figures: {
          ...api,
          raw_every_file_p50_ms: raw.p50_ms,
          raw_every_file_cpu_ms: raw.cpu_ms,
        },
      });
    }
    return out;
  } finally {
    conn.closeSync();
    instance.closeSync();
    await app.close();
  }
}
