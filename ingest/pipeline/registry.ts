import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { discoverModules } from './discover.ts';
import type { DatasetIngester } from './contract.ts';

const datasetsRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../datasets');

let cache: Promise<DatasetIngester[]> | null = null;

/**
 * Every dataset is a folder `ingest/datasets/<name>/` with a `dataset.ts`: discovered here, so adding a dataset
 * never touches a shared registry file.
 */
export function loadIngesters(): Promise<DatasetIngester[]> {
  cache ??= (async () => {
    const out: DatasetIngester[] = [];
    for (const { value } of await discoverModules<DatasetIngester | DatasetIngester[]>(datasetsRoot, 'dataset.ts')) {
      out.push(...(Array.isArray(value) ? value : [value]));
    }
    const names = new Set<string>();
    for (const d of out) {
      if (names.has(d.name)) throw new Error(`two ingesters are named ${d.name}`);
      names.add(d.name);
    }
    return out;
  })();
  return cache;
}

export async function findIngester(name: string): Promise<DatasetIngester | undefined> {
  return (await loadIngesters()).find((d) => d.name === name);
}

