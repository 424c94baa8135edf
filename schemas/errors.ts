import { z } from 'zod';

/**
 * The error codes of the API: the one closed list. Every error answer other than a 422 has the body
 * `{"error":{"code","message"}}` with one of these codes and the status below; a 422 has the `{"detail":[…]}` body of
 * the spec instead, which carries no code (the spec's `invalid_param` row).
 *
 * The spec's Errors table names `not_found`, `entity_unresolved`, `invalid_param`, `rate_limited` and
 * `insufficient_credits` (its `empty_result` is a warning on a 200, not an error). The others are ours, each added
 * because no spec code fits: see the comment on each.
 */
export const ERROR_CODES = [
  'not_found',
  'entity_unresolved',
  'invalid_param',
  'rate_limited',
  'insufficient_credits',
  // The spec states 401 for a missing or invalid API key without naming a code.
  'unauthorized',
  // A valid request the resource's current state forbids (redelivering a pending delivery, a test delivery to a
  // disabled webhook endpoint): no parameter is wrong, so not `invalid_param`, and retrying it unchanged cannot succeed.
  'conflict',
  // A request body that is not JSON (Content-Type other than application/json) on an endpoint that takes a JSON
  // body: refused rather than ignored, so a PATCH sent as a form cannot answer 200 having changed nothing.
  'unsupported_media_type',
  // A JSON body over the size limit (256 kB): HTTP's own status for it; 400 would suggest fixing a member.
  'payload_too_large',
  // The regulator's service failed or did not answer in time (live fetches): the caller may retry later.
  'upstream_unavailable',
  'upstream_timeout',
  // A live endpoint cannot run because a setting it needs is missing (SEC_USER_AGENT for the regulator's hosts): a
  // configuration error of this deployment, not an outage, so neither 502 nor a retry; the body names the setting.
  'not_configured',
  // A bug of ours; the message carries the request id.
  'internal_error',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export const ErrorCodeSchema = z.enum(ERROR_CODES);

/** The HTTP status of each code's error body. */
export const ERROR_STATUS = {
  not_found: 404,
  entity_unresolved: 404,
  // As an `{"error"}` body: a malformed JSON body or an invalid monitor/webhook body (the spec asks 400 there).
  invalid_param: 400,
  rate_limited: 429,
  // The spec: an exhausted free-plan balance yields 402.
  insufficient_credits: 402,
  unauthorized: 401,
  conflict: 409,
  unsupported_media_type: 415,
  payload_too_large: 413,
  upstream_unavailable: 502,
  upstream_timeout: 504,
  not_configured: 503,
  internal_error: 500,
} as const satisfies Record<ErrorCode, number>;
