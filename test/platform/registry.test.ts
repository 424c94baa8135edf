import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkRoutes } from '../../api/core/app.ts';
import type { Endpoint } from '../../api/core/endpoint.ts';
import { ROUTES } from '../../api/routes.ts';
import { discoveryErrors } from '../../ingest/pipeline/discover.ts';
import { loadIngesters } from '../../ingest/pipeline/registry.ts';
import { ALL_TABLES } from '../../schemas/tables/index.ts';

const apiRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../api');

/** Every `api/<area>/*.ts` that default-exports endpoints: an area's `routes.ts` list or one custom route's file. */
function routeModules(): string[] {
  const out: string[] = [];
  for (const area of readdirSync(apiRoot).sort()) {
    const dir = join(apiRoot, area);
    if (area === 'core' || !statSync(dir).isDirectory()) continue;
    for (const file of readdirSync(dir).sort()) {
      const path = join(dir, file);
      if (file === 'routes.ts' || (file.endsWith('.ts') && /^export default define(Route|List|Lookup)\(/m.test(readFileSync(path, 'utf8')))) out.push(path);
    }
  }
  return out;
}

/** Every module loads, and the declarative pieces agree with each other. */
describe('dataset and route registry', () => {
  it('loads every dataset module without error', async () => {
    await loadIngesters();
    expect(discoveryErrors).toEqual([]);
  });

  it('every route module loads and each of its endpoints is in the explicit list (api/routes.ts)', async () => {
    const listed = new Set<Endpoint>(ROUTES);
    const modules = routeModules();
    expect(modules.length).toBeGreaterThan(30);
    for (const path of modules) {
      const mod = (await import(pathToFileURL(path).href)) as { default: Endpoint | Endpoint[] };
      const eps = Array.isArray(mod.default) ? mod.default : [mod.default];
      expect(eps.length, relative(apiRoot, path)).toBeGreaterThan(0);
      for (const ep of eps) expect(listed.has(ep), `${ep.path} of api/${relative(apiRoot, path)} is listed in api/routes.ts`).toBe(true);
    }
  });

  it('no two endpoints share a method and path, and every list can be keyset-paged', () => {
    expect(() => checkRoutes(ROUTES)).not.toThrow();
    const keys = ROUTES.map((ep) => `${ep.kind === 'custom' ? ep.method : 'get'} ${ep.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    const twice = [ROUTES[0], { ...ROUTES[0] }] as Endpoint[];
    expect(() => checkRoutes(twice)).toThrow(/two endpoints define/);
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

  it('every list endpoint reads a table some ingester writes (or the events table)', () => {
    const names = new Set(ALL_TABLES.map((t) => t.name));
    for (const ep of ROUTES) {
      if (ep.kind === 'list' || ep.kind === 'lookup') expect(names.has(ep.table.name), `${ep.path} → ${ep.table.name}`).toBe(true);
    }
  });
});
