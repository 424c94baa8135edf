import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBundle, readStamp, TARGETS } from '../../ingest/cli-bundle.cjs';
import { type ApiProcess, commandOutcome, startApiProcess } from '../support/processes.ts';

/**
 * `npm start` runs the server's prebuilt bundle (dist/api.cjs, api/main.ts; ingest/cli-bundle.cjs) through the
 * launcher. The bundle cannot find the areas' state migrations nor the datasets by walking folders at run time: the
 * build hands them over. Started here exactly as `npm start` starts it, on an empty data folder: it listens, its
 * state store holds every area's tables (a key made through the admin socket, a monitor and a webhook endpoint made
 * and listed), the docs and the OpenAPI document are served, and SIGTERM stops it cleanly.
 */
describe('npm start: the server runs from its bundle', () => {
  let dataDir: string;
  let server: ApiProcess | null = null;
  let base: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'server-bundle-'));
    await ensureBundle(TARGETS.api);
    server = await startApiProcess({ DATA_DIR: dataDir, LOG_LEVEL: 'info' });
    base = `http://127.0.0.1:${server.port}`;
  }, 120_000);

  afterAll(async () => {
    await server?.kill();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('is current after its first build, and found the migration areas and the datasets when built', async () => {
    expect((await ensureBundle(TARGETS.api)).built).toBeNull();
    const folders = readStamp(TARGETS.api)?.folders ?? {};
    expect(folders.api).toEqual(['monitors', 'webhooks']);
    expect(folders['ingest/datasets']).toContain('13f');
    await ensureBundle(TARGETS.ingest);
    expect(folders['ingest/datasets']).toEqual(readStamp(TARGETS.ingest)?.folders?.['ingest/datasets']);
    // The bundle holds the sources, not a loader: no tsx in the process.
    expect(readStamp(TARGETS.api)?.packages).not.toContain('tsx');
  });

  it('serves every area on a state store its bundled migrations made', async () => {
    const created = await commandOutcome(process.execPath, ['ingest/cli-launch.cjs', 'keys', 'create', '--plan', 'builder', '--json'], {
      env: { DATA_DIR: dataDir },
    });
    expect(created.code, created.stderr).toBe(0);
    const key = (JSON.parse(created.stdout) as { key: string }).key;
    const auth = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };

    const account = await fetch(`${base}/v1/account`, { headers: auth });
    expect(account.status).toBe(200);
    // The monitors' and the webhooks' tables come from their areas' migrations (api/<area>/migrations.ts).
    const monitor = await fetch(`${base}/v1/monitors`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ name: 'bundle', target_type: 'ticker', target_value: 'AAPL' }),
    });
    expect(monitor.status, await monitor.clone().text()).toBe(201);
    const monitors = (await (await fetch(`${base}/v1/monitors`, { headers: auth })).json()) as { data: { name: string }[] };
    expect(monitors.data.map((m) => m.name)).toEqual(['bundle']);
    const endpoints = await fetch(`${base}/v1/webhooks/endpoints`, { headers: auth });
    expect(endpoints.status).toBe(200);

    expect((await fetch(`${base}/docs/`)).status).toBe(200);
    const spec = (await (await fetch(`${base}/openapi.json`)).json()) as { openapi: string; paths: object };
    expect(spec.openapi).toMatch(/^3\./);
    expect(Object.keys(spec.paths).length).toBeGreaterThan(50);
  });

  it('logs that it listens; stops on SIGTERM: exit code 0, its admin socket removed', async () => {
    expect(server!.stderr()).toMatch(new RegExp(`listening on http://127\\.0\\.0\\.1:${server!.port} `));
    expect(await server!.stop()).toBe(0);
    server = null;
    expect(existsSync(join(dataDir, 'admin.sock'))).toBe(false);
  });
});

/**
 * `npm run keys` runs from its bundle too (dist/keys.cjs), which holds the areas' migrations as the server's does: with
 * no server running it opens the state file itself, on a fresh data folder migrating it first.
 */
describe('npm run keys: from its bundle, on a state store of its own making', () => {
  it('creates a key in a fresh store, lists it, revokes it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'keys-bundle-'));
    try {
      const keys = (...args: string[]) => commandOutcome(process.execPath, ['ingest/cli-launch.cjs', 'keys', ...args], { env: { DATA_DIR: dir } });
      const created = await keys('create', '--plan', 'starter', '--name', 'bundled', '--json');
      expect(created.code, created.stderr).toBe(0);
      const { id } = JSON.parse(created.stdout) as { id: string };
      const listed = await keys('list');
      expect(listed.code, listed.stderr).toBe(0);
      expect((JSON.parse(listed.stdout) as { id: string; name: string; plan: string }[]).map((k) => [k.id, k.name, k.plan])).toEqual([
        [id, 'bundled', 'starter'],
      ]);
      expect(JSON.parse((await keys('revoke', id)).stdout)).toEqual({ revoked: true });
      expect((await keys('bogus')).code).toBe(2);
      expect(readStamp(TARGETS.keys)?.folders).toEqual({ api: ['monitors', 'webhooks'] });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
