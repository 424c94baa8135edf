import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { costRange, type Endpoint, type ListEndpoint } from './endpoint.ts';
import { exportParams, exportPath, exportResponseContent } from './export.ts';
import { pagingParams, type ParamDefs } from './params.ts';
import { DEFAULT_COST, EXPORT_ROWS_PER_CREDIT } from '../../schemas/plans.ts';
import { ERROR_STATUS, ErrorCodeSchema, type ErrorCode } from '../../schemas/errors.ts';
import { isSourceLabel, SOURCES } from '../../schemas/sources.ts';

/** OpenAPI 3.1, generated from the same definitions (zod records, param helpers) that validate requests. */

const Page = z.object({
  limit: z.number().int().min(1).max(100),
  next_cursor: z.string().nullable(),
  has_more: z.boolean(),
});
const Warning = z.object({ code: z.string(), message: z.string() });
const ErrorBody = z.object({
  error: z.object({
    code: ErrorCodeSchema,
    message: z.string(),
    suggestion: z.string().optional().describe('entity_unresolved: the closest known entity (ticker or CIK).'),
    param: z.string().optional().describe('invalid_param: the body member at fault.'),
  }),
});

/** `not_found` or `entity_unresolved`: the codes an error answer with this status carries. */
function codesOf(status: number): string {
  const codes = (Object.keys(ERROR_STATUS) as ErrorCode[]).filter((c) => ERROR_STATUS[c] === status);
  return codes.map((c) => `\`${c}\``).join(' or ');
}
const ValidationBody = z.object({
  detail: z.array(
    z.object({
      loc: z.array(z.union([z.string(), z.number()])),
      msg: z.string(),
      type: z.string(),
      input: z.unknown().optional(),
      ctx: z.record(z.string(), z.unknown()).optional(),
    }),
  ),
});

function envelope(record: z.ZodType, monitoring: boolean, label: string) {
  const source = isSourceLabel(label) ? z.literal(label).describe(SOURCES[label]) : z.string();
  const base = { data: z.array(record), page: Page.optional(), source, warnings: z.array(Warning).optional() };
  return monitoring
    ? z.object(base)
    : z.object({ ...base, as_of: z.string().nullable().describe('ISO 8601 freshness of the data'), query_echo: z.record(z.string(), z.unknown()) });
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
  const operationIds = new Set<string>();
  for (const ep of endpoints) {
    const isPublic = ep.kind === 'custom' && ep.auth === false;
    const monitoring = ep.source === 'svc_monitoring';
    const method = ep.kind === 'custom' ? ep.method : 'get';
    const query: ParamDefs = ep.kind === 'list' ? { ...ep.params, ...pagingParams(ep.defaultLimit ?? 25) } : ep.kind === 'custom' ? (ep.params ?? {}) : {};
    const path: ParamDefs = ep.kind === 'lookup' ? ep.pathParams : ep.kind === 'custom' ? (ep.pathParams ?? {}) : {};
    const raw = ep.kind === 'custom' && ep.shape === 'raw';
    const responses: Record<string, { description: string; content?: Record<string, { schema: z.ZodType }> }> = {
      [String(ep.kind === 'custom' ? (ep.successStatus ?? 200) : 200)]: {
        description: 'Success',
        content: { 'application/json': { schema: raw ? ep.record : envelope(ep.record, monitoring, ep.source) } },
      },
      '422': { description: 'Validation error (parameter named in `loc`)', content: { 'application/json': { schema: ValidationBody } } },
    };
    if (!isPublic) {
      responses['401'] = { description: `Missing or invalid API key (${codesOf(401)})`, content: { 'application/json': { schema: ErrorBody } } };
      responses['402'] = { description: `Credits exhausted, free plan (${codesOf(402)})`, content: { 'application/json': { schema: ErrorBody } } };
      responses['429'] = { description: `Rate limited; see Retry-After (${codesOf(429)})`, content: { 'application/json': { schema: ErrorBody } } };
    }
    if (ep.kind === 'lookup' || Object.keys(path).length) {
      responses['404'] = { description: codesOf(404), content: { 'application/json': { schema: ErrorBody } } };
    }
    for (const [status, description] of Object.entries(ep.kind === 'custom' ? (ep.otherStatuses ?? {}) : {})) {
      responses[status] = { description, content: { 'application/json': { schema: raw ? ep.record : ErrorBody } } };
    }
    if (ep.kind === 'custom' && ep.body) {
      responses['400'] = { description: `Invalid body (${codesOf(400)})`, content: { 'application/json': { schema: ErrorBody } } };
    }
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
  for (const ep of endpoints) if (ep.kind === 'list') registerExport(registry, ep, operationIds);
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
function registerExport(registry: OpenAPIRegistry, ep: ListEndpoint, operationIds: Set<string>): void {
  const path = exportPath(ep.path);
  const operationId = operationIdOf('get', path);
  if (operationIds.has(operationId)) throw new Error(`two operations would be named ${operationId}`);
  operationIds.add(operationId);
  const error = (description: string) => ({ description, content: { 'application/json': { schema: ErrorBody } } });
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
    responses: {
      '200': { description: 'The file (Content-Disposition: attachment)', content: exportResponseContent },
      '422': { description: 'Validation error (parameter named in `loc`)', content: { 'application/json': { schema: ValidationBody } } },
      '401': error(`Missing or invalid API key (${codesOf(401)})`),
      '402': error(`Credits cannot cover the export (${codesOf(402)})`),
      '429': error(`Rate limited; see Retry-After (${codesOf(429)})`),
    },
  });
}
