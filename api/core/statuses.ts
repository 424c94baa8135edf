import { DEFAULT_COST } from '../../schemas/plans.ts';
import { ERROR_STATUS, type ErrorCode } from '../../schemas/errors.ts';
import { costRange, type Endpoint } from './endpoint.ts';

/**
 * The statuses an operation can answer, derived from its definition (one source of truth for the OpenAPI document
 * and the generated contract suite, which fails on any status a route answers without declaring it):
 * - success (`successStatus`, default 200) and a custom route's `otherStatuses`, with the route's own body;
 * - 422 on every route: each refuses an undeclared query parameter (`extra_forbidden`), and a bad value of each
 *   declared one;
 * - 401 and 429 unless the route is public; 402 when it costs credits (a free route cannot exhaust a balance);
 * - 404 for a lookup, a path parameter, or a list that resolves an identifier (`resolve`);
 * - 400 for a JSON body (a malformed or unreadable body, an invalid member), 413 for one over the limit, 415 for a body
 *   that is not JSON, not UTF-8 or in an unknown Content-Encoding;
 * - the codes a custom route declares in `errors` (409 conflicts, the live fetches' 502 and 504).
 */

export type StatusBody = 'record' | 'error' | 'validation';

export interface DeclaredStatus {
  body: StatusBody;
  /** The error codes answered with this status (error bodies only). */
  codes: ErrorCode[];
  description: string;
}

/** Codes a route implies by its definition; a custom route adds its own (`errors`). */
function errorCodesOf(ep: Endpoint): Set<ErrorCode> {
  const codes = new Set<ErrorCode>();
  const isPublic = ep.kind === 'custom' && ep.auth === false;
  if (!isPublic) {
    codes.add('unauthorized');
    codes.add('rate_limited');
    if (costRange(ep, DEFAULT_COST).max > 0) codes.add('insufficient_credits');
  }
  const hasPath = ep.kind === 'lookup' || (ep.kind === 'custom' && Object.keys(ep.pathParams ?? {}).length > 0);
  if (hasPath) codes.add('not_found');
  if (ep.kind === 'custom') {
    if (ep.body || ep.method === 'post' || ep.method === 'patch') codes.add('invalid_param');
    if (ep.body) {
      codes.add('unsupported_media_type');
      codes.add('payload_too_large');
    }
    for (const c of ep.errors ?? []) codes.add(c);
  }
  return codes;
}

const MEANING: Record<number, string> = {
  400: 'Invalid or malformed body; `param` names the member at fault',
  401: 'Missing or invalid API key',
  402: 'Credits exhausted on a plan without overage',
  404: 'Not found',
  409: "The resource's current state forbids the request",
  413: 'The body is over the size limit (256 kB)',
  415: 'The body was not sent as JSON (`Content-Type: application/json`) in UTF-8, or with an unknown `Content-Encoding`',
  429: 'Rate limited; retry after `Retry-After` seconds',
  502: "The regulator's service failed",
  503: 'A setting the call needs is missing (named in `setting`); no request was made',
  504: "The regulator's service did not answer in time",
};

function successStatusOf(ep: Endpoint): number {
  return ep.kind === 'custom' ? (ep.successStatus ?? 200) : 200;
}

/** Status → what answers it, in ascending status order. */
export function statusesOf(ep: Endpoint): Map<number, DeclaredStatus> {
  const out = new Map<number, DeclaredStatus>();
  out.set(successStatusOf(ep), { body: 'record', codes: [], description: 'Success' });
  for (const [status, description] of Object.entries(ep.kind === 'custom' ? (ep.otherStatuses ?? {}) : {})) {
    out.set(Number(status), { body: 'record', codes: [], description });
  }
  out.set(422, { body: 'validation', codes: [], description: 'Validation error: a parameter (named in `loc`) is malformed, out of range or unknown' });
  for (const code of errorCodesOf(ep)) {
    const status = ERROR_STATUS[code];
    const s = out.get(status) ?? { body: 'error' as const, codes: [], description: MEANING[status] ?? 'Error' };
    s.codes.push(code);
    out.set(status, s);
  }
  for (const s of out.values()) if (s.codes.length) s.description = `${s.description} (${s.codes.map((c) => `\`${c}\``).join(' or ')})`;
  return new Map([...out].sort((a, b) => a[0] - b[0]));
}
