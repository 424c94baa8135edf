import { readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiProcess, startApiProcess } from '../support/processes.ts';
import { openLake } from '../../api/core/lake.ts';
import { openTopIndexFiles } from '../../ingest/lake/top-index-files.ts';
import { findIngester } from '../../ingest/pipeline/registry.ts';
import { runIngest } from '../../ingest/pipeline/runner.ts';
import { loadSettings } from '../../schemas/settings.ts';

/**
 * The API processes of a host serving one lake share its top indexes (ingest/lake/top-index.ts, LAKE_TOP_INDEX_DIR):
 * a real server in its own process builds them; a second reader in this process attaches its files and builds none,
 * keeps reading them after that server is killed; the last living user keeps them for the next start, and they go
 * once the lake does.
 */
let dataDir = '';
let indexDir = '';
let server: ApiProcess | null = null;

/** The folder's index files and the pids marking their use. */
function folder(): { indexes: string[]; users: Set<number> } {
  const names = readdirSync(indexDir);
  return {
    indexes: names.filter((n) => n.endsWith('.duckdb')),
    users: new Set(names.filter((n) => n.endsWith('.use')).map((n) => Number(n.split('.').at(-2)!.split('-')[0]))),
  };
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'filings-top-shared-'));
  indexDir = join(dataDir, 'top-indexes');
  const settings = loadSettings({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  const dataset = await findIngester('13f');
  if (!dataset?.sample) throw new Error('13f has no sample');
  await dataset.sample(join(dataDir, 'samples'), { seed: 1, scale: 0.05 });
  await runIngest(dataset, { from: join(dataDir, 'samples') }, settings, { quiet: true, skipDiff: true });
  server = await startApiProcess({ DATA_DIR: dataDir, LAKE_TOP_INDEX_DIR: indexDir, LOG_LEVEL: 'info' });
}, 300_000);

afterAll(async () => {
  await server?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('top indexes shared by the API processes of a host', () => {
  it('a second process attaches the indexes the first built, keeps them when the first dies; kept for a restart, they go with the lake', async () => {
    // The server builds the indexes of holdings_13f and holdings_13f_by_manager off the request path, after it
    // listens, and logs each build.
    const logged = () => [...server!.stderr().matchAll(/top index ([0-9a-f]+) built/g)].map((m) => `filings-top-${m[1]}.duckdb`);
    while (logged().length < 2) await new Promise((r) => setTimeout(r, 100));
    const built = folder().indexes.sort();
    expect(logged().sort()).toEqual(built);
    const builds: string[] = [];
    const lake = await openLake(join(dataDir, 'lake'), { refreshMs: 0, topIndexDir: indexDir, hooks: { onTopIndexBuild: (id) => builds.push(id) } });
    try {
      await lake.preloaded();
      expect(builds).toEqual([]);
      expect(folder().indexes.sort()).toEqual(built);
      const periods = await lake.partitions('holdings_13f');
      const select = lake.topRelation('holdings_13f', periods);
      expect(select).not.toBeNull();
      const attached = await lake.query("SELECT path FROM duckdb_databases() WHERE database_name LIKE 'top_%'", [], { cache: false });
      expect(attached.map((r) => String(r.path).split('/').at(-1)).sort()).toEqual(built);
      expect(folder().users).toEqual(new Set([process.pid, server!.pid]));
      // The builder dies without letting go: the files stay for the living reader, which still reads them.
      await server!.kill();
      server = null;
      const count = async () => Number((await lake.query(`SELECT count(*) AS n FROM ${select!.sql}`, [], { cache: false }))[0].n);
      expect(await count()).toBeGreaterThan(0);
      expect(folder().indexes.sort()).toEqual(built);
    } finally {
      await lake.close();
    }
    // The last living user closed: the indexes are kept for the next start, which attaches them and builds none.
    expect(folder().indexes.sort()).toEqual(built);
    const restarted = await openLake(join(dataDir, 'lake'), { refreshMs: 0, topIndexDir: indexDir, hooks: { onTopIndexBuild: (id) => builds.push(id) } });
    try {
      await restarted.preloaded();
      expect(restarted.topRelation('holdings_13f', await restarted.partitions('holdings_13f'))).not.toBeNull();
      expect(builds).toEqual([]);
    } finally {
      await restarted.close();
    }
    // The lake removed: the next reader's opening removes its indexes, and the dead server's marks.
    await rm(join(dataDir, 'lake'), { recursive: true });
    openTopIndexFiles(indexDir);
    expect(readdirSync(indexDir)).toEqual([]);
  }, 120_000);
});
