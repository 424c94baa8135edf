import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Endpoint } from '../../api/core/endpoint.ts';
import filingsRoutes from '../../api/filings/routes.ts';
import insiderRoutes from '../../api/insider/routes.ts';
import patentsRoutes from '../../api/patents/routes.ts';
import raisesRoutes from '../../api/raises/routes.ts';
import type { DuckDBConnection } from '@duckdb/node-api';
import { openDuck, queryRows, sqlString } from '../../ingest/lake/duck.ts';
import { HEAD_ROWS } from '../../ingest/lake/heads.ts';
import { writeKeyIndexes } from '../../ingest/lake/key-index.ts';
import { openLakeReader } from '../../ingest/lake/reader.ts';
import { DEFAULT_ROW_GROUP_SIZE, type TableSpec } from '../../schemas/table.ts';
import { filingsTable } from '../../schemas/tables/filings.ts';
import { entitiesTable, entityTickersTable } from '../../schemas/tables/entities.ts';
import { insiderTransactionsTable } from '../../schemas/tables/insider.ts';
import { patentGrantsTable } from '../../schemas/tables/patents.ts';
import { formDOfferingsTable } from '../../schemas/tables/raises.ts';
import { generatedColumns } from '../support/generated-columns.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { cpuMs, measure, percentile, type BenchResult } from './support.ts';

/**
 * The date-ordered lists that walk their quarters newest first (docs/layouts.md), each over a lake of
 * BENCH_DATE_LISTS_QUARTERS quarters (40) written straight into the lake layout by DuckDB in the writer's sort order
 * and the table's row-group size:
 * - `/v1/filings`: BENCH_FILINGS_PER_QUARTER filings a quarter (300,000: the index's recent rate, 12M in all), each
 *   filer in about one quarter of three;
 * - `/v1/insider`: BENCH_INSIDER_PER_QUARTER transactions a quarter (300,000: Form 4 rows of a recent quarter, derivative
 *   ones included), 40,000 issuers, so an issuer's page reads about three quarters;
 * - `/v1/raises`: BENCH_FORM_D_PER_QUARTER Form D notices a quarter (20,000, about the regulator's rate), one of the smaller
 *   date-ordered lists that read every quarter's file in one query before they led with the quarter.
 * - `/v1/uspto-patent-grants`: BENCH_PATENTS_PER_YEAR grants a year (350,000, about the office's rate), partitioned by
 *   year: a quarter of the others' count in years (at least 2).
 * Each page through HTTP in this process (p50/p99, the process's CPU per call, BENCH_DATE_LISTS_RUNS calls, 20) beside,
 * in the same run: the same page served from the same rows as the table was read before it chose its own layout
 * (`before_*`: row groups of 122,880, the writer's default, no late materialization, no key index, no head), and raw DuckDB on the API's
 * files (one thread, prepared) running the page as the one query over every quarter's file that the list ran before
 * its order led with the quarter. BENCH_DATE_LISTS (comma-separated paths, e.g. /v1/insider) benches those lists only.
 * A list whose table keeps heads then takes live batches beside its newest partition (`benchLiveBatches`).
 */
const QUARTERS = Number(process.env.BENCH_DATE_LISTS_QUARTERS ?? 40);
const RUNS = Number(process.env.BENCH_DATE_LISTS_RUNS ?? 20);
/** How far back (in quarters) the older key of a page lies (`column@old`). */
const OLD_QUARTER = 20;
const FORMS = `['4', '8-K', '10-Q', 'SC 13G', '424B2', '10-K', 'D', 'S-1'][1 + CAST(hash(i * 7) % 8 AS BIGINT)]`;
const CODES = `['S', 'P', 'M', 'A', 'F', 'G'][1 + CAST(hash(i * 5) % 6 AS BIGINT)]`;

interface Quarter {
  name: string;
  /** Its first day, as SQL. */
  start: string;
}
interface Page {
  name: string;
  query: (i: number) => string;
  /** The page's filters in raw SQL, and their values. */
  where: string;
  values: (i: number) => unknown[];
}
interface DateList {
  label: string;
  /** Partitioned by year (`Quarter.name` the year, `start` its first day), not by quarter. */
  years?: boolean;
  path: string;
  routes: readonly Endpoint[];
  table: TableSpec;
  /** Rows a partition (a quarter, or a year for `years`). */
  perQuarter: number;
  /** Each column's expression over `i`, the row's number in its quarter. */
  expr: (q: Quarter) => Record<string, string>;
  /** The page order without the quarter: what the one query over every file sorts by. */
  order: string;
  /** Filter keys: values of each in the newest quarter are the keys its pages look up (10 a column). */
  keys: string[];
  /** Keys computed from the newest quarter's rows (an expression over them, for the rows `where` keeps). */
  derivedKeys?: Record<string, { expr: string; where: string }>;
  /** Other tables of the lake the list's filters read (one partition each), generated like the list's rows. */
  beside?: { table: TableSpec; partition: string; rows: number; expr: Record<string, string> }[];
  /** `lakeDir`: the API's lake, for raw SQL reading another of its tables. */
  pages: (keys: Record<string, string[]>, month: string, lakeDir: string) => Page[];
}

const lists = (quarters: number): DateList[] => [
  {
    label: 'filing index',
    path: '/v1/filings',
    routes: filingsRoutes,
    table: filingsTable,
    perQuarter: Number(process.env.BENCH_FILINGS_PER_QUARTER ?? 300_000),
    // A filer's filings fall in a quarter independently of the others (about one quarter in three), as a company that
    // files now and then: the CIK hashes the row's number with its quarter's.
    expr: (q) => {
      const filer = `hash(i + ${quarterNumber(q)}::BIGINT * 1000003) % 700000`;
      return {
        // Unique across the lake, as the regulator's are: the filer agent's number leads with the quarter of its year.
        accession: `lpad(CAST(${q.name.slice(5)}000000 + i % 900000 AS VARCHAR), 10, '0') || '-${q.name.slice(2, 4)}-' || lpad(CAST(i AS VARCHAR), 6, '0')`,
        cik: `lpad(CAST(${filer} AS VARCHAR), 10, '0')`,
        company: `'COMPANY ' || (${filer})`,
        form: FORMS,
        base_form: FORMS,
        is_amendment: 'false',
        filed_date: `${q.start} + CAST(i * 90 // $per AS INTEGER)`,
        size: 'hash(i) % 1000000',
        filing_url: `'https://www.sec.gov/Archives/edgar/data/' || i || '.txt'`,
        index_url: `'https://www.sec.gov/Archives/edgar/data/' || i || '-index.htm'`,
        detail_source: `'index'`,
      };
    },
    order: 'filed_date DESC, accession DESC, cik',
    keys: ['cik', 'accession'],
    // One filer in 70 has a ticker (10,000 of 700,000, about the regulator's ticker file beside its directory).
    derivedKeys: { ticker: { expr: `'T' || CAST(cik AS BIGINT)`, where: 'CAST(cik AS BIGINT) % 70 = 0' } },
    beside: [
      {
        table: entitiesTable,
        partition: '00000',
        rows: 700_000,
        expr: {
          cik: `lpad(CAST(i AS VARCHAR), 10, '0')`,
          name: `'COMPANY ' || i`,
          ticker: `CASE WHEN i % 70 = 0 THEN 'T' || i END`,
          // 400 industries of 1,750 filers each, and 7 filers alone in one (a rare industry: its page reads every quarter).
          sic: `CASE WHEN i % 100000 = 7 THEN '9999' ELSE lpad(CAST(i % 400 AS VARCHAR), 4, '0') END`,
          tickers: `CASE WHEN i % 70 = 0 THEN '["T' || i || '"]' ELSE '[]' END`,
          exchanges: `CASE WHEN i % 70 = 0 THEN '["Nasdaq"]' ELSE '[]' END`,
          former_names: `'[]'`,
          detail_source: `'submissions'`,
          source_url: `'https://data.sec.gov/submissions/CIK' || lpad(CAST(i AS VARCHAR), 10, '0') || '.json'`,
          updated_date: `DATE '2025-12-01'`,
        },
      },
      {
        table: entityTickersTable,
        partition: 'T',
        rows: 10_000,
        expr: {
          ticker: `'T' || (i * 70)`,
          cik: `lpad(CAST(i * 70 AS VARCHAR), 10, '0')`,
          valid_from: `DATE '2020-01-01'`,
          last_seen: `DATE '2025-12-01'`,
        },
      },
    ],
    pages: ({ cik, accession, 'accession@old': old, ticker }, month, lakeDir) => [
      { name: 'first page, no filter', query: () => '', where: 'true', values: () => [] },
      { name: '?form_type=10-K', query: () => 'form_type=10-K', where: 'form = $1', values: () => ['10-K'] },
      {
        name: `?cik= (a filer of the newest quarter, in ~1 of 3 of ${quarters})`,
        query: (i) => `cik=${cik[i % 10]}`,
        where: 'cik = $1',
        values: (i) => [cik[i % 10]],
      },
      {
        name: `?ticker= (the same kind of filer, by its symbol)`,
        query: (i) => `ticker=${ticker[i % 10]}`,
        where: `cik IN (SELECT cik FROM read_parquet(${sqlString(join(lakeDir, 'entity_tickers', '*', '*.parquet'))}) WHERE ticker = $1)`,
        values: (i) => [ticker[i % 10]],
      },
      {
        name: '?sic= (an industry of 1,750 of the 700,000 filers)',
        query: () => 'sic=0123',
        where: `cik IN (SELECT cik FROM read_parquet(${sqlString(join(lakeDir, 'entities', '*', '*.parquet'))}) WHERE sic = $1)`,
        values: () => ['0123'],
      },
      {
        name: `?sic= (a rare industry: 7 filers, its page reads all ${quarters} quarters)`,
        query: () => 'sic=9999',
        where: `cik IN (SELECT cik FROM read_parquet(${sqlString(join(lakeDir, 'entities', '*', '*.parquet'))}) WHERE sic = $1)`,
        values: () => ['9999'],
      },
      {
        name: '?accession= (a filing of the newest quarter)',
        query: (i) => `accession=${accession[i % 10]}`,
        where: 'accession = $1',
        values: (i) => [accession[i % 10]],
      },
      {
        name: `?accession= (a filing ${OLD_QUARTER} quarters back)`,
        query: (i) => `accession=${old[i % 10]}`,
        where: 'accession = $1',
        values: (i) => [old[i % 10]],
      },
      {
        name: `?filed_from=&filed_to= (${month}, two years back)`,
        query: () => `filed_from=${month}-01&filed_to=${month}-28`,
        where: 'filed_date BETWEEN $1::DATE AND $2::DATE',
        values: () => [`${month}-01`, `${month}-28`],
      },
    ],
  },
  {
    label: 'insider transactions',
    path: '/v1/insider',
    routes: insiderRoutes,
    table: insiderTransactionsTable,
    perQuarter: Number(process.env.BENCH_INSIDER_PER_QUARTER ?? 300_000),
    expr: (q) => {
      const issuer = 'hash(i // 3) % 40000';
      const owner = `lpad(CAST(1500000 + hash(i // 3 * 7) % 200000 AS VARCHAR), 10, '0')`;
      return {
        accession: `lpad(CAST(1000000 + (i // 3) % 900000 AS VARCHAR), 10, '0') || '-${q.name.slice(2, 4)}-' || lpad(CAST(i // 3 AS VARCHAR), 6, '0')`,
        row_seq: 'i % 3',
        is_derivative: 'i % 3 = 2',
        form_type: `'4'`,
        is_amendment: 'false',
        filed_date: `${q.start} + CAST(i * 90 // $per AS INTEGER)`,
        period_of_report: `${q.start} + CAST(i * 90 // $per AS INTEGER) - 2`,
        issuer_cik: `lpad(CAST(${issuer} AS VARCHAR), 10, '0')`,
        issuer_name: `'ISSUER ' || ${issuer} || ' INC'`,
        ticker: `'T' || ${issuer}`,
        owner_cik: owner,
        owner_name: `'Owner ' || hash(i // 3 * 7) % 200000`,
        owner_ciks: owner,
        owner_names: `'Owner ' || hash(i // 3 * 7) % 200000`,
        relationship: `'Officer'`,
        is_officer: 'true',
        officer_title: `'Chief Executive Officer'`,
        owners: `'[{"cik":"' || ${owner} || '","name":"Owner","relationships":["Officer"]}]'`,
        signatures: `'[{"name":"/s/ Attorney-in-fact","date":"' || CAST(${q.start} AS VARCHAR) || '"}]'`,
        security_title: `'Common Stock'`,
        shares_owned_after: 'hash(i) % 1000000',
        direct_indirect: `'D'`,
        footnotes: `'[]'`,
        source_kind: `'data_set'`,
        source_url: `'https://www.sec.gov/Archives/edgar/data/' || ${issuer} || '/' || i // 3 || '.xml'`,
        transaction_date: `${q.start} + CAST(i * 90 // $per AS INTEGER) - 2`,
        trans_form_type: `'4'`,
        trans_code: CODES,
        shares: '1 + hash(i) % 10000',
        price_per_share: '(hash(i * 3) % 50000) / 100.0',
        acquired_disposed: `CASE WHEN i % 2 = 0 THEN 'A' ELSE 'D' END`,
        value_usd: '(1 + hash(i) % 10000) * (hash(i * 3) % 50000) / 100.0',
      };
    },
    order: 'filed_date DESC, accession DESC, row_seq',
    keys: ['issuer_cik', 'owner_ciks', 'ticker'],
    pages: ({ issuer_cik, owner_ciks, ticker }) => [
      { name: 'first page, no filter', query: () => '', where: 'true', values: () => [] },
      {
        name: '?issuer_cik= (an issuer of the newest quarter)',
        query: (i) => `issuer_cik=${issuer_cik[i % 10]}`,
        where: 'issuer_cik = $1',
        values: (i) => [issuer_cik[i % 10]],
      },
      {
        name: '?ticker= (the same issuers by symbol)',
        query: (i) => `ticker=${ticker[i % 10]}`,
        where: 'ticker = $1',
        values: (i) => [ticker[i % 10]],
      },
      {
        name: '?owner_cik= (an owner of the newest quarter: ~3 rows a quarter, under one issuer)',
        query: (i) => `owner_cik=${owner_ciks[i % 10]}`,
        where: "contains(coalesce(owner_ciks, ''), $1)",
        values: (i) => [owner_ciks[i % 10]],
      },
      { name: '?trans_code=P', query: () => 'trans_code=P', where: 'trans_code = $1', values: () => ['P'] },
    ],
  },
  {
    label: 'Form D offerings',
    path: '/v1/raises',
    routes: raisesRoutes,
    table: formDOfferingsTable,
    perQuarter: Number(process.env.BENCH_FORM_D_PER_QUARTER ?? 20_000),
    expr: (q) => ({
      accession: `lpad(CAST(1000000 + i AS VARCHAR), 10, '0') || '-${q.name.slice(2, 4)}-' || lpad(CAST(i AS VARCHAR), 6, '0')`,
      is_amendment: 'i % 4 = 0',
      filed_date: `${q.start} + CAST(i * 90 // $per AS INTEGER)`,
      issuer_cik: `lpad(CAST(1700000 + hash(i) % 300000 AS VARCHAR), 10, '0')`,
      issuer_name: `'OFFERING ' || hash(i) % 300000 || ' LP'`,
      state: `['CA', 'NY', 'TX', 'DE', 'E9'][1 + CAST(hash(i * 3) % 5 AS BIGINT)]`,
      industry_group: `['Pooled Investment Fund', 'Biotechnology', 'Other Technology', 'Real Estate'][1 + CAST(hash(i * 5) % 4 AS BIGINT)]`,
      is_pooled_fund: 'hash(i * 5) % 4 = 0',
      federal_exemptions: `'["06b"]'`,
      total_offering_amount: '1000000 + hash(i) % 100000000',
      total_offering_indefinite: 'false',
      total_remaining_indefinite: 'false',
      related_persons: `'[{"name":"Person ' || i || '","relationships":["Executive Officer"]}]'`,
      source_kind: `'data_set'`,
      source_url: `'https://www.sec.gov/Archives/edgar/data/' || i || '/primary_doc.xml'`,
    }),
    order: 'filed_date DESC, accession DESC',
    keys: [],
    pages: () => [
      { name: 'first page, no filter', query: () => '', where: 'true', values: () => [] },
      { name: '?state=NY', query: () => 'state=NY', where: 'state = $1', values: () => ['NY'] },
      { name: '?min_amount=90000000', query: () => 'min_amount=90000000', where: 'total_offering_amount >= $1', values: () => [90_000_000] },
    ],
  },
  {
    label: 'patent grants',
    path: '/v1/uspto-patent-grants',
    routes: patentsRoutes,
    table: patentGrantsTable,
    years: true,
    perQuarter: Number(process.env.BENCH_PATENTS_PER_YEAR ?? 350_000),
    // Granted on Tuesdays; utility patents numbered in grant order, one in ten a design patent numbered on its own.
    expr: (y) => ({
      patent_number: `CASE WHEN i % 10 = 0 THEN 'D' || (${y.name.slice(2, 4)}00000 + i) ELSE CAST((${y.name} - 1900) * 100000 + i AS VARCHAR) END`,
      doc_number: 'CAST(i AS VARCHAR)',
      kind_code: `CASE WHEN i % 10 = 0 THEN 'S1' ELSE 'B2' END`,
      patent_type: `CASE WHEN i % 10 = 0 THEN 'design' ELSE 'utility' END`,
      title: `'Method and apparatus for processing widget ' || i`,
      grant_date: `${y.start} + CAST((i * 52 // $per) * 7 AS INTEGER)`,
      application_number: 'CAST(17000000 + hash(i) % 1000000 AS VARCHAR)',
      application_date: `${y.start} - CAST(400 + hash(i) % 900 AS INTEGER)`,
      claims_count: '1 + hash(i) % 30',
      cpc_main: `'G06F 16/' || (hash(i) % 900)`,
      assignee: `'ASSIGNEE ' || hash(i) % 50000 || ' CORP'`,
      assignee_country: `'US'`,
      assignee_names: `'ASSIGNEE ' || hash(i) % 50000 || ' CORP'`,
      assignees: `'[{"name":"ASSIGNEE ' || hash(i) % 50000 || ' CORP","city":"San Jose","state":"CA","country":"US"}]'`,
      inventors: `'[{"first":"Jane","last":"Doe ' || i || '","city":"Austin","state":"TX","country":"US"}]'`,
      abstract: `repeat('A system comprising a processor and a memory storing instructions that, when executed, ', 4) || i`,
      source_file: `'ipg' || strftime(${y.start}, '%y%m%d') || '.xml'`,
    }),
    order: 'grant_date DESC, patent_number',
    keys: [],
    pages: () => [
      { name: 'first page, no filter', query: () => '', where: 'true', values: () => [] },
      { name: '?claims_count_min=25', query: () => 'claims_count_min=25', where: 'claims_count >= $1', values: () => [25] },
    ],
  },
];

/** A partition's column expressions, its row count spelled in (`$per`). */
const partitionExpr = (list: DateList, q: Quarter): Record<string, string> =>
  Object.fromEntries(Object.entries(list.expr(q)).map(([c, e]) => [c, e.replaceAll('$per', String(list.perQuarter))]));

/** A quarter as a number (2025Q4 → 8,104): consecutive quarters differ by one. */
const quarterNumber = (q: Quarter) => Number(q.name.slice(0, 4)) * 4 + Number(q.name.slice(5)) - 1;

/** The newest `n` years, as partitions. */
const yearList = (n: number): Quarter[] => Array.from({ length: n }, (_, k) => ({ name: String(2025 - k), start: `DATE '${2025 - k}-01-01'` }));

const quarterList = (n: number): Quarter[] =>
  Array.from({ length: n }, (_, k) => {
    const q = 2025 * 4 + 3 - k;
    return { name: `${Math.floor(q / 4)}Q${(q % 4) + 1}`, start: `DATE '${Math.floor(q / 4)}-${String((q % 4) * 3 + 1).padStart(2, '0')}-01'` };
  });

export default async function dateListsBench(): Promise<BenchResult[]> {
  const out: BenchResult[] = [];
  const quarters = quarterList(QUARTERS);
  // BENCH_DATE_LISTS=/v1/insider (comma-separated paths) benches those lists only.
  const only = process.env.BENCH_DATE_LISTS?.split(',').filter(Boolean);
  for (const list of lists(QUARTERS)) {
    const parts = list.years ? yearList(Math.max(2, Math.round(QUARTERS / 4))) : quarters;
    if (!only?.length || only.includes(list.path)) out.push(...(await benchList(list, parts)));
  }
  return out;
}

async function benchList(list: DateList, quarters: Quarter[]): Promise<BenchResult[]> {
  const env = { METERING: 'off', RATE_LIMIT_RPS: '1000000' };
  const app = await createTestApp({ routes: list.routes, env });
  const rowGroup = list.table.rowGroupSize ?? DEFAULT_ROW_GROUP_SIZE;
  // The same rows as the table was laid out and read with the defaults, served by an app of their own (null: the table
  // keeps the defaults).
  const defaults = { ...list.table, rowGroupSize: DEFAULT_ROW_GROUP_SIZE, lateMaterialization: false, keyIndexes: undefined, head: undefined };
  const chose =
    rowGroup !== DEFAULT_ROW_GROUP_SIZE || list.table.lateMaterialization === true || list.table.keyIndexes !== undefined || list.table.head !== undefined;
  const routes = list.routes.map((ep) => ('table' in ep && ep.table === list.table ? { ...ep, table: defaults } : ep));
  // Its reader keeps no head either (the schema's tables declare them; its pages' tables do not).
  const other = chose ? await createTestApp({ routes, env: { ...env, LAKE_HEADS: 'off' } }) : null;
  const { instance, conn } = await openDuck(':memory:', { threads: '2', memory_limit: '4GB' });
  const part = list.table.partitionBy;
  try {
    const dir = join(app.settings.lakeDir, list.table.name);
    const t0 = performance.now();
    for (const q of quarters) {
      const expr = partitionExpr(list, q);
      const file = join(dir, `${part}=${q.name}`, 'data.parquet');
      await mkdir(dirname(file), { recursive: true });
      await conn.run(
        `COPY (SELECT ${generatedColumns(list.table, expr, [part])} FROM range(${list.perQuarter}) t(i) ORDER BY ${list.table.sortBy.join(', ')}) ` +
          `TO ${sqlString(file)} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE ${rowGroup})`,
      );
      // The key indexes the writer puts beside the file (TableSpec.keyIndexes).
      await writeKeyIndexes(conn, list.table, file, dirname(file));
      if (other) {
        const otherFile = join(other.settings.lakeDir, list.table.name, `${part}=${q.name}`, 'data.parquet');
        await mkdir(dirname(otherFile), { recursive: true });
        await conn.run(
          `COPY (FROM read_parquet(${sqlString(file)})) TO ${sqlString(otherFile)} ` +
            `(FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE ${DEFAULT_ROW_GROUP_SIZE})`,
        );
      }
    }
    for (const b of list.beside ?? []) {
      for (const lakeDir of [app.settings.lakeDir, ...(other ? [other.settings.lakeDir] : [])]) {
        const file = join(lakeDir, b.table.name, `${b.table.partitionBy}=${b.partition}`, 'data.parquet');
        await mkdir(dirname(file), { recursive: true });
        await conn.run(
          `COPY (SELECT ${generatedColumns(b.table, b.expr, [b.table.partitionBy])} FROM range(${b.rows}) t(i) ORDER BY ${b.table.sortBy.join(', ')}) ` +
            `TO ${sqlString(file)} (FORMAT parquet, COMPRESSION zstd)`,
        );
      }
    }
    const generatedS = Math.round((performance.now() - t0) / 100) / 10;
    await app.services.lake.refresh();
    await other?.services.lake.refresh();
    await conn.run('SET threads = 1');
    await conn.run('SET GLOBAL parquet_metadata_cache = true');
    await conn.run('SET GLOBAL late_materialization_max_rows = 0');
    const all = `read_parquet(${sqlString(join(dir, '*', '*.parquet'))}, hive_partitioning = true)`;
    // Keys of the newest quarter, so a page starts in it and walks back through the quarters.
    const newest = sqlString(join(dir, `${part}=${quarters[0].name}`, '*.parquet'));
    const keys: Record<string, string[]> = {};
    // And of an older quarter (`column@old`), for a page whose rows lie in one quarter far back.
    const older = sqlString(join(dir, `${part}=${quarters[Math.min(OLD_QUARTER, quarters.length - 1)].name}`, '*.parquet'));
    for (const c of list.keys)
      for (const [key, file] of [
        [c, newest],
        [`${c}@old`, older],
      ]) {
        const rows = await queryRows(conn, `SELECT DISTINCT ${c} AS k FROM read_parquet(${file}) ORDER BY hash(k) LIMIT 10`);
        keys[key] = rows.map((r) => String(r.k));
      }
    for (const [key, { expr, where }] of Object.entries(list.derivedKeys ?? {})) {
      const rows = await queryRows(conn, `SELECT DISTINCT ${expr} AS k FROM read_parquet(${newest}) WHERE ${where} ORDER BY hash(k) LIMIT 10`);
      keys[key] = rows.map((r) => String(r.k));
    }
    const month = quarters[Math.min(8, quarters.length - 1)].start.slice(6, 13);
    const unit = list.years ? 'years' : 'quarters';
    const out: BenchResult[] = [
      {
        name: `date-lists: ${list.label}, ${(quarters.length * list.perQuarter).toLocaleString('en-US')} rows in ${quarters.length} ${unit}`,
        figures: { generated_s: generatedS, row_group_rows: rowGroup, late_materialization: list.table.lateMaterialization ? 'on' : 'off' },
      },
    ];
    for (const page of list.pages(keys, month, app.settings.lakeDir)) {
      const served = async (on: TestApp) => {
        let i = 0;
        return measure(async () => {
          const r = await on.get(`${list.path}?limit=25&${page.query(i++)}`);
          if (r.status !== 200) throw new Error(`${page.name}: ${r.status}`);
        }, RUNS);
      };
      const api = await served(app);
      const before = other && (await served(other));
      const p = await conn.prepare(`SELECT * FROM ${all} WHERE ${page.where} ORDER BY ${list.order} LIMIT 26`);
      let j = 0;
      const raw = await measure(
        async () => {
          const v = page.values(j++);
          if (v.length) p.bind(v as never);
          await p.run();
        },
        Math.max(3, Math.round(RUNS / 4)),
      );
      out.push({
        name: `date-lists: ${list.path} ${page.name}`,
        figures: {
          ...api,
          ...(before && { before_p50_ms: before.p50_ms, before_cpu_ms: before.cpu_ms }),
          raw_every_file_p50_ms: raw.p50_ms,
          raw_every_file_cpu_ms: raw.cpu_ms,
        },
      });
    }
    if (list.table.head) out.push(await benchLiveBatches(list, quarters[0], app, conn));
    return out;
  } finally {
    conn.closeSync();
    instance.closeSync();
    await app.close();
    await other?.close();
  }
}

/** Live batches a run appends (`LIVE_BATCH_ROWS` rows each) beside the newest partition, one refresh after each. */
const LIVE_BATCHES = 5;
const LIVE_BATCH_ROWS = 200;

/**
 * The refresh after a live batch (an append file of the newest rows beside the newest partition), whose head the API's
 * reader must keep: CPU of each refresh, median, in the API (its head grown by the batch) beside a reader of the same
 * lake that keeps no head (the ingest's kind; every reader lists and swaps the same way), and raw DuckDB's top-N of the
 * partition's `HEAD_ROWS` + 1 first rows (what building the head anew costs); then the first page after the batches.
 */
async function benchLiveBatches(list: DateList, newest: Quarter, app: TestApp, conn: DuckDBConnection): Promise<BenchResult> {
  const part = list.table.partitionBy;
  const expr = partitionExpr(list, newest);
  const dir = join(app.settings.lakeDir, list.table.name, `${part}=${newest.name}`);
  const plain = await openLakeReader(app.settings.lakeDir);
  const api: number[] = [];
  const noHeads: number[] = [];
  try {
    for (let k = 0; k < LIVE_BATCHES; k++) {
      // Rows numbered past the partition's, so they are new keys dated after every row it holds: the newest.
      const from = list.perQuarter + k * LIVE_BATCH_ROWS;
      const file = join(dir, `part-live-${String(k + 1).padStart(15, '0')}-bench.parquet`);
      const rows = `SELECT ${generatedColumns(list.table, expr, [part])} FROM range(${from}, ${from + LIVE_BATCH_ROWS}) t(i)`;
      await conn.run(`COPY (${rows}) TO ${sqlString(file)} (FORMAT parquet)`);
      api.push(await cpuMs(() => app.services.lake.refresh()));
      noHeads.push(await cpuMs(() => plain.refresh()));
    }
  } finally {
    await plain.close();
  }
  const order = list.table.head!.order.map((o) => `${o.column} ${o.dir}`).join(', ');
  const topN = await measure(() => conn.run(`SELECT * FROM read_parquet(${sqlString(join(dir, '*.parquet'))}) ORDER BY ${order} LIMIT ${HEAD_ROWS + 1}`), 3);
  const page = await measure(async () => {
    const r = await app.get(`${list.path}?limit=25`);
    if (r.status !== 200) throw new Error(`${list.path} after live batches: ${r.status}`);
  }, RUNS);
  const median = (xs: number[]) => Math.round(percentile(xs, 50) * 10) / 10;
  const unit = list.years ? 'year' : 'quarter';
  return {
    name: `date-lists: ${list.path} refresh after a live batch of ${LIVE_BATCH_ROWS} rows beside the newest ${unit} (${LIVE_BATCHES} batches)`,
    figures: {
      refresh_cpu_ms: median(api),
      no_heads_refresh_cpu_ms: median(noHeads),
      raw_head_top_n_cpu_ms: topN.cpu_ms,
      first_page_after_cpu_ms: page.cpu_ms,
      first_page_after_p50_ms: page.p50_ms,
    },
  };
}
