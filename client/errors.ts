import type { paths } from './generated/api.d.ts';

/**
 * Every error code any operation of the document can answer with, read from the generated types (so a code added to
 * the API reaches the client at the next `npm run client:generate`), whatever the schema is named.
 */
type CodesOf<Responses> = {
  [S in keyof Responses]: Responses[S] extends { content: { 'application/json': { error: { code: infer C } } } } ? C : never;
}[keyof Responses];
type CodesOfPath<Item> = { [M in keyof Item]: Item[M] extends { responses: infer R } ? CodesOf<R> : never }[keyof Item];
export type ErrorCode = { [P in keyof paths]: CodesOfPath<paths[P]> }[keyof paths];

/** One entry of a 422 body: `loc` names the parameter (`["query", "aum_min"]`), `type` the violated rule. */
export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
}

/** The credit headers of an answer; null when the server did not send them (public endpoints, metering off). */
export interface CreditHeaders {
  charged: number | null;
  /** `unlimited` when the server runs with metering off. */
  remaining: number | 'unlimited' | null;
}

/**
 * A non-2xx answer. `code` is the body's `error.code`; a 422 carries no code in its body (the contract's
 * `invalid_param` row), so it reads `invalid_param` here with the issues in `detail` and the first one's parameter
 * in `param`. An answer that is not one of the API's error bodies (a proxy's 502 page) reads `unexpected_response`.
 */
export class FilingsApiError extends Error {
  override readonly name = 'FilingsApiError';
  readonly status: number;
  readonly code: ErrorCode | 'unexpected_response';
  /** The parameter or body member at fault (422: the last element of the first issue's `loc`). */
  readonly param: string | null;
  /** `entity_unresolved`: the closest known entity. */
  readonly suggestion: string | null;
  /** 422 only: every validation issue; empty otherwise. */
  readonly detail: ValidationIssue[];
  readonly credits: CreditHeaders;
  readonly requestId: string | null;
  /** The parsed body (or its text when it was not JSON). */
  readonly body: unknown;

  constructor(response: Response, body: unknown) {
    const parsed = readErrorBody(response.status, body);
    super(parsed.message);
    this.status = response.status;
    this.code = parsed.code;
    this.param = parsed.param;
    this.suggestion = parsed.suggestion;
    this.detail = parsed.detail;
    this.credits = creditHeaders(response.headers);
    this.requestId = response.headers.get('X-Request-Id');
    this.body = body;
  }
}

function readErrorBody(status: number, body: unknown) {
  const none = { param: null, suggestion: null, detail: [] as ValidationIssue[] };
  if (isObject(body) && Array.isArray(body.detail)) {
    const detail = body.detail as ValidationIssue[];
    const first = detail[0];
    const param = first?.loc?.length ? String(first.loc[first.loc.length - 1]) : null;
    const message = detail.map((d) => `${d.loc.join('.')}: ${d.msg}`).join('; ') || `HTTP ${status}`;
    return { ...none, code: 'invalid_param' as const, message, param, detail };
  }
  if (isObject(body) && isObject(body.error) && typeof body.error.code === 'string') {
    const e = body.error;
    const code = body.error.code;
    return {
      ...none,
      code: code as ErrorCode,
      message: typeof e.message === 'string' ? e.message : code,
      param: typeof e.param === 'string' ? e.param : null,
      suggestion: typeof e.suggestion === 'string' ? e.suggestion : null,
    };
  }
  return { ...none, code: 'unexpected_response' as const, message: `HTTP ${status}` };
}

function creditHeaders(headers: Headers): CreditHeaders {
  const charged = headers.get('X-Credits-Charged');
  const remaining = headers.get('X-Credits-Remaining');
  return {
    charged: charged === null ? null : Number(charged),
    remaining: remaining === null ? null : remaining === 'unlimited' ? 'unlimited' : Number(remaining),
  };
}

function isObject(v: unknown): v is Record<string, unknown> & { error?: unknown; detail?: unknown } {
  return typeof v === 'object' && v !== null;
}
