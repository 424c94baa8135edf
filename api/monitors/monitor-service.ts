import { randomUUID } from 'node:crypto';
import { createMonitorBody, patchMonitorBody, type MonitorRecord, type TargetType } from '../../schemas/records/monitors.ts';
import { parseBody } from '../webhooks/body.ts';
import { closePendingDeliveries } from '../webhooks/delivery-service.ts';
import { conflict, invalid, isUuid, notOwned } from '../webhooks/errors.ts';
import { accountPage, type Keyset } from '../webhooks/paging.ts';
import type { StateDb } from '../webhooks/state-port.ts';
import { normalizeTarget } from './matcher.ts';
import { rowToMonitor } from './monitor-record.ts';
import { MAX_MONITORS_PER_ACCOUNT, targetSyntaxError } from './limits.ts';
import { isEventType } from './taxonomy.ts';

function checkSignals(signals: string[]): string[] {
  const unknown = signals.filter((s) => !isEventType(s));
  if (unknown.length)
    throw invalid('signals', `Unknown signal(s): ${unknown.join(', ')}. Signals are event types of the taxonomy (GET /v1/events documents them).`);
  return [...new Set(signals)];
}

function checkTarget(type: TargetType, value: string): string {
  const syntax = targetSyntaxError(type, value.trim().toUpperCase());
  if (syntax) throw invalid('target_value', `target_value ${JSON.stringify(value)} is not a valid ${type}: ${syntax}.`);
  const v = normalizeTarget(type, value);
  if (!v) throw invalid('target_value', `target_value ${JSON.stringify(value)} is not a valid ${type}.`);
  if (type === 'event_type' && !isEventType(v)) throw invalid('target_value', `target_value ${JSON.stringify(value)} is not an event type of the taxonomy.`);
  return v;
}

/** Unknown and foreign endpoints are the same 400: another account's endpoint id reveals nothing. */
async function checkEndpoint(db: StateDb, accountId: string, id: string | null | undefined): Promise<string | null> {
  if (id == null) return null;
  const rows = isUuid(id) ? await db.all(`SELECT id FROM webhook_endpoints WHERE id = $1 AND account_id = $2`, [id, accountId]) : [];
  if (rows.length === 0) throw invalid('webhook_endpoint_id', `webhook_endpoint_id ${id} is not a webhook endpoint of this account.`);
  return id;
}

export async function createMonitor(db: StateDb, accountId: string, body: unknown, now: Date): Promise<MonitorRecord> {
  const b = parseBody(createMonitorBody, body);
  const targetValue = checkTarget(b.target_type, b.target_value);
  const signals = checkSignals(b.signals);
  const endpointId = await checkEndpoint(db, accountId, b.webhook_endpoint_id);
  const id = randomUUID();
  const ts = now.toISOString();
  // The count and the insert in one transaction: concurrent creations cannot pass the limit together.
  await db.transaction(async (tx) => {
    const [{ n }] = await tx.all(`SELECT count(*) AS n FROM monitors WHERE account_id = $1`, [accountId]);
    if (Number(n) >= MAX_MONITORS_PER_ACCOUNT) {
      throw conflict(`This account has ${MAX_MONITORS_PER_ACCOUNT} monitors, the most it may hold; delete one first.`);
    }
    await tx.run(
      `INSERT INTO monitors (id, account_id, name, target_type, target_value, signals, materiality, status, webhook_endpoint_id, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'active', $8, $9, $9)`,
      [id, accountId, b.name, b.target_type, targetValue, JSON.stringify(signals), b.materiality, endpointId, ts],
    );
  });
  return getMonitor(db, accountId, id);
}

export async function getMonitor(db: StateDb, accountId: string, id: string): Promise<MonitorRecord> {
  const rows = isUuid(id) ? await db.all(`SELECT * FROM monitors WHERE id = $1 AND account_id = $2`, [id, accountId]) : [];
  if (rows.length === 0) throw notOwned('monitor', id);
  return rowToMonitor(rows[0]);
}

export async function patchMonitor(db: StateDb, accountId: string, id: string, body: unknown, now: Date): Promise<MonitorRecord> {
  await getMonitor(db, accountId, id);
  const b = parseBody(patchMonitorBody, body);
  const sets: string[] = [];
  const params: unknown[] = [id, accountId];
  const set = (col: string, v: unknown) => {
    params.push(v);
    sets.push(`${col} = $${params.length}`);
  };
  if (b.name !== undefined) set('name', b.name);
  if (b.status !== undefined) set('status', b.status);
  if (b.signals !== undefined) set('signals', JSON.stringify(checkSignals(b.signals)));
  if (b.materiality !== undefined) set('materiality', b.materiality);
  if (b.webhook_endpoint_id !== undefined) set('webhook_endpoint_id', await checkEndpoint(db, accountId, b.webhook_endpoint_id));
  set('updated_at', now.toISOString());
  await db.run(`UPDATE monitors SET ${sets.join(', ')} WHERE id = $1 AND account_id = $2`, params);
  return getMonitor(db, accountId, id);
}

/**
 * Removes the monitor and its alerts; deliveries still owed for it are closed as `failed` (the log keeps
 * them) because a deleted monitor should stop notifying.
 */
export async function deleteMonitor(db: StateDb, accountId: string, id: string, now: Date): Promise<MonitorRecord> {
  const m = await getMonitor(db, accountId, id);
  await db.transaction(async (tx) => {
    await closePendingDeliveries(tx, 'monitor_id', id, 'monitor deleted', now);
    await tx.run(`DELETE FROM alerts WHERE monitor_id = $1`, [id]);
    await tx.run(`DELETE FROM monitors WHERE id = $1 AND account_id = $2`, [id, accountId]);
  });
  return m;
}

/** Newest first, cursor-paged. */
export async function listMonitors(db: StateDb, accountId: string, limit: number, after: Keyset | null) {
  const r = await accountPage(db, 'monitors', accountId, {}, limit, after);
  return { records: r.rows.map(rowToMonitor), hasMore: r.hasMore };
}
