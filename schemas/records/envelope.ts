import { z } from 'zod';
import { ErrorCodeSchema } from '../errors.ts';

/**
 * The shapes every answer shares, published as named components of the OpenAPI document (api/core/openapi.ts):
 * the envelope around records, its page, the error body and the 422 validation body (docs/api-contract.md).
 */

export const Page = z.object({
  limit: z.number().int().min(1).max(100),
  next_cursor: z.string().nullable().describe('Opaque; pass it verbatim as `cursor` for the next page. Null on the last page.'),
  has_more: z.boolean(),
});

export const Warning = z.object({ code: z.string(), message: z.string() });

/** A data answer: records with their page, freshness, origin and the normalized query. */
export const Envelope = z.object({
  data: z.array(z.unknown()),
  page: Page,
  as_of: z.string().nullable().describe('ISO 8601 freshness of the data'),
  source: z.string(),
  query_echo: z.record(z.string(), z.unknown()).describe('The normalized, typed parameters applied'),
  warnings: z.array(Warning),
});

/** A monitoring answer (monitors, alerts, webhooks): account state, so no `as_of` and no `query_echo`. */
export const MonitoringEnvelope = z.object({ data: z.array(z.unknown()), page: Page, source: z.string(), warnings: z.array(Warning) });

/** Every error answer but a 422: `{"error":{code,message}}`, the code from the closed list (schemas/errors.ts). */
export const ErrorBody = z.object({
  error: z.object({
    code: ErrorCodeSchema,
    message: z.string(),
    suggestion: z.string().optional().describe('entity_unresolved: the closest known entity (ticker or CIK).'),
    param: z.string().optional().describe('invalid_param: the body member at fault.'),
    setting: z.string().optional().describe('not_configured: the missing setting (environment variable), e.g. SEC_USER_AGENT.'),
  }),
});

/** One violation of a 422: where (`["query", "<param>"]`), what (`type`), the input and the bound (`ctx`). */
export const ValidationDetail = z.object({
  loc: z.array(z.union([z.string(), z.number()])),
  msg: z.string(),
  type: z.string(),
  input: z.unknown().optional(),
  ctx: z.record(z.string(), z.unknown()).optional(),
});

/** A 422: the parameters at fault, each named in `loc`. */
export const ValidationErrorBody = z.object({ detail: z.array(ValidationDetail) });
