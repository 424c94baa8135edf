import type { ValidationDetail } from './params.ts';

/**
 * The error codes of the API (docs/api-contract.md: Errors), one place. Every non-422 error body is
 * `{"error":{"code","message"}}`; 422 bodies are `{"detail":[…]}` exactly as the contract shows.
 */
export const ERROR_CODES = {
  not_found: 404,
  entity_unresolved: 404,
  invalid_param: 422,
  rate_limited: 429,
  insufficient_credits: 402,
  unauthorized: 401,
  upstream_unavailable: 502,
  upstream_timeout: 504,
  internal_error: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | string,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export class ValidationError extends Error {
  constructor(readonly detail: ValidationDetail[], readonly status: 400 | 422 = 422) {
    super('validation failed');
  }
}

export const notFound = (message: string) => new ApiError(404, 'not_found', message);
export const entityUnresolved = (message: string, suggestion?: string) =>
  new ApiError(404, 'entity_unresolved', message, {}, suggestion ? { suggestion } : {});
/** 400 with the invalid_param code: the API contract's status for bad monitor and webhook bodies. */
export const badRequest = (message: string, param?: string) => new ApiError(400, 'invalid_param', message, {}, param ? { param } : {});
export const unauthorized = (message = 'Missing or invalid API key: send Authorization: Bearer <key>') => new ApiError(401, 'unauthorized', message);
