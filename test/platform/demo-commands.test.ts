import { createServer, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import PQueue from 'p-queue';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/core/app.ts';
import { closeServices, createServices, type Services } from '../../api/core/services.ts';
import { demoCommands } from '../../api/demo/commands.ts';
import { type DemoMode, startDemoMode } from '../../api/demo/demo-mode.ts';
import type { DemoRun } from '../../api/demo/demo-run.ts';
import { prepareDemo } from '../../api/demo/prepare.ts';
import { runCommands } from '../../api/demo/run-commands.ts';
import { ROUTES } from '../../api/routes.ts';
import { createHttpClient } from '../../ingest/sources/common/index.ts';
import { loadSettings, type Settings } from '../../schemas/settings.ts';
import { buildDemoLake } from '../support/demo-lake.ts';
import { freePort } from '../support/processes.ts';

/**
 * Issue #17: `make demo` shows every endpoint working offline. Builds the demo as `api/demo.ts` does (the demo lake,
 * then the sample archive, key, webhook endpoint and monitor), starts the server side of DEMO=on in process (the
 * loopback archive and the HTTPS receiver), and runs the very command list `make demo` prints through HTTP: each
 * must answer 200 with data, the monitor → webhook flow included (one monitoring cycle driven by hand, as the
 * server's worker would run it).
 */

describe('make demo: every printed command answers 200 with data, offline', () => {
  let dataDir: string;
  let settings: Settings;
  let run: DemoRun;
  let demo: DemoMode;
  let services: Services;
  let server: Server;
  let baseUrl: string;
  let userUrls: { base: string; efts: string; agent: string | undefined };

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'demo-commands-'));
    // A free port for the receiver: the endpoint URL naming it is written before the receiver starts.
    settings = loadSettings({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', DEMO: 'on', DEMO_RECEIVER_PORT: String(await freePort()) });
    await buildDemoLake(settings);
    run = await prepareDemo(settings, { withWebhook: true });

    // Base URLs the user set are left alone, and no demo User-Agent is invented for them.
    const userSet = await startDemoMode(settings, { SEC_BASE_URL: 'https://www.sec.gov', SEC_EFTS_BASE_URL: 'https://efts.sec.gov' });
    userUrls = { base: userSet.settings.SEC_BASE_URL, efts: userSet.settings.SEC_EFTS_BASE_URL, agent: userSet.settings.SEC_USER_AGENT };
    await userSet.close();

    demo = await startDemoMode(settings, {});
    // No politeness limit toward the loopback archive (as the test harness does for its stand-ins).
    const http = createHttpClient(demo.settings, new PQueue({ concurrency: 16 }));
    services = await createServices(demo.settings, { monitoring: demo.monitoring, http, cursorSecret: 'demo-commands-cursor-secret-0123' });
    server = createServer(createApp(services, { routes: ROUTES }).app);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }, 600_000);

  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    if (services) await closeServices(services);
    await demo?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('points the live endpoints at the loopback archive, unless the user set the base URLs', () => {
    expect(demo.settings.SEC_BASE_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(demo.settings.SEC_EFTS_BASE_URL).toBe(demo.settings.SEC_BASE_URL);
    expect(demo.settings.SEC_USER_AGENT).toMatch(/demo/);
    expect(demo.settings.WEBHOOK_ALLOW_HOSTS.split(',')).toContain('localhost');
    expect(userUrls).toEqual({ base: 'https://www.sec.gov', efts: 'https://efts.sec.gov', agent: undefined });
  });

  it('archives only filings of the demo lake, among them an Item 1.05 8-K, a 10-K and a Form 4', async () => {
    const rows: Record<string, unknown>[] = [];
    for (const acc of run.filings.all)
      rows.push(...(await services.lake.query('SELECT DISTINCT accession, form, items FROM filings WHERE accession = $1', [acc])));
    expect(rows.map((r) => r.accession).sort()).toEqual([...run.filings.all].sort());
    const formOf = (acc: string) => rows.find((r) => r.accession === acc);
    expect(String(formOf(run.filings.cyber_8k)?.items)).toContain('1.05');
    expect(formOf(run.filings.ten_k)?.form).toBe('10-K');
    expect(formOf(run.filings.form_4)?.form).toBe('4');
  });

  it('runs the printed command list: 200 with data for every endpoint family, signed deliveries verified', async () => {
    // The server's worker does this every 2 s: scan the feed, then send the deliveries due.
    await services.monitoring.runOnce();
    await services.monitoring.runOnce();
    const commands = demoCommands(run, baseUrl, `https://localhost:${run.receiver_port}`);
    const results = await runCommands(commands, run.key);
    const failed = results.filter((r) => !r.ok).map((r) => `${r.status} ${r.command.url}: ${r.detail}`);
    expect(failed).toEqual([]);

    const families = new Set(commands.map((c) => c.family));
    for (const family of [
      'list',
      'lookup',
      'per-filing: documents',
      'per-filing: extract',
      'per-filing: subsidiaries',
      'per-filing: events',
      'per-filing: insiders',
      'full-text',
      'cyber incidents',
      'events',
      'monitors',
      'webhooks',
      'webhook receiver',
    ]) {
      expect(families, family).toContain(family);
    }

    const receiver = results.find((r) => r.command.family === 'webhook receiver')!.data as { signature_verified: boolean; type: string }[];
    expect(receiver.length).toBeGreaterThan(0);
    expect(receiver.every((d) => d.signature_verified && d.type === 'sec.8k.cybersecurity_incident')).toBe(true);
  });
});
