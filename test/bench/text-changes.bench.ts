import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { textChangesHandler } from '../../ingest/events/handlers/text-changes.ts';
import { openDuck, sqlString } from '../../ingest/lake/duck.ts';
import { openLakeReader } from '../../ingest/lake/reader.ts';
import { loadSettings } from '../../schemas/settings.ts';
import { allColumns } from '../../schemas/table.ts';
import { filingSectionsTable } from '../../schemas/tables/filing-sections.ts';
import { ratio, type BenchResult } from './support.ts';

const YEARS = [2022, 2023, 2024];

/**
 * The 10-K/10-Q text handler diffing a year of sections against the years before: `BENCH_SECTIONS_COMPANIES`
 * companies (3,000 by default) each filing a 10-K (risk factors, MD&A) and three 10-Qs (MD&A) a year, 12 paragraphs
 * a section, three years. Baseline in the same run: one plain DuckDB scan of every section's text in the lake, what
 * reading the handler's input once costs.
 */
export default async function textChangesBench(): Promise<BenchResult[]> {
  const companies = Number(process.env.BENCH_SECTIONS_COMPANIES ?? 3000);
  const lakeDir = await mkdtemp(join(tmpdir(), 'bench-sections-'));
  try {
    const t0 = performance.now();
    await writeSections(lakeDir, companies);
    const generateSeconds = (performance.now() - t0) / 1000;
    const lake = await openLakeReader(lakeDir, [], {}, { serving: false });
    try {
      const settings = { ...loadSettings({}), lakeDir };
      const [{ sections }] = await lake.query(`SELECT count(*)::INTEGER AS sections FROM filing_sections WHERE filed_year = '2024'`);
      const c0 = process.cpuUsage();
      await lake.query('SELECT sum(length(text))::BIGINT AS n FROM filing_sections');
      const scanCpu = cpuSince(c0);
      const c1 = process.cpuUsage();
      const t1 = performance.now();
      const { drafts = [] } = await textChangesHandler.run({ lake, settings, log: () => undefined }, [{ table: 'filing_sections', partitions: ['2024'] }]);
      const handlerCpu = cpuSince(c1);
      return [
        {
          name: `text changes: a year of ${Number(sections).toLocaleString('en-US')} sections against two before`,
          figures: {
            generate_s: round(generateSeconds),
            drafts: drafts.length,
            handler_s: round((performance.now() - t1) / 1000),
            handler_cpu_s: round(handlerCpu),
            cpu_ms_per_section: round((handlerCpu * 1000) / Number(sections)),
            scan_all_text_cpu_s: round(scanCpu),
            handler_vs_scan: ratio(handlerCpu, scanCpu),
          },
        },
      ];
    } finally {
      lake.close();
    }
  } finally {
    await rm(lakeDir, { recursive: true, force: true });
  }
}

const round = (n: number) => Math.round(n * 100) / 100;

function cpuSince(start: NodeJS.CpuUsage): number {
  const c = process.cpuUsage(start);
  return (c.user + c.system) / 1e6;
}

/** The sections, one partition a year, sorted as the table's writer sorts them; a third of each year's paragraphs reworded. */
async function writeSections(lakeDir: string, companies: number): Promise<void> {
  const expr: Record<string, string> = {
    accession: `cik || '-' || (year % 100) || '-' || lpad(CAST(k + 1 AS VARCHAR), 6, '0')`,
    cik: 'cik',
    company: `'Company ' || cik`,
    form: 'form',
    base_form: 'form',
    filed_date: `CAST(make_date(year, 1, 1) + to_days(CAST(30 + k * 90 + co % 20 AS INTEGER)) AS DATE)`,
    filed_year: 'CAST(year AS VARCHAR)',
    section: 'section',
    item: `CASE WHEN section = 'risk_factors' THEN '1A' WHEN form = '10-K' THEN '7' ELSE 'I-2' END`,
    heading: `'Item'`,
    text:
      `(SELECT string_agg('Paragraph ' || p || ' of ' || cik || ' on ' || section || ' (' || (hash(cik, p, year) % 3) || ')' || repeat(' text', 60), ` +
      `chr(10) || chr(10)) FROM range(12) r(p))`,
    paragraphs: '12',
    words: '800',
    source_url: `'https://www.sec.gov/Archives/edgar/data/' || co || '/' || cik || '.txt'`,
    parser_version: '1',
  };
  const cols = allColumns(filingSectionsTable);
  const select = Object.keys(cols)
    .map((c) => `${expr[c] ?? `NULL::${cols[c].type}`} AS "${c}"`)
    .join(', ');
  const filings =
    `SELECT co, lpad(CAST(co AS VARCHAR), 10, '0') AS cik, year, k, CASE WHEN k = 0 THEN '10-K' ELSE '10-Q' END AS form, section ` +
    `FROM range(${companies}) a(co), (VALUES ${YEARS.map((y) => `(${y})`).join(', ')}) y(year), range(4) b(k), (VALUES ('risk_factors'), ('mda')) s(section) ` +
    `WHERE section = 'mda' OR k = 0`;
  const { instance, conn } = await openDuck(':memory:', { threads: '2' });
  try {
    await conn.run(
      `COPY (SELECT ${select} FROM (${filings}) ORDER BY ${filingSectionsTable.sortBy.join(', ')}) ` +
        `TO ${sqlString(join(lakeDir, filingSectionsTable.name))} (FORMAT parquet, COMPRESSION zstd, PARTITION_BY (filed_year))`,
    );
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}
