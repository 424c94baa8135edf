import { totalmem } from 'node:os';
import { z } from 'zod';
import { DEFAULT_DATA_DIR, type DataDirs, dataDirs } from './data-dirs.ts';

/**
 * Every setting, validated once (zod) from the environment. Base URLs default to the real hosts; tests and
 * `make demo` point them at local servers or read local files, so no traffic leaves loopback.
 */
const bool = z.enum(['true', 'false', '1', '0', 'on', 'off', 'yes', 'no']).transform((v) => ['true', '1', 'on', 'yes'].includes(v));

const SettingsSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('127.0.0.1'),
  /** The address clients reach the API at, for the OpenAPI `servers` entry; default http://HOST:PORT. */
  PUBLIC_URL: z.string().url().optional(),
  DATA_DIR: z.string().default(DEFAULT_DATA_DIR),
  /**
   * `postgres://user:pass@host:5432/db`: keep keys, credits, monitors and deliveries in PostgreSQL, shared by any
   * number of API processes and workers. Unset: the embedded file DATA_DIR/state.duckdb (one server process).
   */
  STATE_DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//i, 'a postgres:// or postgresql:// URL')
    .optional(),
  SEC_BASE_URL: z.string().url().default('https://www.sec.gov'),
  SEC_DATA_BASE_URL: z.string().url().default('https://data.sec.gov'),
  SEC_EFTS_BASE_URL: z.string().url().default('https://efts.sec.gov'),
  IAPD_BASE_URL: z.string().url().default('https://reports.adviserinfo.sec.gov'),
  USPTO_BASE_URL: z.string().url().default('https://bulkdata.uspto.gov'),
  IRS_BASE_URL: z.string().url().default('https://apps.irs.gov'),
  /** `Org Name contact@example.com`: required by the regulator's fair-access policy on its real hosts. */
  SEC_USER_AGENT: z.string().optional(),
  /** Requests per second across all regulator hosts from this process (policy maximum 10). */
  SEC_MAX_RPS: z.coerce.number().min(0.1).max(10).default(10),
  HTTP_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
  HTTP_RETRIES: z.coerce.number().int().min(0).max(10).default(4),
  /** Pause after a 429 or the regulator's rate-threshold 403 (its block lasts 10 minutes and renews). */
  THROTTLE_PAUSE_MS: z.coerce.number().int().min(0).default(600_000),
  METERING: z.enum(['on', 'off']).default('on'),
  /** Per-key request rate (token bucket, requests/second; the burst equals one second's worth). */
  RATE_LIMIT_RPS: z.coerce.number().min(0.1).default(100),
  /**
   * Failed authentications per client address (a key refused: malformed, unknown or revoked; no header is no attempt):
   * a burst of AUTH_FAILURE_BURST, then AUTH_FAILURE_RPS a second; past it, 429 before the key is even looked at.
   */
  AUTH_FAILURE_BURST: z.coerce.number().int().min(1).default(20),
  AUTH_FAILURE_RPS: z.coerce.number().min(0.01).default(1),
  /** Secret that signs cursors; default: generated once and kept in DATA_DIR/cursor.key. */
  CURSOR_SECRET: z.string().min(16).optional(),
  SCHEDULE: bool.default(false),
  NIGHTLY_CRON: z.string().default('30 3 * * *'),
  DAILY_CRON: z.string().default('15 22 * * 1-5'),
  /** The live lane (docs/live-lane.md): polls the latest-filings feed inside the server; off unless LIVE=on. */
  LIVE: bool.default(false),
  LIVE_INTERVAL_MS: z.coerce.number().int().min(100).default(30_000),
  /** Ceiling of the interval after throttling or failures (it doubles each time, and resets on a clean poll). */
  LIVE_MAX_INTERVAL_MS: z.coerce.number().int().min(100).default(600_000),
  LIVE_PAGE_SIZE: z.coerce.number().int().min(1).max(100).default(100),
  /** Feed pages read in one poll at most before the lane reports a gap (left to the daily lane). */
  LIVE_MAX_PAGES: z.coerce.number().int().min(1).default(20),
  /** Filings fetched and ingested in one batch at most; the rest wait for the next poll (shown as backlog). */
  LIVE_MAX_BATCH: z.coerce.number().int().min(1).default(500),
  /** A partition's live append files are folded back into its data file once there are this many. */
  LIVE_COMPACT_FILES: z.coerce.number().int().min(1).default(120),
  /** Hosts webhook deliveries may reach despite resolving to loopback/private ranges (tests, local development). */
  WEBHOOK_ALLOW_HOSTS: z.string().default(''),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  /**
   * `make demo` sets it for the server: serve the sample filing archive `api/demo.ts` wrote on loopback (the live
   * endpoints' base URLs point there unless set) and the demo's HTTPS webhook receiver.
   */
  DEMO: bool.default(false),
  DEMO_RECEIVER_PORT: z.coerce.number().int().min(1).max(65535).default(8443),
  /** Share of a partition's rows (or of a run's rows, rejected) beyond which an ingest refuses to replace the lake. */
  INGEST_MAX_DROP: z.coerce.number().min(0).max(1).default(0.5),
  /**
   * DuckDB memory limit of an ingest's work database (and of a live lane's fold, and of the events diff stage), in
   * DuckDB's units (`1GB`, `1500MB`, `2GiB`): checked here so a typo fails at start, not mid-ingest. Peak RSS runs
   * ≈ 0.4–0.6 GB above it (docs/13f-funds.md, "Memory"). Unset: the dataset's own default (`memoryLimit` of its
   * ingester), else 1GB.
   */
  INGEST_MEMORY_LIMIT: z
    .string()
    .trim()
    .regex(/^\d+(\.\d+)?\s*(B|KB|MB|GB|TB|KiB|MiB|GiB|TiB)$/i, 'a size such as 1GB, 1500MB or 2GiB')
    .optional(),
  /** How often the API checks the lake's catalogs for commits from other processes (docs/read-path.md); 0: never. */
  LAKE_REFRESH_MS: z.coerce.number().int().min(0).default(2000),
  /** Prepared statements kept per API lake connection, keyed by SQL text (docs/read-path.md); 0 turns the cache off. */
  LAKE_STATEMENT_CACHE: z.coerce.number().int().min(0).default(256),
  /** Pages of tables with serving copies read them instead of Parquet when current (docs/read-path.md); off: Parquet only. */
  LAKE_SERVING: z.enum(['on', 'off']).default('on'),
  /**
   * Keep the heads of the filing index's, insider transactions' and patent grants' two newest partitions in memory (≈ 72
   * MB a process), which serve their first pages (docs/layouts.md, "Heads"); off: those pages read the partition.
   */
  LAKE_HEADS: z.enum(['on', 'off']).default('on'),
  /**
   * Megabytes of serving copies read whole into DuckDB's memory once attached, newest partitions first, so a page's
   * first read of a key does not pay for loading the copy's blocks (docs/read-path.md); 0: none. Default: half the
   * machine's memory, at most 8 GB.
   */
  LAKE_SERVING_PRELOAD_MB: z.coerce
    .number()
    .int()
    .min(0)
    .default(Math.min(8192, Math.floor(totalmem() / 2 ** 21))),
  /**
   * DuckDB threads of the API's lake reader, per process (docs/read-path.md, "Threads"): each query also runs on its
   * own calling thread, so concurrent pages use the cores whatever this is; more threads shorten a single long query
   * (the worst case's union, an export) and cost every page CPU to hand its scan out. One: at 16 clients on 2 cores,
   * 1.22–1.37× the pages a second of two threads at 50M lines (BENCH=lake-threads).
   */
  LAKE_THREADS: z.coerce.number().int().min(1).max(64).default(1),
  /**
   * The folder of the API's top indexes (docs/read-path.md, "The top index"), shared by the processes of a host serving
   * the same lake: the first builds an index, the others attach its file. Default: the system's temp folder.
   */
  LAKE_TOP_INDEX_DIR: z.string().optional(),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
});

export type Settings = z.infer<typeof SettingsSchema> & DataDirs;

export function loadSettings(env: Record<string, string | undefined> = process.env): Settings {
  const picked: Record<string, string> = {};
  for (const key of Object.keys(SettingsSchema.shape)) {
    const v = env[key];
    if (v !== undefined && v !== '') picked[key] = v;
  }
  const r = SettingsSchema.safeParse(picked);
  if (!r.success) {
    const lines = r.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`invalid settings:\n${lines}`);
  }
  return { ...r.data, ...dataDirs(r.data.DATA_DIR) };
}

/** The real regulator hosts, which demand a declared User-Agent. */
export const REAL_SEC_HOSTS = ['www.sec.gov', 'sec.gov', 'data.sec.gov', 'efts.sec.gov', 'reports.adviserinfo.sec.gov'];
