import { ERROR_STATUS, type ErrorCode } from '../../schemas/errors.ts';
import type { ValidationDetail } from './params.ts';

/**
 * Errors a handler throws; the app's error handler turns them into answers. An `ApiError` takes one of the closed
 * list of codes (schemas/errors.ts), which also fixes its HTTP status. 422 bodies are `{"detail":[…]}` exactly as
 * the API contract shows (docs/api-contract.md; `ValidationError`).
 */
export type { ErrorCode } from '../../schemas/errors.ts';

export class ApiError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;
  /** Members added to the error object beside `code` and `message` (`suggestion`, `param`). */
  readonly extra: Record<string, unknown>;

  constructor(
    readonly code: ErrorCode,
    message: string,
    opts: { headers?: Record<string, string>; extra?: Record<string, unknown> } = {},
  ) {
    super(message);
    this.status = ERROR_STATUS[code];
    this.headers = opts.headers ?? {};
    this.extra = opts.extra ?? {};
  }

  /** The answer's body: `{"error":{code,message,…extra}}`, the one shape of every non-422 error. */
  body(): { error: Record<string, unknown> } {
    return { error: { code: this.code, message: this.message, ...this.extra } };
  }
}

export class ValidationError extends Error {
  constructor(
    readonly detail: ValidationDetail[],
    readonly status: 400 | 422 = 422,
  ) {
    super('validation failed');
  }
}

export const notFound = (message: string) => new ApiError('not_found', message);
export const entityUnresolved = (message: string, suggestion?: string) =>
  new ApiError('entity_unresolved', message, suggestion ? { extra: { suggestion } } : {});
/** 400 with the invalid_param code: the API contract's status for bad monitor and webhook bodies. */
export const badRequest = (message: string, param?: string) => new ApiError('invalid_param', message, param ? { extra: { param } } : {});
/** 401 names the scheme the client must use (RFC 9110 requires `WWW-Authenticate` on a 401). */
export const unauthorized = (message = 'Missing or invalid API key: send Authorization: Bearer <key>') =>
  new ApiError('unauthorized', message, { headers: { 'WWW-Authenticate': 'Bearer realm="filings-lake"' } });
/**
 * What a route that reads the regulator's service live may answer besides its own errors (`errors` of its definition):
 * 502/504 for the regulator's failures, 503 `not_configured` when a setting the call needs is missing (no request sent).
 */
export const LIVE_FETCH_ERRORS = ['upstream_unavailable', 'upstream_timeout', 'not_configured'] as const satisfies readonly ErrorCode[];
