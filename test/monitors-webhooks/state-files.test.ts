import { chmodSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStateStore } from '../../api/core/state.ts';
import { createEndpoint } from '../../api/webhooks/endpoint-service.ts';

const mode = (f: string) => statSync(f).mode & 0o777;
let dir = '';
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('state files hold secrets: owner-only', () => {
  it('creates the directory 0700 and keeps the DuckDB file and every WAL 0600, across checkpoints', async () => {
    dir = mkdtempSync(join(tmpdir(), 'state-perm-'));
    const path = join(dir, 'nested', 'state.duckdb');
    const state = await openStateStore(path);
    try {
      expect(mode(join(dir, 'nested'))).toBe(0o700);
      expect(mode(path)).toBe(0o600);
      await createEndpoint(state, 'acct', { url: 'https://receiver.example/hook' }, new Date());
      expect(mode(`${path}.wal`)).toBe(0o600);
      await state.run('CHECKPOINT');
      // The next write creates a fresh WAL.
      await createEndpoint(state, 'acct', { url: 'https://receiver.example/hook2' }, new Date());
      expect(existsSync(`${path}.wal`)).toBe(true);
      expect(mode(`${path}.wal`)).toBe(0o600);
      expect(mode(path)).toBe(0o600);
    } finally {
      await state.close();
    }
  });

  it('restricts a state file an older version left world-readable', async () => {
    dir = mkdtempSync(join(tmpdir(), 'state-perm-'));
    const path = join(dir, 'state.duckdb');
    await (await openStateStore(path)).close();
    chmodSync(path, 0o644);
    const state = await openStateStore(path);
    await state.close();
    expect(mode(path)).toBe(0o600);
  });
});
