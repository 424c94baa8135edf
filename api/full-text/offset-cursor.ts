import { decodeCursor, encodeCursor, filterHash } from '../core/cursor.ts';
import { ValidationError } from '../core/errors.ts';
import type { Services } from '../core/services.ts';

/**
 * Offset cursors of the live feeds: the upstream offset of the next hit to examine, signed like the lake's keyset
 * cursors (a cursor of another query or endpoint is a 422), so paging walks past the upstream's fixed page of 100
 * and survives post-filtering.
 */
export function readOffsetCursor(services: Services, path: string, query: Record<string, unknown>): number {
  const raw = query.cursor as string | undefined;
  if (!raw) return 0;
  const c = decodeCursor(services.cursorSecret, raw);
  const offset = c?.k[0];
  if (!c || c.e !== path || c.f !== filterHash(query) || typeof offset !== 'number' || !Number.isInteger(offset) || offset < 0) {
    throw new ValidationError([
      { loc: ['query', 'cursor'], msg: 'Invalid cursor: take it verbatim from page.next_cursor of the same query', type: 'value_error', input: raw },
    ]);
  }
  return offset;
}

export function writeOffsetCursor(services: Services, path: string, query: Record<string, unknown>, offset: number): string {
  return encodeCursor(services.cursorSecret, { e: path, f: filterHash(query), k: [offset] });
}
