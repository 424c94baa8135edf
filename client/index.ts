/**
 * `filings-lake/client`: a typed client of the API, generated from its OpenAPI document (types: openapi-typescript;
 * calls: openapi-fetch). See docs/api-contract.md, "Typed client".
 */
export { createFilingsClient, type FilingsClient, type FilingsClientOptions, type ItemOf, type ListPath, type ResponseOf } from './client.ts';
export { type CreditHeaders, type ErrorCode, FilingsApiError, type ValidationIssue } from './errors.ts';
export { type RetryOptions, retryAfterMs } from './retry.ts';
export type { paths } from './generated/api.d.ts';
