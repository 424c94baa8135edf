import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { discoverModules, loadModules, type ModuleLoader } from '../../ingest/pipeline/index.ts';
import coreMigrations, { type Migration } from './migrations.ts';

let provided: ModuleLoader<Migration[]>[] | null = null;

/**
 * The bundled server (dist/api.cjs, ingest/cli-bundle.cjs) hands over the areas' migration modules here, as the
 * bundled ingest CLI hands the registry its datasets (ingest/pipeline/registry.ts): a CommonJS bundle has no
 * `import.meta.url` to find api/ by. `[area, loader]` pairs in folder order; without this call (tsx, the tests)
 * the folders are discovered at run time.
 * @public (called by the generated bundle entry only)
 */
export function provideMigrationModules(modules: [dir: string, load: () => Promise<{ default?: Migration[] }>][]): void {
  provided = modules.map(([dir, load]) => ({ dir, file: `api/${dir}/migrations.ts`, load }));
}

/** Every area's migrations (`api/<area>/migrations.ts`) with the core ones, in id order; one set for both engines. */
export async function discoverMigrations(): Promise<Migration[]> {
  const all: Migration[] = [...coreMigrations];
  // Resolved here, not at load: in the bundle `import.meta` is empty, and the modules were provided.
  const areas = provided
    ? await loadModules(provided)
    : await discoverModules<Migration[]>(resolve(dirname(fileURLToPath(import.meta.url)), '..'), 'migrations.ts');
  for (const { value } of areas) all.push(...value);
  const ids = new Set<string>();
  for (const m of all) {
    if (ids.has(m.id)) throw new Error(`duplicate state migration id ${m.id}`);
    ids.add(m.id);
  }
  return all.sort((a, b) => a.id.localeCompare(b.id));
}

export const MIGRATIONS_TABLE = 'CREATE TABLE IF NOT EXISTS schema_migrations (id VARCHAR PRIMARY KEY, applied_at TIMESTAMP NOT NULL)';
