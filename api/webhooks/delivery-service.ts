import type { DeliveryRecord } from '../../schemas/records/webhooks.ts';
import { conflict, isUuid, notOwned } from './errors.ts';
import type { StateTx } from '../core/state.ts';
import { accountPage, type Keyset } from './paging.ts';
import { rowsOf, type StateDb } from './state-port.ts';

function rowToDelivery(r: Record<string, unknown>): DeliveryRecord {
  const n = (v: unknown) => (v == null ? null : Number(v));
  const s = (v: unknown) => (v == null ? null : String(v));
  return {
    id: String(r.id),
    endpoint_id: String(r.endpoint_id),
    monitor_id: s(r.monitor_id),
    alert_id: s(r.alert_id),
    event_id: String(r.event_id),
    type: String(r.type),
    status: String(r.status) as DeliveryRecord['status'],
    attempts: Number(r.attempts),
    response_status: n(r.response_status),
    last_error: s(r.last_error),
    next_attempt_at: s(r.next_attempt_at),
    created_at: String(r.created_at),
    updated_at: String(r.updated_at),
  };
}

export interface DeliveryFilters {
  status?: string;
  endpoint_id?: string;
  monitor_id?: string;
}

/** Newest first, cursor-paged, filtered by status, endpoint and monitor. */
export async function listDeliveries(db: StateDb, accountId: string, filters: DeliveryFilters, limit: number, after: Keyset | null) {
  const r = await accountPage(db, 'webhook_deliveries', accountId, { ...filters }, limit, after);
  return { records: r.rows.map(rowToDelivery), hasMore: r.hasMore };
}

export async function getDelivery(db: StateDb, accountId: string, id: string): Promise<DeliveryRecord> {
  const rows = isUuid(id) ? await db.all(`SELECT * FROM webhook_deliveries WHERE id = $1 AND account_id = $2`, [id, accountId]) : [];
  if (rows.length === 0) throw notOwned('webhook delivery', id);
  return rowToDelivery(rows[0]);
}

/**
 * Manual redelivery: a finished delivery (success or failed) becomes pending, due now, with a fresh retry
 * schedule; its attempt counter keeps counting. Refused (409) while it is still pending or when the endpoint
 * is no longer active.
 */
export async function retryDelivery(db: StateDb, accountId: string, id: string, now: Date): Promise<DeliveryRecord> {
  const d = await getDelivery(db, accountId, id);
  if (d.status === 'pending') throw conflict(`Delivery ${id} is already pending.`);
  const ep = await rowsOf<{ status: string }>(db, `SELECT status FROM webhook_endpoints WHERE id = $1 AND account_id = $2`, [d.endpoint_id, accountId]);
  if (ep[0]?.status !== 'active') {
    throw conflict(`The endpoint of delivery ${id} is ${ep[0] ? ep[0].status : 'deleted'}; it cannot be redelivered.`);
  }
  const ts = now.toISOString();
  await db.run(
    `UPDATE webhook_deliveries SET status = 'pending', schedule_step = 0, next_attempt_at = $3, updated_at = $3
     WHERE id = $1 AND account_id = $2 AND status <> 'pending'`,
    [id, accountId, ts],
  );
  return getDelivery(db, accountId, id);
}

/** Closes what is still owed for a monitor or an endpoint being removed, as `failed`; the log keeps the rows. */
export async function closePendingDeliveries(tx: StateTx, by: 'monitor_id' | 'endpoint_id', id: string, reason: string, now: Date): Promise<void> {
  await tx.run(
    `UPDATE webhook_deliveries SET status = 'failed', last_error = $2, next_attempt_at = NULL, updated_at = $3 WHERE "${by}" = $1 AND status = 'pending'`,
    [id, reason, now.toISOString()],
  );
}
