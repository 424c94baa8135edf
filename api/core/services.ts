import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createLogger, type Logger } from '../../ingest/lake/index.ts';
import { createLiveLane, type LiveLane } from '../../ingest/pipeline/index.ts';
import { createHttpClient, type HttpClient } from '../../ingest/sources/common/index.ts';
import { createFilingStore, type FilingStore } from '../../ingest/sources/edgar/index.ts';
import type { Settings } from '../../schemas/settings.ts';
import type { TableSpec } from '../../schemas/table.ts';
import { createMonitoring, type MonitoringOptions, type MonitoringRuntime } from '../monitors/runtime.ts';
import { createMeter, type Meter } from './credits.ts';
import { openLake, type Lake, type LakeOptions } from './lake.ts';
import { openStateStore, type StateStore, stateTarget } from './state.ts';

/** What route handlers may use; built once by createServices (tests build theirs with createTestApp). */
export interface Services {
  settings: Settings;
  lake: Lake;
  state: StateStore;
  http: HttpClient;
  meter: Meter;
  /** The regulator's filings read on demand and cached on disk (per-filing parsers, feed excerpts). */
  filings: FilingStore;
  /** Monitor matching and webhook deliveries; idle until started (the server starts it, tests run cycles by hand). */
  monitoring: MonitoringRuntime;
  /** The live lane (LIVE=on): idle until the server's workers start it; its health shows in /healthz and /v1/sources. */
  live: LiveLane;
  /** The process logger at LOG_LEVEL; requests log through a child carrying their request id. */
  log: Logger;
  /** Signs pagination cursors of every list, dataset or custom (api/core/cursor.ts). */
  cursorSecret: string;
  /** The clock, injectable so tests never wait for real time (webhook retry schedule, billing periods, rate limits). */
  now(): Date;
}

export interface ServiceOverrides {
  now?: () => Date;
  http?: HttpClient;
  statePath?: string;
  extraTables?: TableSpec[];
  cursorSecret?: string;
  monitoring?: MonitoringOptions;
  log?: Logger;
  /** The lake's timer and hooks (tests tick the refresh by hand and count listings). */
  lake?: Pick<LakeOptions, 'every' | 'hooks'>;
}

export async function createServices(settings: Settings, overrides: ServiceOverrides = {}): Promise<Services> {
  await mkdir(settings.lakeDir, { recursive: true });
  const now = overrides.now ?? (() => new Date());
  const log = overrides.log ?? createLogger(settings.LOG_LEVEL);
  const state = await openStateStore(overrides.statePath ?? stateTarget(settings));
  const lake = await openLake(settings.lakeDir, {
    extraTables: overrides.extraTables,
    refreshMs: settings.LAKE_REFRESH_MS,
    statementCache: settings.LAKE_STATEMENT_CACHE,
    serving: settings.LAKE_SERVING === 'on',
    heads: settings.LAKE_HEADS === 'on',
    servingPreloadBytes: settings.LAKE_SERVING_PRELOAD_MB * 2 ** 20,
    threads: settings.LAKE_THREADS,
    topIndexDir: settings.LAKE_TOP_INDEX_DIR,
    onError: (err) => log.warn(`lake refresh failed: ${err.message}`),
    ...overrides.lake,
    hooks: {
      // A build of the host's shared top index (docs/read-path.md, "Shared by a host's processes"): which process built
      // it, and why a failed one left the worst-case pages on the serving copies until the next refresh.
      onTopIndexBuild: (id) => log.info(`top index ${id} built`),
      onTopIndexError: (err) => log.warn(`top index build failed (its pages read the serving copies meanwhile): ${err.message}`),
      ...overrides.lake?.hooks,
    },
  });
  const http = overrides.http ?? createHttpClient(settings);
  const monitoring = createMonitoring({ state, lake, settings, now, log }, overrides.monitoring);
  const liveLog = log.child({ component: 'live' });
  return {
    settings,
    lake,
    state,
    http,
    meter: createMeter(state, { metering: settings.METERING === 'on', now }),
    // The lake's filing index (when ingested) tells under which CIK an accession is filed.
    filings: createFilingStore({
      http,
      settings,
      lookupCiks: async (acc) => (await lake.query('SELECT DISTINCT cik FROM filings WHERE accession = $1', [acc])).map((r) => String(r.cik)),
    }),
    monitoring,
    // A batch's rows and events are in the lake when onBatch fires: the views take them in before the poll returns,
    // and monitors match them now instead of at the next cycle.
    live: createLiveLane({
      settings,
      http,
      now,
      log: (m) => liveLog.info(m),
      onBatch: async () => {
        await lake.refresh().catch((err: Error) => liveLog.warn(`lake refresh after a batch failed: ${err.message}`));
        monitoring.kick();
      },
    }),
    log,
    cursorSecret: overrides.cursorSecret ?? cursorSecret(settings),
    now,
  };
}

export async function closeServices(s: Services): Promise<void> {
  await s.live.stop();
  await s.monitoring.stop();
  await s.lake.close();
  await s.state.close();
}

/**
 * The cursor-signing secret: from CURSOR_SECRET, else generated once and kept in DATA_DIR/cursor.key, so
 * cursors stay valid across restarts.
 */
function cursorSecret(settings: Settings): string {
  if (settings.CURSOR_SECRET) return settings.CURSOR_SECRET;
  const file = join(settings.dataDir, 'cursor.key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
