import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkRoutes } from '../../api/core/app.ts';
import { defineRoute, type Endpoint } from '../../api/core/endpoint.ts';
import { buildOpenApi, operationIdOf } from '../../api/core/openapi.ts';
import { p } from '../../api/core/params.ts';
import { ROUTES } from '../../api/routes.ts';
import * as records from '../../schemas/records/index.ts';
import serviceRoutes from '../../api/service/routes.ts';
import { createTestApp } from '../support/harness.ts';

/**
 * The published document is what client generators and "Try it out" read: it must be valid OpenAPI 3.1, with
 * templated paths whose names are the declared path parameters, and a stable, unique name for every operation.
 */
describe('the OpenAPI document', () => {
  const doc = buildOpenApi([...ROUTES], { version: '0.1.0' }) as unknown as {
    paths: Record<
      string,
      Record<
        string,
        {
          operationId?: string;
          parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: { pattern?: string; example?: unknown } }[];
          responses: Record<string, unknown>;
        }
      >
    >;
  };
  const operations = Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op })));

  it('validates against the OpenAPI 3.1 schema (a maintained validator), with no error', async () => {
    const result = await new Validator().validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('every path is templated with {name}, each name a declared path parameter and each path parameter in the template', () => {
    // One operation per route, and one bulk export (`<list>/export`) per list.
    expect(operations.length).toBe(ROUTES.length + ROUTES.filter((e) => e.kind === 'list').length);
    for (const { path, op } of operations) {
      expect(path, path).not.toContain(':');
      const templated = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      const declared = (op.parameters ?? [])
        .filter((x) => x.in === 'path')
        .map((x) => x.name)
        .sort();
      expect(declared, path).toEqual(templated);
    }
  });

  it('every operation has a unique, stable operationId', () => {
    const ids = operations.map(({ op }) => op.operationId);
    expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z0-9]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(doc.paths['/v1/advisers/{crd}'].get.operationId).toBe('getAdvisersByCrd');
    expect(operationIdOf('post', '/v1/webhooks/endpoints/{endpoint_id}/rotate-secret')).toBe('postWebhooksEndpointsByEndpointIdRotateSecret');
  });

  it('patterns are regular expressions, not words; /healthz documents its 503', () => {
    for (const { path, op } of operations) {
      for (const prm of op.parameters ?? []) if (prm.schema?.pattern) expect(() => new RegExp(prm.schema!.pattern!), `${path} ${prm.name}`).not.toThrow();
    }
    const eventId = doc.paths['/v1/events/{event_id}'].get.parameters!.find((x) => x.name === 'event_id')!;
    expect(new RegExp(eventId.schema!.pattern!).test('0b3f6a34-6f0e-4a7e-9a43-3c1f1f0f9c2e')).toBe(true);
    expect(Object.keys(doc.paths['/healthz'].get.responses)).toContain('503');
  });

  it('optional parameters carry no example (the docs page would pre-fill and send them), only a description', () => {
    for (const { path, op } of operations) {
      for (const prm of op.parameters ?? []) {
        if (!prm.required) expect(prm.schema?.example, `${path} ${prm.name}`).toBeUndefined();
      }
    }
    const state = doc.paths['/v1/advisers'].get.parameters!.find((x) => x.name === 'state')!;
    expect(state.description).toMatch(/Example: `NY`/);
  });

  it('servers comes from the settings: PUBLIC_URL, else the listen address', async () => {
    const app = await createTestApp({ routes: serviceRoutes, env: { PUBLIC_URL: 'https://filings.example.test/' } });
    try {
      expect((await app.get('/openapi.json', null)).body.servers).toEqual([{ url: 'https://filings.example.test' }]);
    } finally {
      await app.close();
    }
    const local = await createTestApp({ routes: serviceRoutes, env: { HOST: '0.0.0.0', PORT: '9090' } });
    try {
      expect((await local.get('/openapi.json', null)).body.servers).toEqual([{ url: 'http://localhost:9090' }]);
    } finally {
      await local.close();
    }
  });

  it('the app refuses an Express-style path, or a template that disagrees with the declared parameters', () => {
    const route = (path: string, pathParams: Record<string, ReturnType<typeof p.str>>): Endpoint =>
      defineRoute({
        method: 'get',
        path,
        summary: 's',
        tag: 'T',
        source: 'svc',
        pathParams,
        record: z.object({}),
        handler: async () => ({ data: [], source: 'svc' }),
      });
    expect(() => checkRoutes([route('/v1/x/:id', { id: p.str({ required: true }) })])).toThrow(/write path parameters as \{name\}/);
    expect(() => checkRoutes([route('/v1/x/{id}', { key: p.str({ required: true }) })])).toThrow(/differ from the template/);
    expect(() => checkRoutes([route('/v1/x/{id}', { id: p.str({ required: true }) })])).not.toThrow();
  });

  it('names every record schema and the shared shapes as components, and operations refer to them', () => {
    const components = (doc as unknown as { components: { schemas: Record<string, unknown> } }).components.schemas;
    const zodExports = Object.entries(records).filter(([, v]) => v instanceof z.ZodType);
    for (const [name] of zodExports) expect(components, name).toHaveProperty(name.charAt(0).toUpperCase() + name.slice(1));
    for (const shared of ['Envelope', 'MonitoringEnvelope', 'Page', 'Warning', 'ErrorBody', 'ValidationErrorBody']) expect(components).toHaveProperty(shared);
    // Every route's records are named: their success body refers to a component (an export answers a file).
    for (const { path, op } of operations.filter((o) => !o.path.endsWith('/export')))
      expect(JSON.stringify(op.responses[Object.keys(op.responses)[0]]), path).toMatch(/"\$ref":"#\/components\/schemas\/\w+Record|"items":\{"\$ref"/);
    const ok = JSON.stringify(doc.paths['/v1/advisers'].get.responses['200']);
    expect(ok).toContain('#/components/schemas/Envelope');
    expect(ok).toContain('#/components/schemas/AdviserListRecord');
    expect(JSON.stringify(doc.paths['/v1/monitors'].get.responses['200'])).toContain('#/components/schemas/MonitoringEnvelope');
    expect(JSON.stringify(doc.paths['/v1/advisers'].get.responses['422'])).toContain('#/components/schemas/ValidationErrorBody');
    expect(JSON.stringify(doc.paths['/v1/advisers'].get.responses['401'])).toContain('#/components/schemas/ErrorBody');
    expect(JSON.stringify(doc.paths['/healthz'].get.responses['503'])).toContain('#/components/schemas/HealthRecord');
  });

  it('each operation declares exactly the statuses its definition implies', () => {
    const statuses = (path: string, method = 'get') => Object.keys(doc.paths[path][method].responses).map(Number);
    // Public: no key, no credits, no rate limit.
    expect(statuses('/v1/sources')).toEqual([200, 422]);
    expect(statuses('/healthz')).toEqual([200, 422, 503]);
    // A list (a name filter resolving to keys answers an empty page, never 404); a lookup.
    expect(statuses('/v1/advisers')).toEqual([200, 401, 402, 422, 429]);
    expect(statuses('/v1/holdings')).toEqual([200, 401, 402, 422, 429]);
    expect(statuses('/v1/advisers/{crd}')).toEqual([200, 401, 402, 404, 422, 429]);
    // Free calls cannot exhaust credits.
    expect(statuses('/v1/account')).toEqual([200, 401, 422, 429]);
    expect(statuses('/v1/monitors/{monitor_id}', 'delete')).toEqual([200, 401, 404, 422, 429]);
    // Bodies (400, 413 too large, 415 when not JSON), conflicts (409: the monitor cap), live reads (502, 503 not_configured, 504).
    expect(statuses('/v1/monitors', 'post')).toEqual([201, 400, 401, 402, 409, 413, 415, 422, 429]);
    expect(statuses('/v1/webhooks/deliveries/{delivery_id}/retry', 'post')).toEqual([202, 400, 401, 402, 404, 409, 422, 429]);
    expect(statuses('/v1/full-text')).toEqual([200, 401, 402, 422, 429, 502, 503, 504]);
    expect(statuses('/v1/filings/{accession}/documents')).toEqual([200, 401, 402, 404, 422, 429, 502, 503, 504]);
    // An export refuses as its list does; its success is the file.
    expect(statuses('/v1/holdings/export')).toEqual([200, 401, 402, 422, 429]);
  });
});
