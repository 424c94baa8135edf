import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { discoverModules } from '../../ingest/pipeline/index.ts';
import coreMigrations, { type Migration } from './migrations.ts';

const apiRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Every area's migrations (`api/<area>/migrations.ts`) with the core ones, in id order; one set for both engines. */
export async function discoverMigrations(): Promise<Migration[]> {
  const all: Migration[] = [...coreMigrations];
  for (const { value } of await discoverModules<Migration[]>(apiRoot, 'migrations.ts')) all.push(...value);
  const ids = new Set<string>();
  for (const m of all) {
    if (ids.has(m.id)) throw new Error(`duplicate state migration id ${m.id}`);
    ids.add(m.id);
  }
  return all.sort((a, b) => a.id.localeCompare(b.id));
}

export const MIGRATIONS_TABLE = 'CREATE TABLE IF NOT EXISTS schema_migrations (id VARCHAR PRIMARY KEY, applied_at TIMESTAMP NOT NULL)';
