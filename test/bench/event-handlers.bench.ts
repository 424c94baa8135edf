import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { proxyHandler } from '../../ingest/events/handlers/proxy.ts';
import { textChangesHandler } from '../../ingest/events/handlers/text-changes.ts';
import { openDuck, sqlString } from '../../ingest/lake/duck.ts';
import { openLakeReader } from '../../ingest/lake/reader.ts';
import type { ChangedTable, DiffHandler } from '../../ingest/events/handler.ts';
import { loadSettings } from '../../schemas/settings.ts';
import { filingSectionsTable } from '../../schemas/tables/filing-sections.ts';
import { proxyCompensationTable, proxyOfficersTable } from '../../schemas/tables/proxy.ts';
import type { TableSpec } from '../../schemas/table.ts';
import { ratio, type BenchResult } from './support.ts';
import { generatedColumns } from '../support/generated-columns.ts';

const YEARS = [2022, 2023, 2024];

/**
 * Diff handlers that compare each filing with the filer's previous one, on generated lakes of a few years, the newest
 * year diffed against the ones before:
 * - the 10-K/10-Q text handler: `BENCH_SECTIONS_COMPANIES` companies (3,000 by default) each filing a 10-K (risk
 *   factors, MD&A) and three 10-Qs (MD&A) a year, 12 paragraphs a section. Baseline in the same run: one plain DuckDB
 *   scan of every section's text in the lake, what reading the handler's input once costs;
 * - the proxy handler: `BENCH_PROXY_ISSUERS` issuers (5,000 by default) each filing a DEF 14A a year, 12 people and 15
 *   summary-compensation rows (5 executives × 3 fiscal years) a proxy. Baseline: one plain scan of both tables.
 */
export default async function eventHandlersBench(): Promise<BenchResult[]> {
  const companies = Number(process.env.BENCH_SECTIONS_COMPANIES ?? 3000);
  const issuers = Number(process.env.BENCH_PROXY_ISSUERS ?? 5000);
  return [
    await handlerBench({
      write: (lakeDir) => writeSections(lakeDir, companies),
      handler: textChangesHandler,
      changed: [{ table: 'filing_sections', partitions: ['2024'] }],
      unit: 'section',
      countSql: `SELECT count(*)::INTEGER AS n FROM filing_sections WHERE filed_year = '2024'`,
      title: (n) => `text changes: a year of ${n} sections against two before`,
      baseline: { figure: 'scan_all_text_cpu_s', sql: 'SELECT sum(length(text))::BIGINT AS n FROM filing_sections' },
    }),
    await handlerBench({
      write: (lakeDir) => writeProxies(lakeDir, issuers),
      handler: proxyHandler,
      changed: ['proxy_officers', 'proxy_compensation'].map((table) => ({ table, partitions: ['2024'] })),
      unit: 'proxy',
      countSql: `SELECT count(DISTINCT filing_id)::INTEGER AS n FROM proxy_officers WHERE proxy_fiscal_year = 2024`,
      title: (n) => `proxy changes: a year of ${n} proxies against two before`,
      baseline: {
        figure: 'scan_both_tables_cpu_s',
        sql:
          'SELECT (SELECT count(DISTINCT (cik, filing_id, name_key)) FROM proxy_officers) + ' +
          '(SELECT count(DISTINCT (filer_cik, filing_id, name_key)) FROM proxy_compensation) AS n',
      },
    }),
  ];
}

/** One handler on a generated lake: its CPU for the diffed year, per unit of that year, and beside a plain query. */
interface HandlerCase {
  write(lakeDir: string): Promise<void>;
  handler: DiffHandler;
  changed: ChangedTable[];
  /** What the diffed year is counted in ('section', 'proxy'), and the query counting it. */
  unit: string;
  countSql: string;
  title(count: string): string;
  /** The plain DuckDB query the handler's CPU is printed beside, and its figure's name. */
  baseline: { figure: string; sql: string };
}

async function handlerBench(c: HandlerCase): Promise<BenchResult> {
  const lakeDir = await mkdtemp(join(tmpdir(), 'bench-handler-'));
  try {
    const t0 = performance.now();
    await c.write(lakeDir);
    const generateSeconds = (performance.now() - t0) / 1000;
    const lake = await openLakeReader(lakeDir, [], {}, { serving: false });
    try {
      const count = Number((await lake.query(c.countSql))[0].n);
      const scanCpu = await cpuOf(() => lake.query(c.baseline.sql));
      const t1 = performance.now();
      let drafts = 0;
      const handlerCpu = await cpuOf(async () => {
        const context = { lake, settings: { ...loadSettings({}), lakeDir }, log: () => undefined };
        drafts = (await c.handler.run(context, c.changed)).drafts?.length ?? 0;
      });
      return {
        name: c.title(count.toLocaleString('en-US')),
        figures: {
          generate_s: round(generateSeconds),
          drafts,
          handler_s: round((performance.now() - t1) / 1000),
          handler_cpu_s: round(handlerCpu),
          [`cpu_ms_per_${c.unit}`]: round((handlerCpu * 1000) / count),
          [c.baseline.figure]: round(scanCpu),
          handler_vs_scan: ratio(handlerCpu, scanCpu),
        },
      };
    } finally {
      await lake.close();
    }
  } finally {
    await rm(lakeDir, { recursive: true, force: true });
  }
}

async function cpuOf(fn: () => Promise<unknown>): Promise<number> {
  const c0 = process.cpuUsage();
  await fn();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1e6;
}

const round = (n: number) => Math.round(n * 100) / 100;

/** The generator's issuers or companies (`co`, its 10-digit `cik`) over the lake's years (`year`). */
const filers = (n: number) =>
  `(SELECT co, lpad(CAST(co AS VARCHAR), 10, '0') AS cik, year FROM range(${n}) a(co), (VALUES ${YEARS.map((y) => `(${y})`).join(', ')}) y(year))`;

/** The sections, one partition a year, sorted as the table's writer sorts them; a third of each year's paragraphs reworded. */
function writeSections(lakeDir: string, companies: number): Promise<void> {
  return writeTables(lakeDir, [
    {
      spec: filingSectionsTable,
      rows:
        `SELECT *, CASE WHEN k = 0 THEN '10-K' ELSE '10-Q' END AS form ` +
        `FROM ${filers(companies)}, range(4) b(k), (VALUES ('risk_factors'), ('mda')) s(section) ` +
        `WHERE section = 'mda' OR k = 0`,
      expr: {
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
      },
    },
  ]);
}

/**
 * A DEF 14A a year per issuer: 9 directors and 3 officers (a third of the issuers replace a director each year) and the
 * summary compensation of 5 executives over 3 fiscal years (each total moving from year to year).
 */
function writeProxies(lakeDir: string, issuers: number): Promise<void> {
  const filing = {
    filing_id: `cik || '-' || (year % 100) || '-000100'`,
    accession_number: `cik || '-' || (year % 100) || '-000100'`,
    filed_date: `make_date(year, 4, CAST(1 + co % 28 AS INTEGER))`,
    form_type: `'DEF 14A'`,
    proxy_fiscal_year: 'year',
    source_url: `'https://www.sec.gov/Archives/edgar/data/' || co || '/' || cik || '.htm'`,
    confidence: '0.9',
    parser_version: '1',
  };
  const person = `CASE WHEN p = 0 AND co % 3 = 0 THEN 'Director ' || co || ' of ' || year ELSE 'Person ' || co || '-' || p END`;
  const executive = `'Executive ' || co || '-' || e`;
  return writeTables(lakeDir, [
    {
      spec: proxyOfficersTable,
      rows: `SELECT * FROM ${filers(issuers)}, range(12) t(p)`,
      expr: {
        ...filing,
        record_id: `cik || '-' || year || '-' || p`,
        cik: 'cik',
        issuer: `'Issuer ' || co`,
        name: person,
        name_key: `lower(${person})`,
        name_last: `'Last ' || p`,
        is_director: 'p < 9',
        is_officer: 'p >= 9',
        found_in: `'[]'`,
      },
    },
    {
      spec: proxyCompensationTable,
      rows: `SELECT * FROM ${filers(issuers)}, range(5) t(e), range(3) f(back)`,
      expr: {
        ...filing,
        record_id: `cik || '-' || year || '-' || e || '-' || back`,
        filer_cik: 'cik',
        issuer_name: `'Issuer ' || co`,
        table_kind: `'summary_compensation'`,
        executive_name: executive,
        name_key: `lower(${executive})`,
        name_last: `'Last ' || e`,
        is_director: 'false',
        fiscal_year: 'year - 1 - back',
        total_usd: `CAST(1000000 + (co % 7 + 1) * 150000 * (year - back - 2018) + e * 50000 AS BIGINT)`,
        pvp_verified: 'false',
      },
    },
  ]);
}

/**
 * Each table's partitions from `rows` (a SELECT of generator columns), each column its expression in `expr` or NULL,
 * sorted as the table's writer sorts them.
 */
async function writeTables(lakeDir: string, tables: { spec: TableSpec; rows: string; expr: Record<string, string> }[]): Promise<void> {
  const { instance, conn } = await openDuck(':memory:', { threads: '2' });
  try {
    for (const { spec, rows, expr } of tables) {
      await conn.run(
        `COPY (SELECT ${generatedColumns(spec, expr)} FROM (${rows}) ORDER BY ${spec.sortBy.join(', ')}) ` +
          `TO ${sqlString(join(lakeDir, spec.name))} (FORMAT parquet, COMPRESSION zstd, PARTITION_BY (${spec.partitionBy}))`,
      );
    }
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}
