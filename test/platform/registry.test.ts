import { describe, expect, it } from 'vitest';
import { loadEndpoints } from '../../api/core/app.ts';
import { discoveryErrors } from '../../ingest/pipeline/discover.ts';
import { loadIngesters } from '../../ingest/pipeline/registry.ts';
import { ALL_TABLES } from '../../schemas/tables/index.ts';
import { startWorkers } from '../../api/core/workers.ts';

/** Every discovered module loads, and the declarative pieces agree with each other. */
describe('dataset and route registry', () => {
  it('loads every dataset, route, diff handler and worker module without error', async () => {
    await loadIngesters();
    await loadEndpoints();
    await startWorkers({} as never, { only: [] }).then((w) => w.stop());
    expect(discoveryErrors).toEqual([]);
  });

  it('table names are unique and every ingester writes a demo sample', async () => {
    const tables = ALL_TABLES;
    expect(new Set(tables.map((t) => t.name)).size).toBe(tables.length);
    const written = new Set(['events']);
    for (const d of await loadIngesters()) {
      for (const t of d.tables) {
        expect(tables, `${d.name} writes ${t.name}, listed in schemas/tables/index.ts`).toContain(t);
        written.add(t.name);
      }
      expect(typeof d.sample, `${d.name} has a sample writer for make demo`).toBe('function');
      expect(d.sourceUrls.length, `${d.name} documents its source`).toBeGreaterThan(0);
    }
    for (const t of tables) expect(written.has(t.name), `${t.name} is written by some ingester`).toBe(true);
  });

  it('every list endpoint reads a table some ingester writes (or the events table)', async () => {
    const names = new Set(ALL_TABLES.map((t) => t.name));
    for (const ep of await loadEndpoints()) {
      if (ep.kind === 'list' || ep.kind === 'lookup') expect(names.has(ep.table.name), `${ep.path} → ${ep.table.name}`).toBe(true);
    }
  });
});
