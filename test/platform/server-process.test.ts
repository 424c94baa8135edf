import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../api/server.ts';
import { loadSettings } from '../../schemas/settings.ts';
import { writeToyCsv } from './toy-dataset.ts';

const run = promisify(execFile);

/**
 * The server owns the state file; ingests and key management run beside it as separate processes.
 */
describe('server process with concurrent ingest and key management', () => {
  let dataDir: string;
  let server: RunningServer;
  let base: string;
  const env = () => ({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' });

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'filings-srv-'));
    server = await startServer(loadSettings({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent' }));
    base = `http://127.0.0.1:${server.port}`;
  });
  afterAll(async () => {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('npm run keys works while the server holds the state store (admin socket)', async () => {
    const { stdout } = await run(process.execPath, ['ingest/cli-launch.cjs', 'keys', 'create', '--plan', 'builder', '--name', 'ci', '--json'], {
      env: env(),
    });
    const created = JSON.parse(stdout);
    expect(created.key).toMatch(/^sk_live_[0-9A-Za-z]{32}$/);
    const r = await fetch(`${base}/v1/account`, { headers: { Authorization: `Bearer ${created.key}` } });
    expect(r.status).toBe(200);
    expect(((await r.json()) as any).data[0].plan).toBe('builder');
    const list = JSON.parse((await run(process.execPath, ['ingest/cli-launch.cjs', 'keys', 'list'], { env: env() })).stdout);
    expect(list.some((k: any) => k.id === created.id && !('key_hash' in k))).toBe(true);
    await run(process.execPath, ['ingest/cli-launch.cjs', 'keys', 'revoke', created.id], { env: env() });
    const after = await fetch(`${base}/v1/account`, { headers: { Authorization: `Bearer ${created.key}` } });
    expect(after.status).toBe(401);
  });

  it('an ingest in another process writes the lake while the server serves it', async () => {
    const input = join(dataDir, 'in');
    await writeToyCsv(input, '2026-02-01', 40);
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'test/platform/toy-ingest-child.ts', input], { env: env() });
    expect(JSON.parse(stdout).rows).toBe(40);
    const r = await fetch(`${base}/v1/sources`);
    const toy = ((await r.json()) as any).data.find((d: any) => d.table === 'toy_firms');
    expect(toy.record_count).toBe(40);
    const h = await fetch(`${base}/healthz`);
    expect(h.status).toBe(200);
  });
});
