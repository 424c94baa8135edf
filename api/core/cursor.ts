import { createHmac, timingSafeEqual } from 'node:crypto';
import { ValidationError } from './errors.ts';

/**
 * The one cursor module of the API: every `page.next_cursor` is made and read here. A cursor is
 * base64url(JSON {endpoint, filter hash, variant, position}) + HMAC, so a cursor from another endpoint, another filter
 * set or another paging variant, or one edited by hand, is a 422 on `cursor`, never a wrong page.
 *
 * Variants (the position `k` each carries):
 * - `keyset`: the sort-key values of the last row served (lake lists, `/v1/financials/{cik}`'s last concept);
 * - `created`: `[created_at, id]` of the last row, for the account lists ordered newest first (monitors, alerts,
 *   webhook endpoints and deliveries);
 * - `offset`: the upstream offset of the next hit to examine (live feeds: full-text search, cyber incidents), which
 *   walks past the upstream's fixed page and survives post-filtering.
 * A keyset cursor carries no variant tag (`v`): it is the shape issued before variants existed, so a client holding
 * one mid-walk keeps paging across the upgrade.
 */
export type CursorVariant = 'keyset' | 'created' | 'offset';

interface CursorPayload {
  /** Endpoint path template. */
  e: string;
  /** Hash of the normalized filters the cursor was issued for. */
  f: string;
  /** Variant; absent for `keyset`. */
  v?: Exclude<CursorVariant, 'keyset'>;
  /** Position: see the variants above. */
  k: unknown[];
}

/** What a cursor is bound to: the endpoint's path template and the normalized filters (`limit` and `cursor` aside). */
export interface CursorScope {
  endpoint: string;
  filters: Record<string, unknown>;
}

function filterHash(filters: Record<string, unknown>): string {
  const keys = Object.keys(filters)
    .filter((k) => k !== 'cursor' && k !== 'limit')
    .sort();
  const norm = keys.map((k) => [k, filters[k]]);
  return createHmac('sha256', 'filters').update(JSON.stringify(norm)).digest('base64url').slice(0, 16);
}

function sign(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body).digest('base64url').slice(0, 22);
}

function encode(secret: string, payload: CursorPayload): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${sign(secret, body)}`;
}

function decode(secret: string, cursor: string): CursorPayload | null {
  const dot = cursor.lastIndexOf('.');
  if (dot <= 0) return null;
  const body = cursor.slice(0, dot);
  const sig = Buffer.from(cursor.slice(dot + 1));
  const want = Buffer.from(sign(secret, body));
  if (sig.length !== want.length || !timingSafeEqual(sig, want)) return null;
  try {
    const p = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as CursorPayload;
    if (typeof p.e !== 'string' || typeof p.f !== 'string' || !Array.isArray(p.k)) return null;
    return p;
  } catch {
    return null;
  }
}

function cursorIssue(msg: string, input: string): ValidationError {
  return new ValidationError([{ loc: ['query', 'cursor'], msg, type: 'value_error', input }]);
}

function issue(secret: string, scope: CursorScope, variant: CursorVariant, k: unknown[]): string {
  return encode(secret, { e: scope.endpoint, f: filterHash(scope.filters), ...(variant === 'keyset' ? {} : { v: variant }), k });
}

/** The position of a cursor issued for this scope and variant, whose shape `valid` accepts; a 422 on `cursor` otherwise. */
function read(secret: string, scope: CursorScope, variant: CursorVariant, raw: string, valid: (k: unknown[]) => boolean): unknown[] {
  const c = decode(secret, raw);
  if (!c) throw cursorIssue('Invalid cursor: not issued by this service or altered', raw);
  if (c.e !== scope.endpoint || c.f !== filterHash(scope.filters) || (c.v ?? 'keyset') !== variant || !valid(c.k)) {
    throw cursorIssue('Invalid cursor: issued for another endpoint or other filters; take it verbatim from page.next_cursor of the same query', raw);
  }
  return c.k;
}

/** Keyset cursors: the sort-key values of the last row served (`arity` of them). */
export const keysetCursor = {
  issue: (secret: string, scope: CursorScope, key: unknown[]): string => issue(secret, scope, 'keyset', key),
  /** `valid`: a further check of the values' shape (a date where the order has one). */
  read: (secret: string, scope: CursorScope, raw: string, arity: number, valid: (k: unknown[]) => boolean = () => true): unknown[] =>
    read(secret, scope, 'keyset', raw, (k) => k.length === arity && valid(k)),
};

/** Position after the last row of a page of a list ordered by (created_at DESC, id DESC). */
export interface CreatedAtId {
  created_at: string;
  id: string;
}

/** Created-at/id cursors of the account lists. */
export const createdCursor = {
  issue: (secret: string, scope: CursorScope, last: CreatedAtId): string => issue(secret, scope, 'created', [last.created_at, last.id]),
  read(secret: string, scope: CursorScope, raw: string): CreatedAtId {
    const k = read(secret, scope, 'created', raw, (x) => x.length === 2 && x.every((v) => typeof v === 'string'));
    return { created_at: k[0] as string, id: k[1] as string };
  },
};

/** Offset cursors of the live feeds: a non-negative integer. */
export const offsetCursor = {
  issue: (secret: string, scope: CursorScope, offset: number): string => issue(secret, scope, 'offset', [offset]),
  read: (secret: string, scope: CursorScope, raw: string): number =>
    read(secret, scope, 'offset', raw, (k) => k.length === 1 && Number.isInteger(k[0]) && (k[0] as number) >= 0)[0] as number,
};
