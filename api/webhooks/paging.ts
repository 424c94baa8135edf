import { decodeCursor, encodeCursor, filterHash } from '../core/cursor.ts';
import { ValidationError } from '../core/errors.ts';
import { cursorSecret } from '../core/services.ts';
import type { Services } from '../core/services.ts';

/** Position after the last row of a page, for lists ordered by (created_at DESC, id DESC). */
export interface Keyset {
  created_at: string;
  id: string;
}

const secrets = new Map<string, string>();
function secretFor(services: Services): string {
  let s = secrets.get(services.settings.dataDir);
  if (!s) {
    s = cursorSecret(services.settings);
    secrets.set(services.settings.dataDir, s);
  }
  return s;
}

function cursorIssue(msg: string, input: string): ValidationError {
  return new ValidationError([{ loc: ['query', 'cursor'], msg, type: 'value_error', input }]);
}

/**
 * The same opaque, HMAC-signed cursors as the dataset lists (api/core/cursor.ts): bound to the endpoint and
 * the filters, so an edited or foreign cursor is a 422, never a wrong page.
 */
export function readCursor(services: Services, path: string, filters: Record<string, unknown>, cursor: string | undefined): Keyset | null {
  if (cursor === undefined) return null;
  const c = decodeCursor(secretFor(services), cursor);
  if (!c) throw cursorIssue('Invalid cursor: not issued by this service or altered', cursor);
  if (c.e !== path || c.f !== filterHash(filters) || c.k.length !== 2) throw cursorIssue('Invalid cursor: issued for another endpoint or other filters', cursor);
  return { created_at: String(c.k[0]), id: String(c.k[1]) };
}

export function pageOf<R extends { created_at: string; id: string }>(
  services: Services,
  path: string,
  filters: Record<string, unknown>,
  limit: number,
  r: { records: R[]; hasMore: boolean },
) {
  const last = r.records[r.records.length - 1];
  const next = r.hasMore && last ? encodeCursor(secretFor(services), { e: path, f: filterHash(filters), k: [last.created_at, last.id] }) : null;
  return { data: r.records, page: { limit, next_cursor: next, has_more: r.hasMore }, source: 'svc_monitoring' };
}
