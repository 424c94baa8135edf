import { startUpstream, type Upstream } from '../filing-parsers/upstream-server.ts';
import { buildDemoLake } from './demo-lake.ts';
import { hasFixtures } from './fixtures.ts';
import { createTestApp, type TestApp } from './harness.ts';

/**
 * What the suites generated from `/openapi.json` share (test/contract/generated.test.ts, test/contract/fuzz.test.ts):
 * the app over the demo lake and the loopback stand-in of the regulator, the operations the document lists, and the
 * values the document cannot give (path values that name real records, valid bodies, the account resources the
 * monitor and webhook operations act on).
 */

export interface Parameter {
  name: string;
  in: 'query' | 'path';
  required?: boolean;
  schema: { type?: string; enum?: string[]; pattern?: string; format?: string; minimum?: number; maximum?: number; example?: unknown };
}
export interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> };
  security?: unknown[];
  responses: Record<string, { content?: Record<string, unknown> }>;
}
export interface OpenApiDoc {
  paths: Record<string, Record<string, Operation>>;
}
export interface Answer {
  status: number;
  body: any;
}

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

export interface ContractApp {
  app: TestApp;
  /** The stand-in of the regulator's services; null without the recorded fixtures (live reads then answer 502). */
  up: Upstream | null;
  doc: OpenApiDoc;
  /** The account resources created for the monitor and webhook operations (`endpoint_id`, `monitor_id`, `delivery_id`). */
  ids: Record<string, string>;
  call(method: string, url: string, init?: { key?: string | null; body?: unknown }): Promise<Answer>;
  /** A valid body of an operation that takes one. */
  body(opId: string): unknown;
  /** The query values a well-formed call of the operation sends. */
  goodQuery(opId: string, op: Operation): Record<string, string>;
  /** A path parameter's value: a created resource, a fixed value, the first record of the parent list, or the example. */
  pathValue(opId: string, path: string, prm: Parameter): Promise<string>;
  close(): Promise<void>;
}

/**
 * The app over the demo lake (one per test file), the stand-in started when the fixtures are present, the document
 * read from `/openapi.json`, and an endpoint, two monitors and a delivery created. `env` adds settings.
 */
export async function startContractApp(env: Record<string, string> = {}): Promise<ContractApp> {
  // Without the fixtures the live routes point at a closed loopback port: their calls answer 502, still declared.
  const up = hasFixtures ? await startUpstream() : null;
  const upstream = up?.url ?? 'http://127.0.0.1:9';
  const app = await createTestApp({
    env: {
      RATE_LIMIT_RPS: '100000',
      WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
      SEC_BASE_URL: upstream,
      SEC_EFTS_BASE_URL: upstream,
      HTTP_TIMEOUT_MS: '2000',
      HTTP_RETRIES: '0',
      ...env,
    },
  });
  await buildDemoLake(app.settings);
  // The app opened on an empty lake: its views take the demo lake in now rather than at the next catalog check.
  await app.services.lake.refresh();
  const doc = (await app.get('/openapi.json', null)).body as OpenApiDoc;
  const ids: Record<string, string> = {};

  const call: ContractApp['call'] = async (method, url, init = {}) => {
    const r = await app.request(url, { method: method.toUpperCase(), key: init.key, body: init.body });
    return { status: r.status, body: r.body };
  };
  const bodies: Record<string, () => unknown> = {
    postMonitors: () => ({ name: 'contract', target_type: 'ticker', target_value: 'AAPL', webhook_endpoint_id: ids.endpoint_id }),
    patchMonitorsByMonitorId: () => ({ status: 'paused' }),
    // Loopback: the delivery worker is idle in tests, and nothing here may leave the machine.
    postWebhooksEndpoints: () => ({ url: 'https://127.0.0.1:9/hook', description: 'contract suite' }),
  };

  // The account resources the monitor and webhook operations act on; two monitors, so their list pages.
  ids.endpoint_id = (await call('post', '/v1/webhooks/endpoints', { body: bodies.postWebhooksEndpoints() })).body.data[0].id;
  ids.monitor_id = (await call('post', '/v1/monitors', { body: bodies.postMonitors() })).body.data[0].id;
  await call('post', '/v1/monitors', { body: { name: 'second', target_type: 'form', target_value: '8-K' } });
  ids.delivery_id = (await call('post', `/v1/webhooks/endpoints/${ids.endpoint_id}/test`)).body.data[0].id;

  return {
    app,
    up,
    doc,
    ids,
    call,
    body: (opId) => bodies[opId]?.(),
    goodQuery(opId, op) {
      const good: Record<string, string> = { ...CALLS[opId]?.query };
      for (const prm of (op.parameters ?? []).filter((x) => x.in === 'query' && x.required && good[x.name] === undefined)) {
        good[prm.name] = String(prm.schema.example ?? prm.schema.enum?.[0] ?? 'x');
      }
      return good;
    },
    async pathValue(opId, path, prm) {
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
      throw new Error(`${path}: no value for {${prm.name}}: add one to PATH_VALUES in test/support/contract-app.ts`);
    },
    async close() {
      await app.close();
      await up?.close();
    },
  };
}

/** Every operation the document lists, deletions last (the other operations use the monitor and endpoint they delete). */
export function operationsOf(doc: OpenApiDoc): { method: string; path: string; op: Operation }[] {
  return Object.entries(doc.paths)
    .flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ method, path, op })))
    .sort((a, b) => Number(a.method === 'delete') - Number(b.method === 'delete'));
}

/** The path template with its parameters filled in, each value percent-encoded. */
export const fill = (path: string, values: Record<string, string>) => path.replace(/\{(\w+)\}/g, (_, n) => encodeURIComponent(values[n] ?? ''));

export function query(values: Record<string, string>): string {
  const q = new URLSearchParams(values).toString();
  return q ? `?${q}` : '';
}
