import { createdCursor, type CreatedAtId } from '../core/cursor.ts';
import type { Services } from '../core/services.ts';
import type { StateTx } from '../core/state.ts';
import { MONITORING_SOURCE } from './envelope.ts';

/** Position after the last row of a page, for lists ordered by (created_at DESC, id DESC). */
export type Keyset = CreatedAtId;

/** The position a page's `cursor` names (the shared cursor module's created-at/id variant: a foreign one is a 422). */
export function readCursor(services: Services, path: string, filters: Record<string, unknown>, cursor: string | undefined): Keyset | null {
  return cursor === undefined ? null : createdCursor.read(services.cursorSecret, { endpoint: path, filters }, cursor);
}

export function pageOf<R extends { created_at: string; id: string }>(
  services: Services,
  path: string,
  filters: Record<string, unknown>,
  limit: number,
  r: { records: R[]; hasMore: boolean },
) {
  const last = r.records[r.records.length - 1];
  const next = r.hasMore && last ? createdCursor.issue(services.cursorSecret, { endpoint: path, filters }, last) : null;
  return { data: r.records, page: { limit, next_cursor: next, has_more: r.hasMore }, source: MONITORING_SOURCE };
}

/**
 * One page of an account's rows of a state table, newest first, keyset on (created_at, id) in the expanded
 * form; one extra row tells has_more. `equals` maps column names (ours) to values (bound); undefined skips.
 */
export async function accountPage(
  db: StateTx,
  table: 'monitors' | 'alerts' | 'webhook_endpoints' | 'webhook_deliveries',
  accountId: string,
  equals: Record<string, unknown>,
  limit: number,
  after: Keyset | null,
): Promise<{ rows: Record<string, unknown>[]; hasMore: boolean }> {
  const params: unknown[] = [accountId, limit + 1];
  const where = ['account_id = $1'];
  for (const [col, v] of Object.entries(equals)) {
    if (v === undefined || v === null) continue;
    params.push(v);
    where.push(`"${col}" = $${params.length}`);
  }
  if (after) {
    params.push(after.created_at, after.id);
    const c = `$${params.length - 1}`;
    where.push(`created_at <= ${c} AND (created_at < ${c} OR id < $${params.length})`);
  }
  const rows = await db.all(`SELECT * FROM ${table} WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT $2`, params);
  return { rows: rows.slice(0, limit), hasMore: rows.length > limit };
}
