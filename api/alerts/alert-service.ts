import type { AlertRecord } from '../../schemas/records/alerts.ts';
import { accountPage, type Keyset } from '../webhooks/paging.ts';
import type { StateDb } from '../webhooks/state-port.ts';

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

/** Alerts of the caller's monitors, newest first, cursor-paged. */
export async function listAlerts(db: StateDb, accountId: string, monitorId: string | undefined, limit: number, after: Keyset | null) {
  const r = await accountPage(db, 'alerts', accountId, { monitor_id: monitorId }, limit, after);
  return { records: r.rows.map(rowToAlert), hasMore: r.hasMore };
}
