import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineLookup, f } from '../../api/core/endpoint.ts';
import { ApiError, badRequest, entityUnresolved, notFound, unauthorized } from '../../api/core/errors.ts';
import { buildOpenApi } from '../../api/core/openapi.ts';
import { p } from '../../api/core/params.ts';
import { ERROR_CODES, ERROR_STATUS } from '../../schemas/errors.ts';
import type { TableSpec } from '../../schemas/table.ts';

/** One closed list of error codes: it fixes each code's status, and the OpenAPI error body lists exactly these codes. */

describe('error codes', () => {
  it('maps every code to an HTTP error status, and nothing else', () => {
    expect(Object.keys(ERROR_STATUS).sort()).toEqual([...ERROR_CODES].sort());
    for (const code of ERROR_CODES) expect(ERROR_STATUS[code], code).toBeGreaterThanOrEqual(400);
  });

  it('keeps the statuses the spec and the clients rely on', () => {
    expect(ERROR_STATUS).toMatchObject({
      not_found: 404,
      entity_unresolved: 404,
      unauthorized: 401,
      insufficient_credits: 402,
      rate_limited: 429,
      invalid_param: 400,
      conflict: 409,
    });
  });

  it('gives an ApiError the status of its code', () => {
    for (const code of ERROR_CODES) expect(new ApiError(code, 'x').status).toBe(ERROR_STATUS[code]);
    expect(notFound('x')).toMatchObject({ status: 404, code: 'not_found' });
    expect(entityUnresolved('x', 'AAPL')).toMatchObject({ status: 404, code: 'entity_unresolved', extra: { suggestion: 'AAPL' } });
    expect(badRequest('x', 'url')).toMatchObject({ status: 400, code: 'invalid_param', extra: { param: 'url' } });
    expect(unauthorized()).toMatchObject({ status: 401, code: 'unauthorized' });
    expect(new ApiError('rate_limited', 'x', { headers: { 'Retry-After': '1' } }).headers).toEqual({ 'Retry-After': '1' });
  });

  it('lists the codes in the OpenAPI error body', () => {
    const table = {
      name: 't',
      description: '',
      partitionBy: 'id',
      sortBy: ['id'],
      primaryKey: ['id'],
      columns: { id: { type: 'VARCHAR', nullable: false } },
    } as const satisfies TableSpec;
    const ep = defineLookup({
      path: '/v1/t/{id}',
      summary: 't',
      tag: 'T',
      source: 'svc',
      table,
      pathParams: { id: p.str({ required: true }) },
      filters: { id: f.eq('id') },
      record: z.object({ id: z.string() }),
      toRecord: (r) => ({ id: String(r.id) }),
      notFound: (v) => `no ${v.id}`,
    });
    const doc = buildOpenApi([ep], { version: '0.1.0' }) as unknown as {
      paths: Record<string, { get: { responses: Record<string, { description: string; content: Record<string, { schema: any }> }> } }>;
      components: { schemas: Record<string, any> };
    };
    const responses = doc.paths['/v1/t/{id}'].get.responses;
    for (const status of ['401', '402', '404', '429']) {
      expect(responses[status].content['application/json'].schema, status).toEqual({ $ref: '#/components/schemas/ErrorBody' });
    }
    expect(doc.components.schemas.ErrorBody.properties.error.properties.code.enum).toEqual([...ERROR_CODES]);
    expect(responses['404'].description).toBe('Not found (`not_found`)');
  });
});
