import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationIdOf } from '../../api/core/openapi.ts';
import { ROUTES } from '../../api/routes.ts';
import { startUpstream, type Upstream } from '../filing-parsers/upstream-server.ts';
import { buildDemoLake } from '../support/demo-lake.ts';
import { hasFixtures } from '../support/fixtures.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';

/**
 * The contract suite generated from the served `/openapi.json`, over the demo lake (one per file) and the loopback
 * stand-in of the regulator's services (test/filing-parsers/upstream-server.ts). Every operation the document lists
 * gets, without anyone writing a test for it:
 * - a well-formed call answering its success status;
 * - 401 without a key unless the operation declares no security;
 * - 422 naming the parameter for an unknown parameter and for a bad value of each declared parameter, the bad value
 *   derived from the parameter's schema (wrong type, out of enum, pattern mismatch, below minimum, above maximum:
 *   `limit` 0 and 101 among them);
 * - 422 on `cursor` for a tampered cursor and for a cursor issued by another endpoint (every paging variant);
 * - 404 for a path value of the right shape that names nothing (digits → 9, letters → f);
 * - 502 from the live reads while the stand-in is down;
 * - 400 for an invalid JSON body (operations with a request body);
 * - and EVERY answer's status declared by the operation and its body valid, under ajv (JSON Schema 2020-12, the
 *   dialect of OpenAPI 3.1), against the schema the document declares for that status and content type.
 *
 * What the document cannot tell: values that exist (path parameters are taken from the first record of the parent
 * list, else `PATH_VALUES`, else the parameter's example) and valid bodies (`BODIES`).
 */

interface Parameter {
  name: string;
  in: 'query' | 'path';
  required?: boolean;
  schema: { type?: string; enum?: string[]; pattern?: string; format?: string; minimum?: number; maximum?: number; example?: unknown };
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: unknown;
  security?: unknown[];
  responses: Record<string, { content?: Record<string, unknown> }>;
}
interface Answer {
  status: number;
  body: any;
}

const DOC_ID = 'openapi.json';
/** Archived filings the loopback stand-in serves: an 8-K (Items 5.02, 9.01), a Form 4, a 10-K with Exhibit 21. */
const FILINGS = {
  eightK: { accession: '0000072333-23-000015', cik: '72333' },
  form4: { accession: '0000320193-22-000061', cik: '1462356' },
  tenK: { accession: '0001564590-20-004475', cik: '1318605' },
};
/** Path values the parent list cannot give. */
const PATH_VALUES: Record<string, string> = { accession: FILINGS.eightK.accession };
/** The parent list's field that holds a path parameter of another name. */
const PARENT_FIELD: Record<string, string> = { identifier: 'cik' };
/** Per operation: path and query values a well-formed call sends (required parameters, values that select real data). */
const CALLS: Record<string, { path?: Record<string, string>; query?: Record<string, string> }> = {
  getFilingsByAccessionExtract: { query: { item: '5.02', cik: FILINGS.eightK.cik } },
  getFilingsByAccessionInsiders: { path: { accession: FILINGS.form4.accession }, query: { cik: FILINGS.form4.cik } },
  getFilingsByAccessionSubsidiaries: { path: { accession: FILINGS.tenK.accession }, query: { cik: FILINGS.tenK.cik } },
  getFullText: { query: { q: '"climate change"' } },
};
/** A CIK no earlier call sent (as `cik` or `ciks`), so a live read cannot be served from the raw cache while the upstream is down. */
const OUTAGE_CIK = '9999999';
/** Valid bodies (filled in with ids created in beforeAll). */
const BODIES: Record<string, () => unknown> = {
  postMonitors: () => ({ name: 'contract', target_type: 'ticker', target_value: 'AAPL', webhook_endpoint_id: ids.endpoint_id }),
  patchMonitorsByMonitorId: () => ({ status: 'paused' }),
  // Loopback: the delivery worker is idle in tests, and nothing here may leave the machine.
  postWebhooksEndpoints: () => ({ url: 'https://127.0.0.1:9/hook', description: 'contract suite' }),
};
/** A success call answered otherwise by design: the status it answers and why. */
const EXPECTED_STATUS: Record<string, { status: number; why: string }> = {
  postWebhooksDeliveriesByDeliveryIdRetry: { status: 409, why: 'the delivery made by the test call is pending, which cannot be redelivered' },
};

const ops = ROUTES.map((ep) => ({ method: ep.kind === 'custom' ? ep.method : 'get', path: ep.path }))
  // Deletions last: the other operations use the monitor and endpoint they delete.
  .sort((a, b) => Number(a.method === 'delete') - Number(b.method === 'delete'));

let app: TestApp;
let up: Upstream | null = null;
let doc: { paths: Record<string, Record<string, Operation>> };
const ajv = new Ajv2020({ strict: false, allErrors: true });
// ajv-formats is CommonJS: its `module.exports` is the plugin, which the types call `default`.
(formats as unknown as typeof formats.default)(ajv);
const validators = new Map<string, ValidateFunction>();
const ids: Record<string, string> = {};
/** A cursor issued by each paging variant's endpoint, to be refused by every other endpoint. */
const foreignCursors: { from: string; cursor: string }[] = [];

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
const fill = (path: string, values: Record<string, string>) => path.replace(/\{(\w+)\}/g, (_, n) => encodeURIComponent(values[n] ?? ''));

async function call(method: string, url: string, init: { key?: string | null; body?: unknown } = {}): Promise<Answer> {
  const r = await app.request(url, { method: method.toUpperCase(), key: init.key, body: init.body });
  return { status: r.status, body: r.body };
}

/** Problems with an answer: a status the operation does not declare, or a body its declared schema refuses. */
function conformance(path: string, method: string, op: Operation, url: string, a: Answer): string[] {
  const declared = op.responses[String(a.status)];
  if (!declared) return [`${method.toUpperCase()} ${url} → ${a.status}, not declared (declared: ${Object.keys(op.responses)}): ${JSON.stringify(a.body)}`];
  if (!declared.content?.['application/json']) return [];
  const key = `${path} ${method} ${a.status}`;
  const v =
    validators.get(key) ??
    ajv.compile({ $ref: `${DOC_ID}#/${pointer('paths', path, method, 'responses', String(a.status), 'content', 'application/json', 'schema')}` });
  validators.set(key, v);
  if (v(a.body)) return [];
  return [
    `${method.toUpperCase()} ${url} → ${a.status}: body does not match its schema: ${ajv.errorsText(v.errors)} — ${JSON.stringify(a.body).slice(0, 300)}`,
  ];
}

/** Bad values of a parameter, from its schema alone; a plain string has none. */
function badValues(s: Parameter['schema']): string[] {
  const out: string[] = [];
  if (s.enum) out.push('not-one-of-the-values');
  if (s.type === 'integer') out.push('1.5x');
  if (s.type === 'number') out.push('abc');
  if (s.type === 'integer' || s.type === 'number') {
    if (s.minimum !== undefined) out.push(String(s.minimum - 1));
    if (s.maximum !== undefined) out.push(String(s.maximum + 1));
  }
  if (s.type === 'boolean') out.push('maybe');
  if (s.format === 'date') out.push('2024-13-45');
  if (s.pattern) {
    const re = new RegExp(s.pattern);
    const miss = ['!!', 'x!x', '~'].find((c) => !re.test(c));
    if (miss) out.push(miss);
  }
  return out;
}

function names422(a: Answer, where: string, name: string): boolean {
  return a.status === 422 && Array.isArray(a.body?.detail) && a.body.detail.some((d: { loc: unknown[] }) => d.loc?.[0] === where && d.loc?.[1] === name);
}

/** A path parameter's value: a created resource, the first record of the parent list, a fixed value, or the example. */
async function pathValue(opId: string, path: string, prm: Parameter): Promise<string> {
  const fixed = CALLS[opId]?.path?.[prm.name] ?? ids[prm.name];
  if (fixed) return fixed;
  if (PATH_VALUES[prm.name]) return PATH_VALUES[prm.name];
  const parent = path.slice(0, path.indexOf(`/{${prm.name}}`));
  if (doc.paths[parent]?.get) {
    const first = (await call('get', `${parent}?limit=1`)).body?.data?.[0];
    const v = first?.[PARENT_FIELD[prm.name] ?? prm.name] ?? first?.id;
    if (v !== undefined && v !== null) return String(v);
  }
  if (prm.schema.example !== undefined) return String(prm.schema.example);
  throw new Error(`${path}: no value for {${prm.name}}: add one to PATH_VALUES in test/contract/generated.test.ts`);
}

/** Values of the same shape naming nothing: every digit replaced by `digit`, every letter by `f` (hex ids stay hex). */
function reshaped(values: Record<string, string>, digit: string): Record<string, string> {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v.replace(/\d/g, digit).replace(/[a-z]/gi, 'f')]));
}

function query(values: Record<string, string>): string {
  const q = new URLSearchParams(values).toString();
  return q ? `?${q}` : '';
}

beforeAll(async () => {
  // Without the fixtures the live routes point at a closed loopback port: their calls answer 502, still declared.
  if (hasFixtures) up = await startUpstream();
  const upstream = up?.url ?? 'http://127.0.0.1:9';
  app = await createTestApp({
    env: {
      RATE_LIMIT_RPS: '100000',
      WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
      SEC_BASE_URL: upstream,
      SEC_EFTS_BASE_URL: upstream,
      HTTP_TIMEOUT_MS: '2000',
      HTTP_RETRIES: '0',
    },
  });
  await buildDemoLake(app.settings);
  // The app opened on an empty lake: its views take the demo lake in now rather than at the next catalog check.
  await app.services.lake.refresh();
  doc = (await app.get('/openapi.json', null)).body;
  ajv.addSchema(doc as object, DOC_ID);

  // The account resources the monitor and webhook operations act on; two monitors, so their list pages.
  ids.endpoint_id = (await call('post', '/v1/webhooks/endpoints', { body: BODIES.postWebhooksEndpoints() })).body.data[0].id;
  ids.monitor_id = (await call('post', '/v1/monitors', { body: BODIES.postMonitors() })).body.data[0].id;
  await call('post', '/v1/monitors', { body: { name: 'second', target_type: 'form', target_value: '8-K' } });
  ids.delivery_id = (await call('post', `/v1/webhooks/endpoints/${ids.endpoint_id}/test`)).body.data[0].id;

  for (const url of ['/v1/advisers?limit=1', '/v1/monitors?limit=1', '/v1/full-text?q=%22climate%20change%22&limit=1']) {
    const cursor = (await call('get', url)).body?.page?.next_cursor;
    if (cursor) foreignCursors.push({ from: url.slice(0, url.indexOf('?')), cursor });
  }
}, 600_000);

afterAll(async () => {
  await app?.close();
  await up?.close();
});

describe('the contract, generated from /openapi.json', () => {
  it('serves the document of every route, and paging variants to cross-check cursors with', () => {
    const listed = Object.entries(doc.paths).flatMap(([p, item]) => Object.keys(item).map((m) => `${m} ${p}`));
    expect(listed.sort()).toEqual(ops.map((o) => `${o.method} ${o.path}`).sort());
    // The validator bites: a record list that is not a list, an error code outside the closed list.
    expect(conformance('/v1/advisers', 'get', doc.paths['/v1/advisers'].get, '/v1/advisers', { status: 200, body: { data: 'x' } })).toHaveLength(1);
    const wrongCode = { status: 401, body: { error: { code: 'nope', message: 'm' } } };
    expect(conformance('/v1/advisers', 'get', doc.paths['/v1/advisers'].get, '/v1/advisers', wrongCode)).toHaveLength(1);
    expect(foreignCursors.map((c) => c.from)).toEqual(hasFixtures ? ['/v1/advisers', '/v1/monitors', '/v1/full-text'] : ['/v1/advisers', '/v1/monitors']);
  });

  for (const { method, path } of ops) {
    const opId = operationIdOf(method, path);
    it(`${method.toUpperCase()} ${path} (${opId})`, async () => {
      const op = doc.paths[path][method];
      const problems: string[] = [];
      const check = (url: string, a: Answer) => problems.push(...conformance(path, method, op, url, a));
      const params = op.parameters ?? [];
      const pathValues: Record<string, string> = {};
      for (const prm of params.filter((x) => x.in === 'path')) pathValues[prm.name] = await pathValue(opId, path, prm);
      const good: Record<string, string> = { ...CALLS[opId]?.query };
      for (const prm of params.filter((x) => x.in === 'query' && x.required && good[x.name] === undefined)) good[prm.name] = String(prm.schema.example ?? 'x');
      const body = BODIES[opId]?.();
      const url = `${fill(path, pathValues)}${query(good)}`;

      // A well-formed call.
      const ok = await call(method, url, { body });
      check(url, ok);
      const success = Math.min(...Object.keys(op.responses).map(Number));
      const expected = EXPECTED_STATUS[opId]?.status ?? success;
      if (ok.status !== expected)
        problems.push(`${method.toUpperCase()} ${url} → ${ok.status}, expected ${expected}: ${JSON.stringify(ok.body).slice(0, 300)}`);

      // No key.
      const anonymous = await call(method, url, { key: null, body });
      check(url, anonymous);
      if (op.security?.length && anonymous.status !== 401) problems.push(`${url} without a key → ${anonymous.status}, expected 401`);

      // An unknown parameter, then a bad value of each declared one.
      const unknown = `${fill(path, pathValues)}${query({ ...good, not_a_parameter: '1' })}`;
      const u = await call(method, unknown, { body });
      check(unknown, u);
      if (!names422(u, 'query', 'not_a_parameter')) problems.push(`${unknown} → ${u.status}, expected 422 on not_a_parameter`);
      for (const prm of params) {
        for (const bad of badValues(prm.schema)) {
          const badUrl =
            prm.in === 'path'
              ? `${fill(path, { ...pathValues, [prm.name]: bad })}${query(good)}`
              : `${fill(path, pathValues)}${query({ ...good, [prm.name]: bad })}`;
          const a = await call(method, badUrl, { body });
          check(badUrl, a);
          if (!names422(a, prm.in, prm.name)) problems.push(`${badUrl} → ${a.status}, expected 422 naming ${prm.in} ${prm.name}: ${JSON.stringify(a.body)}`);
        }
      }

      // A value of the right shape that names nothing: 404.
      const pathParams = params.filter((x) => x.in === 'path');
      if (op.responses['404'] && pathParams.length) {
        const absent = reshaped(pathValues, '9');
        const absentUrl = `${fill(path, absent)}${query(good)}`;
        const a = await call(method, absentUrl, { body });
        check(absentUrl, a);
        if (a.status !== 404) problems.push(`${method.toUpperCase()} ${absentUrl} → ${a.status}, expected 404`);
      }

      // The regulator's service down: 502.
      if (op.responses['502'] && up) {
        up.mode = 'down';
        try {
          const cikParam = params.find((x) => x.name === 'cik' || x.name === 'ciks')?.name;
          // Values no earlier call read (the raw cache would answer them): another path value, another CIK.
          const downUrl = `${fill(path, reshaped(pathValues, '8'))}${query({ ...good, ...(cikParam ? { [cikParam]: OUTAGE_CIK } : {}) })}`;
          const a = await call(method, downUrl, { body });
          check(downUrl, a);
          if (a.status !== 502) problems.push(`${method.toUpperCase()} ${downUrl} with the upstream down → ${a.status}, expected 502`);
        } finally {
          up.mode = 'ok';
        }
      }

      // Cursors: tampered, and issued by another endpoint.
      if (params.some((x) => x.name === 'cursor')) {
        const own = (await call(method, `${fill(path, pathValues)}${query({ ...good, limit: '1' })}`)).body?.page?.next_cursor as string | undefined;
        const tampered = own ? `${own.slice(0, -1)}${own.endsWith('A') ? 'B' : 'A'}` : 'eyJlIjoiL3YxIn0.AAAAAAAAAAAAAAAAAAAAAA';
        const foreign = foreignCursors.filter((c) => c.from !== path);
        for (const cursor of [tampered, ...foreign.map((c) => c.cursor)]) {
          const cUrl = `${fill(path, pathValues)}${query({ ...good, cursor })}`;
          const a = await call(method, cUrl, { body });
          check(cUrl, a);
          if (!names422(a, 'query', 'cursor')) problems.push(`${path} with cursor ${cursor.slice(0, 24)}… → ${a.status}, expected 422 on cursor`);
        }
      }

      // An invalid body.
      if (op.requestBody) {
        for (const bad of [{ not_a_member: 1 }, []]) {
          const a = await call(method, url, { body: bad });
          check(url, a);
          if (a.status !== 400) problems.push(`${method.toUpperCase()} ${url} with body ${JSON.stringify(bad)} → ${a.status}, expected 400`);
        }
      }

      expect(problems).toEqual([]);
    });
  }
});
