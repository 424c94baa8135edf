import type { Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import PQueue from 'p-queue';
import type { DatasetIngester } from '../../ingest/pipeline/contract.ts';
import type { IngestArgs } from '../../ingest/sources/common/context.ts';
import { findIngester } from '../../ingest/pipeline/registry.ts';
import { runIngest, type IngestSummary, type RunOptions } from '../../ingest/pipeline/runner.ts';
import { createHttpClient } from '../../ingest/sources/common/index.ts';
import { loadSettings, type Settings } from '../../schemas/settings.ts';
import type { TableSpec } from '../../schemas/table.ts';
import type { AddressGate, GateOptions } from '../../api/core/address-gate.ts';
import { createApp, type AppHandle } from '../../api/core/app.ts';
import { createApiServer } from '../../api/core/http-server.ts';
import type { Endpoint } from '../../api/core/endpoint.ts';
import { createKey } from '../../api/core/keys.ts';
import type { PlanId } from '../../schemas/plans.ts';
import { closeServices, createServices, type ServiceOverrides, type Services } from '../../api/core/services.ts';
import type { MonitoringOptions } from '../../api/monitors/runtime.ts';

export interface TestApp {
  baseUrl: string;
  port: number;
  settings: Settings;
  services: Services;
  handle: AppHandle;
  /** The address gate before Express, as in production; tests call `gate.sweep()` after moving the clock. */
  gate: AddressGate;
  dataDir: string;
  /** A key on the `pro` plan, created with the app. */
  key: string;
  newKey(plan?: PlanId, accountId?: string): Promise<string>;
  /** GET/POST… through real HTTP; `key: null` sends no Authorization header. */
  request(
    path: string,
    init?: { method?: string; body?: unknown; key?: string | null; headers?: Record<string, string> },
  ): Promise<{ status: number; headers: Headers; body: any }>;
  get(path: string, key?: string | null): Promise<{ status: number; headers: Headers; body: any }>;
  /** Runs an ingest into this app's lake (by name or definition); the app's views include it when this resolves. */
  ingest(dataset: string | DatasetIngester, args?: IngestArgs, opts?: RunOptions): Promise<IngestSummary>;
  /**
   * Writes the dataset's demo sample into a temp folder and ingests it (`--from`). Pass the dataset's definition
   * (not its name) so the file does not load every ingester; `skipDiff` when the test reads no events.
   */
  ingestSample(dataset: string | DatasetIngester, opts?: { seed?: number; scale?: number; skipDiff?: boolean }): Promise<IngestSummary>;
  close(): Promise<void>;
}

/** Every endpoint, loaded only when a test asks for all of them (a test file should name its own area's). */
async function allRoutes(): Promise<readonly Endpoint[]> {
  return (await import('../../api/routes.ts')).ROUTES;
}

/**
 * A real server on an ephemeral loopback port over a fresh temporary data folder: the same createApp and
 * services as production. `routes` are the endpoints mounted (default: all; pass the area's list, e.g.
 * `routes: holdings13f` from `api/13f/routes.ts`, so the file imports only what it tests). Other options pass
 * settings (as environment strings), an injectable clock, extra tables for framework tests, and the monitoring
 * runtime's options (a test receiver's CA).
 */
export async function createTestApp(
  opts: {
    routes?: readonly Endpoint[];
    env?: Record<string, string>;
    now?: () => Date;
    extraTables?: TableSpec[];
    monitoring?: MonitoringOptions;
    lake?: ServiceOverrides['lake'];
    gate?: GateOptions;
  } = {},
): Promise<TestApp> {
  const dataDir = await mkdtemp(join(tmpdir(), 'filings-test-'));
  // No lake refresh timer (LAKE_REFRESH_MS=0): a test app lists the lake when the test says so (`ingest` and
  // `ingestSample` refresh; a test of the timer passes LAKE_REFRESH_MS and its own `lake.every`). A 2 s tick landing
  // inside a test's steps made a listing the test did not plan: the events key-filter test failed once in CI that way.
  const settings = loadSettings({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', THROTTLE_PAUSE_MS: '1000', HTTP_RETRIES: '1', LAKE_REFRESH_MS: '0', ...opts.env });
  // The stand-ins are on loopback: no politeness limit toward them. The regulator's 10 requests/second would make
  // every stand-in page a fixed wait (the limit itself is tested on the client, test/platform/http-client.test.ts).
  const http = createHttpClient(settings, new PQueue({ concurrency: 16 }));
  const services = await createServices(settings, {
    now: opts.now,
    http,
    extraTables: opts.extraTables,
    cursorSecret: 'test-cursor-secret-0123456789',
    monitoring: opts.monitoring,
    lake: opts.lake,
  });
  const handle = createApp(services, { routes: opts.routes ?? (await allRoutes()) });
  const { server, gate }: { server: Server; gate: AddressGate } = createApiServer(handle, opts.gate);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  const baseUrl = `http://127.0.0.1:${port}`;
  const newKey = async (plan: PlanId = 'pro', accountId?: string) => (await createKey(services.state, { plan, accountId })).key;
  const key = await newKey('pro');

  const request: TestApp['request'] = async (path, init = {}) => {
    const headers: Record<string, string> = { ...(init.headers ?? {}) };
    const k = init.key === undefined ? key : init.key;
    if (k) headers.Authorization = `Bearer ${k}`;
    if (init.body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(`${baseUrl}${path}`, {
      method: init.method ?? 'GET',
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      /* non-JSON bodies (docs page) stay text */
    }
    return { status: res.status, headers: res.headers, body };
  };

  return {
    baseUrl,
    port,
    settings,
    services,
    handle,
    gate,
    dataDir,
    key,
    newKey,
    request,
    get: (path, k) => request(path, { key: k }),
    // The app's views take in a commit at the next catalog check (LAKE_REFRESH_MS); a test asks at once instead.
    async ingest(dataset, args = {}, ro = {}) {
      try {
        return await runIngest(dataset, args, settings, { quiet: true, http, ...ro });
      } finally {
        await services.lake.refresh();
      }
    },
    async ingestSample(dataset, o = {}) {
      const def = typeof dataset === 'string' ? await findIngester(dataset) : dataset;
      if (!def?.sample) throw new Error(`dataset ${typeof dataset === 'string' ? dataset : dataset.name} has no sample writer`);
      const dir = join(dataDir, 'samples', def.name);
      await def.sample(dir, { seed: o.seed ?? 1, scale: o.scale ?? 1 });
      const summary = await runIngest(def, { from: dir }, settings, { quiet: true, http, skipDiff: o.skipDiff });
      await services.lake.refresh();
      return summary;
    },
    async close() {
      // Keep-alive sockets of the test's fetches would hold close() open for seconds: cut them at once.
      const closed = new Promise<void>((r) => server.close(() => r()));
      gate.close();
      server.closeAllConnections();
      await closed;
      await closeServices(services);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
