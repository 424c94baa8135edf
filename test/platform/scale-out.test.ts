import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../../api/core/keys.ts';
import { openStateStore, type StateStore } from '../../api/core/state.ts';
import { createEndpoint, queueTestDelivery } from '../../api/webhooks/endpoint-service.ts';
import { findIngester } from '../../ingest/pipeline/registry.ts';
import { runIngest } from '../../ingest/pipeline/runner.ts';
import { loadSettings } from '../../schemas/settings.ts';
import { makeCert, startReceiver } from '../monitors-webhooks/support.ts';
import { startTestPostgres, type TestPostgres } from '../support/postgres.ts';
import { type ApiProcess, getStatus, startApiProcess } from '../support/processes.ts';

/**
 * Scale-out on the PostgreSQL state store: two API server processes (each with its delivery worker) over one lake
 * and one database, as behind a load balancer. Skips loudly when PostgreSQL cannot start here.
 */
let cluster: TestPostgres | null = null;
let skipped = '';
let dataDir = '';
let url = '';
let state: StateStore | null = null;
let servers: ApiProcess[] = [];
let receiver: Awaited<ReturnType<typeof startReceiver>> | null = null;

beforeAll(async () => {
  const started = await startTestPostgres();
  if ('skipped' in started) {
    skipped = started.skipped;
    console.warn(`SKIPPED: scale-out on PostgreSQL: ${skipped}`);
    return;
  }
  cluster = started;
  url = await cluster.createDatabase('scale_out');
  dataDir = await mkdtemp(join(tmpdir(), 'filings-scale-'));
  const settings = loadSettings({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  const dataset = await findIngester('trading-suspensions');
  if (!dataset?.sample) throw new Error('trading-suspensions has no sample');
  await dataset.sample(join(dataDir, 'samples'), { seed: 1, scale: 1 });
  await runIngest(dataset, { from: join(dataDir, 'samples') }, settings, { quiet: true, skipDiff: true });
  state = await openStateStore(url);
  const tls = makeCert();
  receiver = await startReceiver(tls);
  const caFile = join(dataDir, 'receiver-ca.pem');
  writeFileSync(caFile, tls.cert);
  const env = {
    DATA_DIR: dataDir,
    STATE_DATABASE_URL: url,
    // Processes behind one load balancer must sign cursors alike.
    CURSOR_SECRET: 'scale-out-cursor-secret-0123456789',
    RATE_LIMIT_RPS: '100000',
    WEBHOOK_ALLOW_HOSTS: 'localhost',
    NODE_EXTRA_CA_CERTS: caFile,
  };
  servers = await Promise.all([startApiProcess(env), startApiProcess(env)]);
  // initdb, an ingest and two server processes starting (each as `npm start`): minutes on a busy machine.
}, 300_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await receiver?.close();
  await state?.close();
  await cluster?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('two API processes on one PostgreSQL state store', () => {
  it("1,000 concurrent requests on a free key across both processes serve exactly the plan's allowance", async (ctx) => {
    if (!state) return ctx.skip(skipped);
    const { key, account_id: account } = await createKey(state, { plan: 'free' });
    const agent = new Agent({ keepAlive: true, maxSockets: 64 });
    try {
      const statuses = await Promise.all(Array.from({ length: 1000 }, (_, i) => getStatus(agent, servers[i % 2].port, '/v1/trading-suspensions?limit=5', key)));
      const count = (s: number) => statuses.filter((x) => x === s).length;
      // 100 free credits at 5 per list call: 20 served, every other call refused with 402, none with anything else.
      expect({ ok: count(200), refused: count(402), other: statuses.length - count(200) - count(402) }).toEqual({ ok: 20, refused: 980, other: 0 });
      const rows = await state.all('SELECT used, requests FROM credit_usage WHERE account_id = $1', [account]);
      expect(rows).toEqual([{ used: 100, requests: 20 }]);
    } finally {
      agent.destroy();
    }
  }, 300_000);

  it('npm run keys opens the shared store directly: the key it creates works on both processes', async (ctx) => {
    if (!state) return ctx.skip(skipped);
    const env = { ...process.env, DATA_DIR: dataDir, STATE_DATABASE_URL: url, LOG_LEVEL: 'silent' };
    const { stdout } = await promisify(execFile)(process.execPath, ['ingest/cli-launch.cjs', 'keys', 'create', '--plan', 'builder', '--json'], { env });
    const created = JSON.parse(stdout) as { key: string; plan: string };
    expect(created.plan).toBe('builder');
    const agent = new Agent({ keepAlive: false });
    try {
      expect(await Promise.all(servers.map((p) => getStatus(agent, p.port, '/v1/account', created.key)))).toEqual([200, 200]);
    } finally {
      agent.destroy();
    }
  });

  it('deliveries due while both processes poll are each sent once', async (ctx) => {
    if (!state || !receiver) return ctx.skip(skipped);
    const now = new Date();
    const account = 'acct-scale-out';
    const endpoints = await Promise.all([0, 1, 2].map(() => createEndpoint(state as StateStore, account, { url: receiver?.url }, now)));
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push(await queueTestDelivery(state, account, endpoints[i % 3].id, now));
    // Both workers poll every second; wait (without a time assertion) until every delivery is settled.
    for (;;) {
      const [{ n }] = await state.all(`SELECT count(*) AS n FROM webhook_deliveries WHERE account_id = $1 AND status = 'pending'`, [account]);
      if (n === 0) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const delivered = receiver.received.map((r) => JSON.parse(r.rawBody.toString('utf8')).delivery_id as string).filter((id) => ids.includes(id));
    expect(delivered).toHaveLength(30);
    expect(new Set(delivered).size).toBe(30);
    const attempts = await state.all(
      `SELECT a.delivery_id, count(*) AS n, min(a.worker_id) AS worker FROM webhook_attempts a
       JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.account_id = $1 GROUP BY a.delivery_id`,
      [account],
    );
    expect(attempts.map((a) => a.n)).toEqual(Array(30).fill(1));
    const statuses = await state.all(`SELECT DISTINCT status FROM webhook_deliveries WHERE account_id = $1`, [account]);
    expect(statuses).toEqual([{ status: 'success' }]);
  });
});
