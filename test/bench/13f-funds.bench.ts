import { createServer } from 'node:http';
import { mkdtemp, mkdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openDuck, queryRows, sqlString } from '../../ingest/lake/duck.ts';
import { loadSettings } from '../../schemas/settings.ts';
import { allColumns } from '../../schemas/table.ts';
import { holdings13f, holdings13fByManager, managers13f } from '../../schemas/tables/13f.ts';
import { SUMMARY_FILE, writePartitionSummary } from '../../ingest/lake/summary.ts';
import type { DuckDBConnection } from '@duckdb/node-api';
import { NPORT_HEADERS } from '../../ingest/datasets/nport/sample.ts';
import routes13f from '../../api/13f/routes.ts';
import { createApp } from '../../api/core/app.ts';
import { createKey } from '../../api/core/keys.ts';
import { closeServices, createServices } from '../../api/core/services.ts';
import { ingestInChild, latency, type BenchResult } from './support.ts';
import { ingest13fBench } from './13f-ingest.bench.ts';
import { createRaw13f } from '../../ingest/datasets/13f/pipeline.ts';
import { resolveDuplicateRows } from '../../ingest/datasets/13f/duplicates.ts';
import type { LoadContext } from '../../ingest/pipeline/contract.ts';

/**
 * 13F and N-PORT figures. BENCH_SCALE=1 (default, ~2 min): a 300k-line 13F window (`13f-ingest.bench.ts`, also
 * run alone: `make bench BENCH=13f-ingest`), a 500k-line N-PORT data set and a
 * 5M-line holdings lake.
 * BENCH_SCALE=10 reproduces the issue's sizes: a ≈3M-line window, a 5M-line N-PORT data set and the 50M-line lake.
 */
const SCALE = Number(process.env.BENCH_SCALE ?? 1);

/**
 * An unpacked N-PORT data set of `holdings` FUND_REPORTED_HOLDING lines with the published members and headers,
 * written by DuckDB SQL (a JS writer cannot hold 5M lines in one string). ≈ 300 positions a report, as in the real
 * quarters (≈ 5-10M holdings over 15-30k reports); one ISIN/ticker identifier line per holding.
 */
export async function generateNportDataSet(dir: string, holdings: number): Promise<void> {
  await mkdir(dir, { recursive: true });
  const reports = Math.max(1, Math.ceil(holdings / 300));
  const { conn, instance } = await openDuck(':memory:', { memory_limit: '2GB', threads: '2' });
  const acc = (r: string) => `'0001' || lpad(CAST(${r} % 100000 AS VARCHAR), 6, '0') || '-25-' || lpad(CAST(${r} AS VARCHAR), 6, '0')`;
  const member: Record<keyof typeof NPORT_HEADERS, { from: string; cells: Record<string, string> }> = {
    SUBMISSION: {
      from: `range(${reports}) t(r)`,
      cells: {
        ACCESSION_NUMBER: acc('r'),
        FILING_DATE: `'26-FEB-2025'`,
        FILE_NUM: `'811-' || (10000 + r % 5000)`,
        SUB_TYPE: `CASE WHEN r % 97 = 5 THEN 'NPORT-P/A' ELSE 'NPORT-P' END`,
        REPORT_ENDING_PERIOD: `'30-SEP-2025'`,
        REPORT_DATE: `'31-DEC-2024'`,
        IS_LAST_FILING: `'N'`,
      },
    },
    REGISTRANT: {
      from: `range(${reports}) t(r)`,
      cells: {
        ACCESSION_NUMBER: acc('r'),
        CIK: `CAST(800000 + r % 5000 AS VARCHAR)`,
        REGISTRANT_NAME: `'Harbor Funds Trust ' || (r % 5000)`,
        FILE_NUM: `'811-' || (10000 + r % 5000)`,
        LEI: 'NULL',
        ADDRESS1: `'1 Fund Plaza'`,
        ADDRESS2: 'NULL',
        CITY: `'Boston'`,
        STATE: `'US-MA'`,
        COUNTRY: `'US'`,
        ZIP: `'02110'`,
        PHONE: `'617-555-0100'`,
      },
    },
    FUND_REPORTED_INFO: {
      from: `range(${reports}) t(r)`,
      cells: {
        ACCESSION_NUMBER: acc('r'),
        SERIES_NAME: `'Harbor Growth Fund ' || r`,
        SERIES_ID: `'S' || lpad(CAST(10000 + r AS VARCHAR), 9, '0')`,
        SERIES_LEI: 'NULL',
        TOTAL_ASSETS: `CAST(1e9 + r AS VARCHAR)`,
        TOTAL_LIABILITIES: `'1000000.00'`,
        NET_ASSETS: `CAST(1e9 + r - 1e6 AS VARCHAR)`,
      },
    },
    FUND_REPORTED_HOLDING: {
      from: `(SELECT i, i // 300 AS r, hash(i) AS h, hash(i) % 20000 AS c FROM range(${holdings}) t(i))`,
      cells: {
        ACCESSION_NUMBER: acc('r'),
        HOLDING_ID: 'CAST(i + 1 AS VARCHAR)',
        ISSUER_NAME: `'ISSUER ' || c || ' INC'`,
        ISSUER_LEI: `CASE WHEN h % 5 = 0 THEN 'N/A' ELSE '5493' || lpad(CAST(c AS VARCHAR), 16, '0') END`,
        ISSUER_TITLE: `CASE WHEN h % 10 < 3 THEN 'ISSUER ' || c || ' ' || (1 + h % 7) || '% 2030' ELSE 'COM' END`,
        ISSUER_CUSIP: `CASE WHEN h % 33 = 0 THEN 'N/A' ELSE lpad(CAST(c * 7 AS VARCHAR), 8, '0') || CAST(c % 10 AS VARCHAR) END`,
        BALANCE: `CAST(100 + h % 500000 AS VARCHAR)`,
        UNIT: `CASE WHEN h % 10 < 3 THEN 'PA' ELSE 'NS' END`,
        OTHER_UNIT_DESC: 'NULL',
        CURRENCY_CODE: `CASE WHEN h % 20 = 0 THEN 'EUR' ELSE 'USD' END`,
        CURRENCY_VALUE: `CAST(round((100 + h % 500000) * 37.25, 2) AS VARCHAR)`,
        EXCHANGE_RATE: `CASE WHEN h % 20 = 0 THEN '0.9234' END`,
        PERCENTAGE: `CAST(round((h % 100000) / 1e6, 6) AS VARCHAR)`,
        PAYOFF_PROFILE: `'Long'`,
        ASSET_CAT: `CASE WHEN h % 10 < 3 THEN 'DBT' ELSE 'EC' END`,
        OTHER_ASSET: 'NULL',
        ISSUER_TYPE: `'CORP'`,
        OTHER_ISSUER: 'NULL',
        INVESTMENT_COUNTRY: `CASE WHEN h % 20 = 0 THEN 'DE' ELSE 'US' END`,
        IS_RESTRICTED_SECURITY: `CASE WHEN h % 25 = 0 THEN 'Y' ELSE 'N' END`,
        FAIR_VALUE_LEVEL: `CAST(1 + h % 3 AS VARCHAR)`,
        DERIVATIVE_CAT: 'NULL',
      },
    },
    IDENTIFIERS: {
      from: `(SELECT i, hash(i) % 20000 AS c FROM range(${holdings}) t(i))`,
      cells: {
        HOLDING_ID: 'CAST(i + 1 AS VARCHAR)',
        IDENTIFIERS_ID: 'CAST(i + 1 AS VARCHAR)',
        IDENTIFIER_ISIN: `'US' || lpad(CAST(c * 7 AS VARCHAR), 9, '0') || '0'`,
        IDENTIFIER_TICKER: `'T' || c`,
        OTHER_IDENTIFIER: 'NULL',
        OTHER_IDENTIFIER_DESC: 'NULL',
      },
    },
  };
  for (const [name, m] of Object.entries(member) as [keyof typeof NPORT_HEADERS, (typeof member)[keyof typeof NPORT_HEADERS]][]) {
    const select = NPORT_HEADERS[name].map((h) => `${m.cells[h] ?? 'NULL'} AS "${h}"`).join(', ');
    await conn.run(
      `COPY (SELECT ${select} FROM ${m.from}) TO ${sqlString(join(dir, `${name}.tsv`))} (FORMAT csv, DELIMITER '\t', HEADER true, QUOTE '', ESCAPE '')`,
    );
  }
  conn.closeSync();
  instance.closeSync();
}

async function nportIngestBench(root: string): Promise<BenchResult[]> {
  const holdings = 500_000 * SCALE;
  const src = join(root, 'nport-src');
  await generateNportDataSet(src, holdings);
  const member = join(src, 'FUND_REPORTED_HOLDING.tsv');
  const { conn, instance } = await openDuck();
  const t = performance.now();
  await conn.run(
    `COPY (SELECT * FROM read_csv(${sqlString(member)}, delim='\t', header=true, quote='', escape='', ` +
      `all_varchar=true)) TO ${sqlString(join(root, 'nport-baseline.parquet'))} (FORMAT parquet, COMPRESSION ` +
      'zstd)',
  );
  const baselineMs = performance.now() - t;
  conn.closeSync();
  instance.closeSync();
  const run = await ingestInChild(['nport', '--from', src], { DATA_DIR: join(root, 'nport-data') });
  const mb = (await stat(member)).size / 1e6;
  return [
    {
      name: `nport: ingest data set (${holdings.toLocaleString('en-US')} FUND_REPORTED_HOLDING lines, ${mb.toFixed(0)} MB)`,
      figures: {
        rows_per_s: Math.round(holdings / (run.ms / 1000)),
        duckdb_read_csv_rows_per_s: Math.round(holdings / (baselineMs / 1000)),
        wall_s: Math.round(run.ms / 100) / 10,
        peak_rss_mb: run.peakRssMb,
      },
    },
  ];
}

const CUSIPS = 20_000;
const MANAGERS = 8_000;

/** One generated quarter's data files (absolute paths), as handed to `afterQuarterWritten`. */
export interface QuarterFiles {
  period: string;
  /** holdings_13f/period=<q>/data.parquet (CUSIP-sorted). */
  byCusip: string;
  /** holdings_13f_by_manager/period=<q>/data.parquet. */
  byManager: string;
  /** managers_13f/period=<q>/data.parquet. */
  managers: string;
}

/**
 * THE hook of the generated lake: everything an ingest writes beside a quarter's data files that the generator's SQL
 * does not, written here once each quarter's three files exist, so bench lakes read like ingested ones. Today: the
 * per-quarter key summaries of both holdings copies (ingest/lake/summary.ts). Anything else an ingest adds beside a
 * partition (e.g. a serving copy of the holdings pages) belongs here too; the lake cache (lake-cache.ts) keys its
 * folders on this function's source, so editing it regenerates cached lakes.
 */
export async function afterQuarterWritten(conn: DuckDBConnection, files: QuarterFiles): Promise<void> {
  await writePartitionSummary(conn, holdings13f, files.byCusip, join(dirname(files.byCusip), SUMMARY_FILE));
  await writePartitionSummary(conn, holdings13fByManager, files.byManager, join(dirname(files.byManager), SUMMARY_FILE));
}

/**
 * Writes a holdings lake in the exact table layout (one zstd Parquet file per quarter, the table's row-group size),
 * generated by DuckDB SQL straight into the files (the ingest path is measured above). Rows are produced already in
 * the table's sort order (CUSIP blocks, managers ascending inside a block, accession by manager, line_no by row), so
 * no sort runs: 50M rows take minutes, not tens of minutes. Every CUSIP appears each quarter (≈ total/8/20k lines)
 * and each manager holds ≈ total/8/8k lines a quarter spread over the whole CUSIP range, like the real tables.
 */
export async function generateLake(
  lakeDir: string,
  total: number,
  rowGroupSize = holdings13f.rowGroupSize ?? 122_880,
): Promise<{ cusips: string[]; managers: string[] }> {
  const quarters = ['2023Q1', '2023Q2', '2023Q3', '2023Q4', '2024Q1', '2024Q2', '2024Q3', '2024Q4'];
  const per = Math.ceil(total / quarters.length);
  const perCusip = Math.max(1, Math.ceil(per / CUSIPS));
  const spread = Math.max(1, Math.floor(MANAGERS / perCusip));
  const { conn, instance } = await openDuck(':memory:', { memory_limit: '2GB', threads: '2' });
  const cols = Object.keys(allColumns(holdings13f)).filter((c) => c !== 'period');
  const expr: Record<string, string> = {
    accession_number: `lpad(CAST(m AS VARCHAR), 10, '0') || '-' || q2 || '-' || lpad(CAST(qk * 1000 + m % 997 AS VARCHAR), 6, '0')`,
    line_no: 'CAST(i AS INTEGER)',
    manager_cik: `lpad(CAST(m + 1000000 AS VARCHAR), 10, '0')`,
    manager_name: `'MANAGER ' || m || ' CAPITAL LLC'`,
    period_of_report: 'pe',
    filing_date: 'pe + 40',
    issuer_name: `'ISSUER ' || c || ' INC'`,
    title_of_class: `'COM'`,
    cusip: `'C' || lpad(CAST(c AS VARCHAR), 8, '0')`,
    cusip_valid: 'false',
    figi: 'NULL',
    value_usd: 'CAST(1000 + (h % 100000000) AS BIGINT)',
    value_reported: 'CAST(1000 + (h % 100000000) AS DOUBLE)',
    value_unit_decision: `'dollars'`,
    // Per-filing text varies per filing as in the real table (a constant would compress to nothing and flatter the figures).
    value_unit_reason:
      `'median VALUE/shares ' || (10 + m % 300) || '.' || lpad(CAST(m % 100 AS VARCHAR), 2, '0') || ' over ' ` +
      `|| (20 + m % 900) || ' share rows: over $2000 a share if thousands, so dollars'`,
    shares: 'CAST(h % 1000000 AS DOUBLE)',
    shares_type: `'SH'`,
    put_call: 'NULL',
    investment_discretion: `'SOLE'`,
    other_manager: 'NULL',
    voting_sole: 'CAST(h % 1000000 AS BIGINT)',
    voting_shared: '0::BIGINT',
    voting_none: '0::BIGINT',
    amendment_effect: `'original'`,
    is_current: 'true',
    issuer_cik: 'NULL',
    issuer_ticker: 'NULL',
    issuer_match_confidence: 'NULL::DOUBLE',
    issuer_match_as_of: 'NULL::DATE',
    source_url: `'https://www.sec.gov/Archives/edgar/data/' || (m + 1000000) || '/' || replace(ACC, '-', '') || '/' || ACC || '-index.htm'`,
    parser_version: '1',
  };
  expr.source_url = expr.source_url.replaceAll('ACC', `(${expr.accession_number})`);
  for (const [k, q] of quarters.entries()) {
    const dir = join(lakeDir, 'holdings_13f', `period=${q}`);
    await mkdir(dir, { recursive: true });
    const pe = `DATE '${q.slice(0, 4)}-${['03-31', '06-30', '09-30', '12-31'][Number(q[5]) - 1]}'`;
    // c: CUSIP block of row i; j: position inside the block → manager ascending inside the block, shifted per CUSIP.
    await conn.run(`COPY (
      SELECT ${cols.map((c) => `${expr[c]} AS "${c}"`).join(', ')}
      FROM (SELECT i, h, c, least(CAST((i - c * ${perCusip}) * ${MANAGERS} // ${perCusip} + (c + ${k}) % ${spread} AS BIGINT), ${MANAGERS - 1}) AS m,
              ${pe} AS pe, '${q.slice(2, 4)}' AS q2, ${k} AS qk
            FROM (SELECT i, hash(i * 8 + ${k}) AS h, least(i // ${perCusip}, ${CUSIPS - 1}) AS c FROM range(${per}) t(i)))
    ) TO ${sqlString(join(dir, 'data.parquet'))} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE ${rowGroupSize})`);
    // The manager-sorted copy the ingester writes beside it (serves ?manager= pages).
    const bdir = join(lakeDir, 'holdings_13f_by_manager', `period=${q}`);
    await mkdir(bdir, { recursive: true });
    await conn.run(`COPY (SELECT * FROM read_parquet(${sqlString(join(dir, 'data.parquet'))}) ORDER BY manager_cik, cusip, accession_number, line_no)
      TO ${sqlString(join(bdir, 'data.parquet'))} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE ${rowGroupSize})`);
    const mdir = join(lakeDir, 'managers_13f', `period=${q}`);
    await mkdir(mdir, { recursive: true });
    const mcols = Object.keys(allColumns(managers13f)).filter((c) => c !== 'period');
    const mexpr: Record<string, string> = {
      cik: `lpad(CAST(m + 1000000 AS VARCHAR), 10, '0')`,
      manager_name: `'MANAGER ' || m || ' CAPITAL LLC'`,
      street1: 'NULL',
      street2: 'NULL',
      city: `'NEW YORK'`,
      state_or_country: `'NY'`,
      zip_code: 'NULL',
      period_of_report: pe,
      filing_date: `${pe} + 40`,
      last_filing_date: `${pe} + 40`,
      accession_number: `lpad(CAST(m AS VARCHAR), 10, '0') || '-${q.slice(2, 4)}-' || lpad(CAST(${k} * 1000 + m % 997 AS VARCHAR), 6, '0')`,
      accessions: `'[]'`,
      amendment_count: '0',
      report_type: `'13F HOLDINGS REPORT'`,
      holdings_count: '100',
      total_value_usd: 'CAST(m * 1000000 AS BIGINT)',
      value_unit_decision: `'dollars'`,
      source_url: `'https://www.sec.gov/'`,
      parser_version: '1',
    };
    await conn.run(`COPY (SELECT ${mcols.map((c) => `${mexpr[c]} AS "${c}"`).join(', ')} FROM range(${MANAGERS}) t(m) ORDER BY total_value_usd, cik)
      TO ${sqlString(join(mdir, 'data.parquet'))} (FORMAT parquet, COMPRESSION zstd)`);
    await afterQuarterWritten(conn, {
      period: q,
      byCusip: join(dir, 'data.parquet'),
      byManager: join(bdir, 'data.parquet'),
      managers: join(mdir, 'data.parquet'),
    });
  }
  conn.closeSync();
  instance.closeSync();
  const filled = Math.min(CUSIPS, Math.ceil(per / perCusip));
  const cusips = Array.from({ length: 50 }, (_, i) => `C${String((i * 397) % filled).padStart(8, '0')}`);
  const managers = Array.from({ length: 50 }, (_, i) => String(((i * 131) % MANAGERS) + 1000000));
  return { cusips, managers };
}

async function queryBench(root: string): Promise<BenchResult[]> {
  const total = 5_000_000 * SCALE;
  const dataDir = join(root, 'qdata');
  const t = performance.now();
  const { cusips, managers } = await generateLake(join(dataDir, 'lake'), total);
  const genS = Math.round((performance.now() - t) / 100) / 10;
  const settings = loadSettings({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', METERING: 'off', RATE_LIMIT_RPS: '100000' });
  const services = await createServices(settings, { cursorSecret: 'bench-cursor-secret-0123456789' });
  const handle = createApp(services, { routes: routes13f });
  const server = createServer(handle.app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const key = (await createKey(services.state, { plan: 'pro' })).key;
  const get = async (path: string) => {
    const r = await fetch(`${base}${path}`, { headers: { Authorization: `Bearer ${key}` } });
    const body = (await r.json()) as any;
    if (r.status !== 200) throw new Error(`${path}: ${r.status} ${JSON.stringify(body).slice(0, 300)}`);
    return body;
  };
  let i = 0;
  const out: BenchResult[] = [];
  const lines = `${(total / 1e6).toFixed(0)}M lines, 8 quarters`;
  out.push({
    name: `13f: /v1/holdings?cusip= (${lines})`,
    figures: { ...(await latency(() => get(`/v1/holdings?cusip=${cusips[i++ % cusips.length]}`), 100, 5)), lake_gen_s: genS },
  });
  const first = await get(`/v1/holdings?cusip=${cusips[0]}`);
  out.push({
    name: `13f: /v1/holdings?cusip= page 2 (cursor)`,
    figures: await latency(() => get(`/v1/holdings?cusip=${cusips[0]}&cursor=${encodeURIComponent(first.page.next_cursor)}`), 100, 5),
  });
  out.push({
    name: `13f: /v1/holdings?manager=<CIK> (${lines})`,
    figures: await latency(() => get(`/v1/holdings?manager=${managers[i++ % managers.length]}`), 100, 5),
  });
  // One quarter named: the partition folder prunes the other seven files.
  out.push({
    name: `13f: /v1/holdings?cusip=&period=2024Q4`,
    figures: await latency(() => get(`/v1/holdings?cusip=${cusips[i++ % cusips.length]}&period=2024Q4`), 100, 5),
  });
  out.push({
    name: `13f: /v1/holdings?manager=<CIK>&period=2024Q4`,
    figures: await latency(() => get(`/v1/holdings?manager=${managers[i++ % managers.length]}&period=2024Q4`), 100, 5),
  });
  // ≈ 3 lines of a CUSIP a quarter pass min_value: a page needs every quarter, the partition-first read's worst case.
  out.push({
    name: `13f: /v1/holdings?cusip=&min_value= (≈3 matches a quarter: page spans all 8 files)`,
    figures: await latency(() => get(`/v1/holdings?cusip=${cusips[i++ % cusips.length]}&min_value=99000000`), 100, 5),
  });
  out.push({
    name: `13f: /v1/holdings?manager=<name substring>`,
    figures: await latency(
      () => get(`/v1/holdings?manager=${encodeURIComponent(`MANAGER ${Number(managers[i++ % managers.length]) - 1000000} CAPITAL`)}`),
      100,
      5,
    ),
  });
  out.push({
    name: `13f: /v1/holdings (no filter: first page of the newest quarter)`,
    figures: await latency(() => get(`/v1/holdings?limit=${20 + (i++ % 6)}`), 100, 5),
  });
  out.push({
    name: `13f: /v1/holdings?min_value= (unselective, not a sort column)`,
    figures: await latency(() => get(`/v1/holdings?min_value=${90_000_000 + (i++ % 1000)}`), 100, 5),
  });
  out.push({
    name: `13f: /v1/holdings?issuer=<substring>`,
    figures: await latency(() => get(`/v1/holdings?issuer=${encodeURIComponent(`ISSUER ${(i++ * 397) % CUSIPS} INC`)}`), 100, 5),
  });
  // Every page of one CUSIP through three quarters: pages that cross from one quarter file into the next included.
  const deep: number[] = [];
  let cursor: string | null = null;
  do {
    const t0 = performance.now();
    const page: any = await get(`/v1/holdings?cusip=${cusips[7]}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    deep.push(performance.now() - t0);
    cursor = page.page.next_cursor;
  } while (cursor && deep.length < Math.ceil((3 * total) / 8 / CUSIPS / 100) + 1);
  deep.sort((a, b) => a - b);
  out.push({
    name: `13f: /v1/holdings?cusip=&limit=100, every page through 3 quarters`,
    figures: { pages: deep.length, p50_ms: Math.round(deep[Math.floor(deep.length / 2)] * 100) / 100, max_ms: Math.round(deep[deep.length - 1] * 100) / 100 },
  });
  await new Promise<void>((r) => server.close(() => r()));
  server.closeAllConnections?.();
  await closeServices(services);
  return out;
}

/**
 * The duplicated-information-table check on its own: 300k lines × BENCH_SCALE in 7,500 × BENCH_SCALE filings, one in
 * twenty holding its 20 rows twice. Twice: with the summary pages' entry totals (as in the real data sets: only the
 * filings with more lines than their total are grouped on every column) and without any (every filing grouped, the
 * worst case). Baseline, same run and lines: the cheapest per-filing pass, `count(*) GROUP BY accession_number`.
 */
export async function duplicatesBench(): Promise<BenchResult[]> {
  const lines = 300_000 * SCALE;
  const filings = lines / 40;
  const out: BenchResult[] = [];
  for (const withTotals of [true, false]) {
    const { conn, instance } = await openDuck();
    const ctx = { sql: (q: string, params?: unknown[]) => queryRows(conn, q, params) } as unknown as LoadContext;
    await createRaw13f(ctx);
    await conn.run(`
      INSERT INTO raw13f_filing (accession_number, cik, period_of_report, submission_type, table_entry_total, source)
      SELECT printf('%010d-24-%06d', i, i), printf('%010d', i), DATE '2024-12-31', '13F-HR',
             ${withTotals ? 'CASE WHEN i % 20 = 0 THEN 20 ELSE 40 END' : 'NULL'}, 'sec_13f_dataset'
      FROM range(${filings}) t(i)`);
    // k = the row's identity inside its filing: it repeats in one filing of twenty.
    await conn.run(`
      INSERT INTO raw13f_info (accession_number, line_no, issuer_name, title_of_class, cusip_raw, value_reported, shares, shares_type,
                               investment_discretion, voting_sole, voting_shared, voting_none)
      SELECT printf('%010d-24-%06d', f, f), CAST(n + 1 AS INTEGER), 'ISSUER ' || k, 'COM', printf('%09d', (f * 7 + k) % 100000),
             1000 + (f * 31 + k) % 9000, 100 + k, 'SH', 'SOLE', 100, 0, 0
      FROM (SELECT i // 40 AS f, i % 40 AS n, CASE WHEN (i // 40) % 20 = 0 THEN i % 20 ELSE i % 40 END AS k FROM range(${lines}) t(i))`);
    const t0 = performance.now();
    await queryRows(conn, 'SELECT count(*) FROM (SELECT accession_number, count(*) FROM raw13f_info GROUP BY 1)');
    const baselineMs = performance.now() - t0;
    const t1 = performance.now();
    const verdicts = await resolveDuplicateRows(ctx);
    const ms = performance.now() - t1;
    conn.closeSync();
    instance.closeSync();
    out.push({
      name:
        `13f: duplicated information table check (${lines.toLocaleString('en-US')} lines, ${filings.toLocaleString('en-US')} filings, ` +
        `${withTotals ? 'entry totals present' : 'no entry totals: every filing grouped'})`,
      figures: { ms: Math.round(ms), baseline_group_by_accession_ms: Math.round(baselineMs), filings_with_repeats: verdicts.size },
    });
  }
  return out;
}

export default async function (): Promise<BenchResult[]> {
  const root = await mkdtemp(join(tmpdir(), 'bench-13f-'));
  try {
    return [...(await duplicatesBench()), ...(await ingest13fBench(root)), ...(await nportIngestBench(root)), ...(await queryBench(root))];
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
