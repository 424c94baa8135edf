import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ROUTES } from '../../api/routes.ts';
import type { ListEndpoint, LookupEndpoint } from '../../api/core/endpoint.ts';
import { buildDemoLake } from '../support/demo-lake.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';

/**
 * Behaviour preservation: over the demo lake (seed 42, scale 1) with a fixed clock, every `list` endpoint's first
 * page (`?limit=5`) and every `lookup` answers with exactly the body text and status recorded in `responses.json`.
 * `UPDATE_GOLDEN=1 npx vitest run test/golden` rewrites the file instead of comparing.
 *
 * Determinism:
 * - Clock. The API's clock is injected (`now`). The ingest pipeline has no clock parameter and reads the wall clock
 *   (catalog `last_refresh` → every list's `as_of`; events `detected_at` and `evidence[].retrieved_at`; entities
 *   `updated_date`), so `Date`
 *   is frozen at NOW while the demo lake is built, and restored before any request (the lake reader throttles
 *   its refresh on `Date.now()`).
 * - Event ids: the one masked value. `ingest/events/writer.ts` draws them with DuckDB's `gen_random_uuid()`, which
 *   nothing outside that file can seed. The ids of the `/v1/events` golden page are replaced, wherever they occur
 *   (bodies and the events lookup path), by `<event-id-N>` in page order, so the golden still checks that the lookup
 *   serves the page's first event and that nothing else changed. Every other byte is compared as is.
 */

const here = dirname(fileURLToPath(import.meta.url));
const GOLDEN_FILE = join(here, 'responses.json');
const UPDATE = process.env.UPDATE_GOLDEN === '1';
const NOW = new Date('2025-01-15T12:00:00Z');
const LIST_QUERY = '?limit=5';

interface Golden {
  status: number;
  body: string;
}

/**
 * Where a lookup's path parameter comes from when it is not the same-named field of a list over the same table:
 * `{ list, field }` takes `field` of the first record of that list's golden page.
 */
const LOOKUP_SOURCES: Record<string, Record<string, { list: string; field: string }>> = {
  '/v1/events/{event_id}': { event_id: { list: '/v1/events', field: 'id' } },
};

/** Values drawn at random by the product (see above): `field` of every record of the `list` golden page. */
const RANDOM_IDS: { list: string; field: string; label: string }[] = [{ list: '/v1/events', field: 'id', label: 'event-id' }];

const endpoints = ROUTES;
const lists = endpoints.filter((e): e is ListEndpoint => e.kind === 'list').sort((a, b) => a.path.localeCompare(b.path));
const lookups = endpoints.filter((e): e is LookupEndpoint => e.kind === 'lookup').sort((a, b) => a.path.localeCompare(b.path));

const paramNames = (path: string) => [...path.matchAll(/\{(\w+)\}|:(\w+)/g)].map((m) => m[1] ?? m[2]);
const fill = (path: string, values: Record<string, string>) => path.replace(/\{(\w+)\}|:(\w+)/g, (_, a, b) => encodeURIComponent(values[a ?? b]));

function sortedKeys<T>(o: Record<string, T>): Record<string, T> {
  return Object.fromEntries(
    Object.keys(o)
      .sort()
      .map((k) => [k, o[k]]),
  );
}

let app: TestApp;
/** Endpoint path → the request path used for it (lookups: with the chosen values). */
const requestPaths = new Map<string, string>();
/** Request path → what the app answered in this run (raw). */
const raw: Record<string, Golden> = {};
/** The same, random ids replaced by their placeholders: what is compared and recorded. */
const actual: Record<string, Golden> = {};
/** Random id → placeholder. */
const placeholders = new Map<string, string>();

function canonical(text: string): string {
  for (const [id, ph] of placeholders) text = text.split(id).join(ph);
  return text;
}
/** The checked-in file (after rewriting it under UPDATE_GOLDEN=1). */
let golden: Record<string, Golden> = {};

async function getText(path: string): Promise<Golden> {
  const res = await fetch(`${app.baseUrl}${path}`, { headers: { Authorization: `Bearer ${app.key}` } });
  return { status: res.status, body: await res.text() };
}

/** A path parameter's value: explicit source, else the same-named field of a list over the same table, else the declared example. */
function lookupValue(ep: LookupEndpoint, name: string): string {
  const src = LOOKUP_SOURCES[ep.path]?.[name];
  const list = src ? lists.find((l) => l.path === src.list) : lists.find((l) => l.table.name === ep.table.name);
  const field = src?.field ?? name;
  if (list) {
    const page = raw[`${list.path}${LIST_QUERY}`];
    const first = page?.status === 200 ? JSON.parse(page.body).data?.[0] : undefined;
    const v = first?.[field];
    if (v !== undefined && v !== null && v !== '') return String(v);
    if (src) throw new Error(`${ep.path}: the first record of ${list.path} has no '${field}' for {${name}} (page status ${page?.status})`);
  }
  const example = ep.pathParams[name]?.openapi.example;
  if (example !== undefined) return String(example);
  throw new Error(`${ep.path}: no value for path parameter {${name}}: add it to LOOKUP_SOURCES in ${GOLDEN_FILE.replace(/\.json$/, '.test.ts')}`);
}

beforeAll(async () => {
  app = await createTestApp({ now: () => new Date(NOW), env: { RATE_LIMIT_RPS: '100000' } });
  vi.useFakeTimers({ toFake: ['Date'], now: NOW });
  try {
    await buildDemoLake(app.settings);
    // The app opened on an empty lake: its views take the demo lake in now rather than at the next catalog check.
    await app.services.lake.refresh();
  } finally {
    vi.useRealTimers();
  }

  // Sequential requests: lists first (lookups take their values from the list pages).
  for (const ep of lists) {
    const path = `${ep.path}${LIST_QUERY}`;
    requestPaths.set(ep.path, path);
    raw[path] = await getText(path);
  }
  for (const r of RANDOM_IDS) {
    const page = raw[`${r.list}${LIST_QUERY}`];
    const records: Record<string, unknown>[] = page?.status === 200 ? JSON.parse(page.body).data : [];
    if (!records.length) throw new Error(`${r.list}: no records to take random '${r.field}' values from (status ${page?.status})`);
    for (const [i, rec] of records.entries()) placeholders.set(String(rec[r.field]), `<${r.label}-${i + 1}>`);
  }
  for (const ep of lookups) {
    const values = Object.fromEntries(paramNames(ep.path).map((n) => [n, lookupValue(ep, n)]));
    const path = fill(ep.path, values);
    requestPaths.set(ep.path, canonical(path));
    raw[path] = await getText(path);
  }
  for (const [path, r] of Object.entries(raw)) actual[canonical(path)] = { status: r.status, body: canonical(r.body) };

  if (UPDATE) {
    // A golden file recording failures would preserve them: refuse to write one.
    const bad = Object.entries(actual).filter(([, r]) => r.status !== 200);
    if (bad.length) throw new Error(`not writing ${GOLDEN_FILE}: non-200 answers:\n${bad.map(([p, r]) => `  ${p} → ${r.status} ${r.body}`).join('\n')}`);
    writeFileSync(GOLDEN_FILE, `${JSON.stringify(sortedKeys(actual), null, 2)}\n`);
  }
  if (!existsSync(GOLDEN_FILE)) throw new Error(`${GOLDEN_FILE} is missing: record it with UPDATE_GOLDEN=1 npx vitest run test/golden`);
  golden = JSON.parse(readFileSync(GOLDEN_FILE, 'utf8'));
}, 600_000);

afterAll(async () => {
  await app?.close();
});

describe('golden responses (demo lake, fixed clock)', () => {
  it('has list and lookup endpoints to check', () => {
    expect(lists.length).toBeGreaterThan(0);
    expect(lookups.length).toBeGreaterThan(0);
  });

  it('records exactly one golden entry per list/lookup endpoint (none missing, none stale)', () => {
    const expected = [...requestPaths.values()].sort();
    const missing = expected.filter((p) => !(p in golden));
    const stale = Object.keys(golden).filter((p) => !expected.includes(p));
    expect(missing, `endpoints without a golden entry (new endpoint, or a lookup value changed): rerun with UPDATE_GOLDEN=1`).toEqual([]);
    expect(stale, 'golden entries no endpoint produces any more').toEqual([]);
    expect(requestPaths.size).toBe(lists.length + lookups.length);
  });

  it('keeps the golden file sorted by request path', () => {
    const keys = Object.keys(golden);
    expect(keys).toEqual([...keys].sort());
  });

  for (const ep of [...lists, ...lookups]) {
    it(`${ep.kind} ${ep.path}`, () => {
      const path = requestPaths.get(ep.path)!;
      const got = actual[path];
      // A lookup must hit a record: a 404 golden would prove nothing.
      expect(got.status, `${path} → ${got.status} ${got.body}`).toBe(200);
      if (ep.kind === 'list') expect(JSON.parse(got.body).data.length, `${path} returned no records`).toBeGreaterThan(0);
      const want = golden[path];
      expect(want, `no golden entry for ${path}`).toBeDefined();
      expect(got.status).toBe(want.status);
      // Compare as text (byte for byte), not as parsed JSON: key order and number formatting count.
      expect(got.body).toBe(want.body);
    });
  }
});
