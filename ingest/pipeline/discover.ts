import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface DiscoveryError {
  file: string;
  message: string;
}

/** Module files that failed to load; the registry test asserts this stays empty. */
export const discoveryErrors: DiscoveryError[] = [];

/**
 * Imports `<root>/<folder>/<file>` for every folder (sorted) and returns their default exports. A module that
 * fails to load is reported on stderr and in `discoveryErrors` rather than taking every other dataset down
 * with it; the test suite fails on any such error.
 */
export async function discoverModules<T>(root: string, file: string, skip: string[] = ['core']): Promise<{ dir: string; value: T }[]> {
  const found: ModuleLoader<T>[] = [];
  for (const dir of readdirSync(root).sort()) {
    if (skip.includes(dir)) continue;
    const path = join(root, dir, file);
    if (existsSync(path)) found.push({ dir, file: path, load: () => import(pathToFileURL(path).href) });
  }
  return loadModules(found);
}

/** A module to load: its folder, its file (for the report) and how to import it. */
export interface ModuleLoader<T> {
  dir: string;
  file: string;
  load: () => Promise<{ default?: T }>;
}

/**
 * Loads each module in turn and returns the default exports of those that loaded: a module that throws while it
 * loads is reported and skipped, as discovery does. Shared by discovery and the bundled CLI, whose build lists the
 * folders and hands over one loader each (ingest/cli-bundle.cjs).
 */
export async function loadModules<T>(modules: ModuleLoader<T>[]): Promise<{ dir: string; value: T }[]> {
  const out: { dir: string; value: T }[] = [];
  for (const { dir, file, load } of modules) {
    try {
      const mod = await load();
      if (mod.default !== undefined) out.push({ dir, value: mod.default });
    } catch (err) {
      const message = (err as Error).message;
      if (!discoveryErrors.some((e) => e.file === file)) discoveryErrors.push({ file, message });
      if (process.env.LOG_LEVEL !== 'silent') process.stderr.write(`[discover] skipped ${file}: ${message}\n`);
    }
  }
  return out;
}
