import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDuck, sqlString } from '../../ingest/lake/duck.ts';
import { NPORT_HEADERS } from '../../ingest/datasets/nport/sample.ts';
import { bareCopyInChild, ingestInChild, ingestTargetFigures, ratio, type BenchResult } from './support.ts';

/**
 * N-PORT ingest of one quarterly data set against the bare engine on the same main members: DuckDB's `read_csv` of
 * FUND_REPORTED_HOLDING and IDENTIFIERS (the two line-sized members the ingest reads; the other three are one line
 * per report) straight into zstd Parquet files (`bare-copy-child.ts`, its own process, the ingest's 2 threads). Both
 * figures come from the same run: CPU time (all threads) and peak RSS of each process. The ingest's CPU is the whole
 * CLI process (Node start and module loading of the prebuilt bundle included); the baseline's is the COPYs alone.
 * Then the same data set is ingested again into the lake it wrote, the merge path, against the same baseline.
 * Size: BENCH_NPORT_LINES holdings lines, else 500,000 × BENCH_SCALE (a real quarter holds several million).
 */
const LINES = Number(process.env.BENCH_NPORT_LINES ?? 500_000 * Number(process.env.BENCH_SCALE ?? 1));

/**
 * An unpacked N-PORT data set of `holdings` FUND_REPORTED_HOLDING lines with the published members and headers,
 * written by DuckDB SQL (a JS writer cannot hold 5M lines in one string). ≈ 300 positions a report, as in the real
 * quarters (≈ 5-10M holdings over 15-30k reports), portfolio dates on the quarter's three month ends; one report in
 * 97 is an NPORT-P/A of the series of the report before it (which it replaces); one ISIN/ticker identifier line per
 * holding, plus an `OTHER` identifier line for one holding in ten (several identifier lines per holding occur).
 */
export async function generateNportDataSet(dir: string, holdings: number): Promise<void> {
  await mkdir(dir, { recursive: true });
  const reports = Math.max(1, Math.ceil(holdings / 300));
  const { conn, instance } = await openDuck(':memory:', { memory_limit: '2GB', threads: '2' });
  const acc = (r: string) => `'0001' || lpad(CAST(${r} % 100000 AS VARCHAR), 6, '0') || '-25-' || lpad(CAST(${r} AS VARCHAR), 6, '0')`;
  const amends = (r: string) => `(${r} % 97 = 5)`;
  // An amendment reports the series (and portfolio date) of the report before it.
  const series = (r: string) => `CASE WHEN ${amends(r)} THEN ${r} - 1 ELSE ${r} END`;
  const member: Record<keyof typeof NPORT_HEADERS, { from: string; cells: Record<string, string> }> = {
    SUBMISSION: {
      from: `range(${reports}) t(r)`,
      cells: {
        ACCESSION_NUMBER: acc('r'),
        FILING_DATE: `CASE WHEN ${amends('r')} THEN '10-MAR-2025' ELSE '26-FEB-2025' END`,
        FILE_NUM: `'811-' || (10000 + r % 5000)`,
        SUB_TYPE: `CASE WHEN ${amends('r')} THEN 'NPORT-P/A' ELSE 'NPORT-P' END`,
        REPORT_ENDING_PERIOD: `'30-SEP-2025'`,
        REPORT_DATE: `['31-OCT-2024', '30-NOV-2024', '31-DEC-2024'][1 + (${series('r')}) % 3]`,
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
        SERIES_NAME: `'Harbor Growth Fund ' || (${series('r')})`,
        SERIES_ID: `'S' || lpad(CAST(10000 + (${series('r')}) AS VARCHAR), 9, '0')`,
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
      // k = 1: the ISIN/ticker line of every holding; k = 2: an OTHER identifier line for one holding in ten.
      from: `(SELECT i, k, hash(i) % 20000 AS c FROM range(${holdings}) t(i), range(1, 3) u(k) WHERE k = 1 OR i % 10 = 3)`,
      cells: {
        HOLDING_ID: 'CAST(i + 1 AS VARCHAR)',
        IDENTIFIERS_ID: `CAST(2 * i + k AS VARCHAR)`,
        IDENTIFIER_ISIN: `CASE WHEN k = 1 THEN 'US' || lpad(CAST(c * 7 AS VARCHAR), 9, '0') || '0' END`,
        IDENTIFIER_TICKER: `CASE WHEN k = 1 THEN 'T' || c END`,
        OTHER_IDENTIFIER: `CASE WHEN k = 2 THEN 'SEDOL' || c END`,
        OTHER_IDENTIFIER_DESC: `CASE WHEN k = 2 THEN 'SEDOL' END`,
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

export async function nportIngestBench(root: string, lines = LINES): Promise<BenchResult[]> {
  const src = join(root, 'nport-src');
  await generateNportDataSet(src, lines);
  const main = ['FUND_REPORTED_HOLDING', 'IDENTIFIERS'].map((m) => join(src, `${m}.tsv`));
  const bare = await bareCopyInChild(main.map((f, i) => [f, join(root, `nport-baseline-${i}.parquet`)]));
  const run = await ingestInChild(['nport', '--from', src], { DATA_DIR: join(root, 'nport-data') });
  // The same data set again, into the lake it wrote: the merge path, where every line of the partition is matched
  // against the staged ones (the next data set overlapping a report quarter, or a re-run, takes it).
  const merged = await ingestInChild(['nport', '--from', src], { DATA_DIR: join(root, 'nport-data') });
  const cpuRatio = ratio(run.cpuMs, bare.cpuMs);
  const mergedRatio = ratio(merged.cpuMs, bare.cpuMs);
  let mb = 0;
  for (const f of main) mb += (await stat(f)).size / 1e6;
  return [
    {
      name: `nport: ingest data set (${lines.toLocaleString('en-US')} FUND_REPORTED_HOLDING lines, ${mb.toFixed(0)} MB with IDENTIFIERS)`,
      figures: {
        cpu_s: Math.round(run.cpuMs / 100) / 10,
        bare_copy_cpu_s: Math.round(bare.cpuMs / 100) / 10,
        cpu_ratio: cpuRatio,
        peak_rss_mb: run.peakRssMb,
        bare_copy_peak_rss_mb: bare.peakRssMb,
        ...ingestTargetFigures(cpuRatio, run.peakRssMb),
        wall_s: Math.round(run.ms / 100) / 10,
        rows_per_s: Math.round(lines / (run.ms / 1000)),
      },
    },
    {
      name: `nport: the same data set ingested again into the quarter it wrote (a merge of ${lines.toLocaleString('en-US')} lines)`,
      figures: {
        cpu_s: Math.round(merged.cpuMs / 100) / 10,
        bare_copy_cpu_s: Math.round(bare.cpuMs / 100) / 10,
        cpu_ratio: mergedRatio,
        peak_rss_mb: merged.peakRssMb,
        ...ingestTargetFigures(mergedRatio, merged.peakRssMb),
        wall_s: Math.round(merged.ms / 100) / 10,
      },
    },
  ];
}

export default async function (): Promise<BenchResult[]> {
  const root = await mkdtemp(join(tmpdir(), 'bench-nport-ingest-'));
  try {
    return await nportIngestBench(root);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
