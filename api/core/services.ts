import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createHttpClient, type HttpClient } from '../../ingest/sources/common/index.ts';
import type { Settings } from '../../schemas/settings.ts';
import type { TableSpec } from '../../schemas/table.ts';
import { createMeter, type Meter } from './credits.ts';
import { openLake, type Lake } from './lake.ts';
import { openStateStore, type StateStore } from './state.ts';

/** What route handlers may use; built once by createServices (tests build theirs with createTestApp). */
export interface Services {
  settings: Settings;
  lake: Lake;
  state: StateStore;
  http: HttpClient;
  meter: Meter;
  /** Signs pagination cursors of every list, dataset or custom (api/core/cursor.ts). */
  cursorSecret: string;
  /** The clock, injectable so tests never wait for real time (webhook retry schedule, billing periods). */
  now(): Date;
}

export async function createServices(settings: Settings, overrides: { now?: () => Date; http?: HttpClient; statePath?: string; extraTables?: TableSpec[]; cursorSecret?: string } = {}): Promise<Services> {
  await mkdir(settings.lakeDir, { recursive: true });
  const now = overrides.now ?? (() => new Date());
  const state = await openStateStore(overrides.statePath ?? join(settings.dataDir, 'state.duckdb'));
  const lake = await openLake(settings.lakeDir, { extraTables: overrides.extraTables });
  return {
    settings,
    lake,
    state,
    http: overrides.http ?? createHttpClient(settings),
    meter: createMeter(state, { metering: settings.METERING === 'on', now }),
    cursorSecret: overrides.cursorSecret ?? cursorSecret(settings),
    now,
  };
}

export async function closeServices(s: Services): Promise<void> {
  s.lake.close();
  await s.state.close();
}

/**
 * The cursor-signing secret: from CURSOR_SECRET, else generated once and kept in DATA_DIR/cursor.key, so
 * cursors stay valid across restarts.
 */
export function cursorSecret(settings: Settings): string {
  if (settings.CURSOR_SECRET) return settings.CURSOR_SECRET;
  const file = join(settings.dataDir, 'cursor.key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
