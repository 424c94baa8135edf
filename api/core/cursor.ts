import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Opaque, tamper-evident keyset cursors: base64url(JSON {endpoint, filter hash, last row's sort key}) + HMAC.
 * A cursor from another endpoint or another filter set, or one edited by hand, fails verification (422).
 */
export interface CursorPayload {
  /** Endpoint path template. */
  e: string;
  /** Hash of the normalized filters the cursor was issued for. */
  f: string;
  /** Sort-key values of the last row of the previous page. */
  k: unknown[];
}

export function filterHash(filters: Record<string, unknown>): string {
  const keys = Object.keys(filters)
    .filter((k) => k !== 'cursor' && k !== 'limit')
    .sort();
  const norm = keys.map((k) => [k, filters[k]]);
  return createHmac('sha256', 'filters').update(JSON.stringify(norm)).digest('base64url').slice(0, 16);
}

export function encodeCursor(secret: string, payload: CursorPayload): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  const sig = createHmac('sha256', secret).update(body).digest('base64url').slice(0, 22);
  return `${body}.${sig}`;
}

export function decodeCursor(secret: string, cursor: string): CursorPayload | null {
  const dot = cursor.lastIndexOf('.');
  if (dot <= 0) return null;
  const body = cursor.slice(0, dot);
  const sig = Buffer.from(cursor.slice(dot + 1));
  const want = Buffer.from(createHmac('sha256', secret).update(body).digest('base64url').slice(0, 22));
  if (sig.length !== want.length || !timingSafeEqual(sig, want)) return null;
  try {
    const p = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as CursorPayload;
    if (typeof p.e !== 'string' || typeof p.f !== 'string' || !Array.isArray(p.k)) return null;
    return p;
  } catch {
    return null;
  }
}
