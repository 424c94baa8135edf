import { join } from 'node:path';
import type { Settings } from '../../schemas/settings.ts';
import { openDuckStateStore } from './state-duckdb.ts';
import { openPostgresStateStore } from './state-postgres.ts';
import type { StateStore } from './state-types.ts';

export type { StateStore, StateTx } from './state-types.ts';

/** Where the state store lives: STATE_DATABASE_URL (PostgreSQL) when set, else the embedded file DATA_DIR/state.duckdb. */
export function stateTarget(settings: Pick<Settings, 'STATE_DATABASE_URL' | 'dataDir'>): string {
  return settings.STATE_DATABASE_URL ?? join(settings.dataDir, 'state.duckdb');
}

export const isPostgresUrl = (target: string) => /^postgres(ql)?:\/\//i.test(target);

/**
 * Opens the state store at `target`: a `postgres://` URL (shared by many processes) or a DuckDB file path (or
 * `:memory:`; one owning process). Both run the same migrations and take the same SQL (api/core/state-dialect.ts).
 */
export function openStateStore(target: string): Promise<StateStore> {
  return isPostgresUrl(target) ? openPostgresStateStore(target) : openDuckStateStore(target);
}
