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
  const out: { dir: string; value: T }[] = [];
  for (const dir of readdirSync(root).sort()) {
    if (skip.includes(dir)) continue;
    const path = join(root, dir, file);
    if (!existsSync(path)) continue;
    try {
      const mod = (await import(pathToFileURL(path).href)) as { default?: T };
      if (mod.default !== undefined) out.push({ dir, value: mod.default });
    } catch (err) {
      const message = (err as Error).message;
      if (!discoveryErrors.some((e) => e.file === path)) discoveryErrors.push({ file: path, message });
      if (process.env.LOG_LEVEL !== 'silent') process.stderr.write(`[discover] skipped ${path}: ${message}\n`);
    }
  }
  return out;
}
