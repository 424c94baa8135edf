import { extendZodWithOpenApi, OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { costRange, type Endpoint, type ListEndpoint } from './endpoint.ts';
import { exportParams, exportPath, exportResponseContent } from './export.ts';
import { pagingParams, type ParamDefs } from './params.ts';
import { statusesOf } from './statuses.ts';
import { DEFAULT_COST, EXPORT_ROWS_PER_CREDIT } from '../../schemas/plans.ts';
import * as records from '../../schemas/records/index.ts';
import { isSourceLabel, SOURCE, SOURCES } from '../../schemas/sources.ts';

/**
 * OpenAPI 3.1, generated from the same definitions (zod records, param helpers) that validate requests. Every record
 * schema of schemas/records is a named component (its export name in PascalCase: `monitorRecord` → `MonitorRecord`),
 * as are the envelope, the page, the error body and the 422 body (schemas/records/envelope.ts); operations refer to
 * them with `$ref`. The statuses of each operation come from its definition (api/core/statuses.ts).
 */

// `registry.register` names a schema through the `.openapi()` method this adds (idempotent). Schemas built before
// this line lack the method, hence the `clone()` of each record below.
extendZodWithOpenApi(z);

const pascal = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

/** Each record schema registered under its name; the map leads from a route's schema to its registered copy. */
function registerRecords(registry: OpenAPIRegistry): Map<z.ZodType, z.ZodType> {
  const named = new Map<z.ZodType, z.ZodType>();
  const names = new Set<string>();
  // In export-name order: a module namespace lists its names sorted, but a transformed module (vitest) in the order
  // of the `export *` lines, and the generated client types must not depend on which ran.
  const entries = Object.entries(records).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [exportName, value] of entries) {
    if (!(value instanceof z.ZodType) || named.has(value)) continue;
    const name = pascal(exportName);
    if (names.has(name)) throw new Error(`two record schemas would be named ${name}`);
    names.add(name);
    named.set(value, registry.register(name, value.clone()));
  }
  return named;
}

/**
 * Parameters as OpenAPI lists them. An optional parameter's example moves into its description: the docs page
 * pre-fills every parameter that has an example, so "Execute" would send all the optional filters at once and
 * match nothing.
 */
function parameters(defs: ParamDefs, where: 'query' | 'path') {
  return Object.entries(defs).map(([name, d]) => {
    const required = where === 'path' ? true : d.required;
    const { example, ...schema } = d.openapi as { example?: unknown };
    const hint = !required && example !== undefined ? `Example: \`${String(example)}\`.` : '';
    return { name, in: where, required, description: [d.description, hint].filter(Boolean).join(' ') || undefined, schema: required ? d.openapi : schema };
  });
}

/** The envelope component with this operation's records in `data` and its source label. */
function envelopeOf(ep: Endpoint, record: z.ZodType, shared: (s: z.ZodType) => z.ZodType): z.ZodType {
  const source = isSourceLabel(ep.source) ? z.literal(ep.source).describe(SOURCES[ep.source]) : z.string();
  const base = shared(ep.source === SOURCE.svc_monitoring ? records.MonitoringEnvelope : records.Envelope) as typeof records.Envelope;
  return base.extend({ data: z.array(record), source });
}

function costOf(ep: Endpoint): string {
  const c = costRange(ep, DEFAULT_COST);
  return c.min === c.max ? `${c.min}` : `${c.min}–${c.max} (by result size)`;
}

/**
 * A stable operation name from the method and the path, so client generators name their functions the same on every
 * build: `GET /v1/advisers/{crd}` → `getAdvisersByCrd`, `POST /v1/webhooks/endpoints` → `postWebhooksEndpoints`.
 */
export function operationIdOf(method: string, path: string): string {
  const words = path
    .split('/')
    .filter((s) => s && s !== 'v1')
    .flatMap((s) => (s.startsWith('{') ? ['by', ...s.slice(1, -1).split(/[_-]/)] : s.split(/[_-]/)));
  return method + words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
}

export function buildOpenApi(endpoints: Endpoint[], info: { version: string; serverUrl?: string }) {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'API key: `Authorization: Bearer sk_live_…`',
  });
  const named = registerRecords(registry);
  const shared = (schema: z.ZodType) => {
    const n = named.get(schema);
    if (!n) throw new Error('a shared response shape is not exported from schemas/records');
    return n;
  };
  const bodies = { error: shared(records.ErrorBody), validation: shared(records.ValidationErrorBody) };
  const operationIds = new Set<string>();
  for (const ep of endpoints) {
    const isPublic = ep.kind === 'custom' && ep.auth === false;
    const method = ep.kind === 'custom' ? ep.method : 'get';
    const query: ParamDefs = ep.kind === 'list' ? { ...ep.params, ...pagingParams(ep.defaultLimit ?? 25) } : ep.kind === 'custom' ? (ep.params ?? {}) : {};
    const path: ParamDefs = ep.kind === 'lookup' ? ep.pathParams : ep.kind === 'custom' ? (ep.pathParams ?? {}) : {};
    // A record not exported from schemas/records (a test's ad-hoc route) is written inline.
    const record = named.get(ep.record) ?? ep.record;
    const success = ep.kind === 'custom' && ep.shape === 'raw' ? record : envelopeOf(ep, record, shared);
    const responses = Object.fromEntries(
      [...statusesOf(ep)].map(([status, s]) => [
        String(status),
        { description: s.description, content: { 'application/json': { schema: s.body === 'record' ? success : bodies[s.body] } } },
      ]),
    );
    const operationId = operationIdOf(method, ep.path);
    if (operationIds.has(operationId)) throw new Error(`two operations would be named ${operationId}`);
    operationIds.add(operationId);
    registry.registerPath({
      method,
      path: ep.path,
      operationId,
      summary: ep.summary,
      description: `${ep.description ?? ''}${isPublic ? '' : `\n\nCost: ${costOf(ep)} credit(s).`}`.trim(),
      tags: [ep.tag],
      ...(isPublic ? {} : { security: [{ bearerAuth: [] }] }),
      parameters: [...parameters(path, 'path'), ...parameters(query, 'query')] as never,
      ...(ep.kind === 'custom' && ep.body ? { request: { body: { content: { 'application/json': { schema: ep.body } } } } } : {}),
      responses,
    });
  }
  for (const ep of endpoints) if (ep.kind === 'list') registerExport(registry, ep, operationIds, bodies);
  const generator = new OpenApiGeneratorV31(registry.definitions);
  return generator.generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Securities Filings Data API',
      version: info.version,
      description: "Read-only JSON API over the regulator's public filings and bulk data, with events, monitors and signed webhooks.",
    },
    servers: info.serverUrl ? [{ url: info.serverUrl }] : [],
  });
}

/** The bulk export of a list: the list's filters plus `format`, a file answer, the same refusals. */
function registerExport(registry: OpenAPIRegistry, ep: ListEndpoint, operationIds: Set<string>, bodies: Record<'error' | 'validation', z.ZodType>): void {
  const path = exportPath(ep.path);
  const operationId = operationIdOf('get', path);
  if (operationIds.has(operationId)) throw new Error(`two operations would be named ${operationId}`);
  operationIds.add(operationId);
  // The list's own refusals (401, 402, 404 when it resolves, 422, 429); the success is the file.
  const responses = Object.fromEntries(
    [...statusesOf(ep)].map(([status, s]) => [
      String(status),
      s.body === 'record'
        ? { description: 'The file (Content-Disposition: attachment)', content: exportResponseContent }
        : { description: s.description, content: { 'application/json': { schema: bodies[s.body] } } },
    ]),
  );
  registry.registerPath({
    method: 'get',
    path,
    operationId,
    summary: `Export: ${ep.summary}`,
    description:
      `Every record \`${ep.path}\` matches (no page limit), in its order and with its fields, as CSV, NDJSON or Parquet. ` +
      `Cost: ${DEFAULT_COST} credits plus 1 per started ${EXPORT_ROWS_PER_CREDIT.toLocaleString('en-US')} rows, counted before ` +
      'streaming (X-Export-Rows); a balance that cannot cover it is refused with 402 before any byte.',
    tags: [ep.tag],
    security: [{ bearerAuth: [] }],
    parameters: parameters({ ...ep.params, ...exportParams() }, 'query') as never,
    responses,
  });
}
