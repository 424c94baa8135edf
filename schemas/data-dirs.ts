import { resolve } from 'node:path';

/**
 * Where the data folder and its lake and raw cache live, from `DATA_DIR` alone. Apart from settings.ts (which
 * spreads it into every setting) so that `npm run sql`, which needs only these paths, starts without zod.
 */
export const DEFAULT_DATA_DIR = 'data';

export interface DataDirs {
  dataDir: string;
  lakeDir: string;
  rawDir: string;
}

export function dataDirs(dataDirSetting: string | undefined = DEFAULT_DATA_DIR): DataDirs {
  const dataDir = resolve(dataDirSetting || DEFAULT_DATA_DIR);
  return { dataDir, lakeDir: resolve(dataDir, 'lake'), rawDir: resolve(dataDir, 'raw') };
}
