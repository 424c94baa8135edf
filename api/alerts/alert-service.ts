import { z } from 'zod';
import type { StateDb } from '../webhooks/state-port.ts';

export const alertRecord = z.object({
  id: z.string().describe('UUID'),
  monitor_id: z.string(),
  event_id: z.string(),
  delivery_id: z.string().nullable().describe('The webhook delivery created with the alert, if the monitor has an endpoint'),
  created_at: z.string(),
  event: z.record(z.string(), z.unknown()).describe('The event record as it was when the alert fired'),
});
export type AlertRecord = z.infer<typeof alertRecord>;

function rowToAlert(r: Record<string, unknown>): AlertRecord {
  return {
    id: String(r.id),
    monitor_id: String(r.monitor_id),
    event_id: String(r.event_id),
    delivery_id: r.delivery_id == null ? null : String(r.delivery_id),
    created_at: String(r.created_at),
    event: JSON.parse(String(r.event_json)) as Record<string, unknown>,
  };
}

/** Alerts of the caller's monitors, newest first, keyset on (created_at, id). */
export async function listAlerts(db: StateDb, accountId: string, monitorId: string | undefined, limit: number, after: { created_at: string; id: string } | null) {
  const params: unknown[] = [accountId, limit + 1];
  const where = ['account_id = $1'];
  if (monitorId) {
    params.push(monitorId);
    where.push(`monitor_id = $${params.length}`);
  }
  if (after) {
    params.push(after.created_at, after.id);
    const c = `$${params.length - 1}`;
    where.push(`created_at <= ${c} AND (created_at < ${c} OR id < $${params.length})`);
  }
  const rows = await db.all(`SELECT * FROM alerts WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT $2`, params);
  return { records: rows.slice(0, limit).map(rowToAlert), hasMore: rows.length > limit };
}
