import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import { createEndpointBody, type EndpointRecord } from '../../schemas/records/webhooks.ts';
import { blockedAddressReason } from './address-guard.ts';
import { parseBody } from './body.ts';
import { testEvent, TEST_EVENT_TYPE } from './payload.ts';
import { conflict, invalid, isUuid, notOwned } from './errors.ts';
import { generateSecret } from './signer.ts';
import { closePendingDeliveries } from './delivery-service.ts';
import { accountPage, type Keyset } from './paging.ts';
import { type HostLookup, resolveTargets } from './sender.ts';
import type { StateDb } from './state-port.ts';

/** How long the previous secret keeps signing after a rotation, so receivers can switch without a gap. */
const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

function rowToEndpoint(r: Record<string, unknown>, withSecret: boolean, now: Date): EndpointRecord {
  const overlap = r.previous_secret_expires_at && String(r.previous_secret_expires_at) > now.toISOString() ? String(r.previous_secret_expires_at) : null;
  return {
    id: String(r.id),
    url: String(r.url),
    ...(withSecret ? { secret: String(r.secret) } : {}),
    description: String(r.description ?? ''),
    status: String(r.status) as EndpointRecord['status'],
    previous_secret_expires_at: overlap,
    created_at: String(r.created_at),
  };
}

/** https with a host and no credentials; anything else is refused up front (400), not at delivery time. */
function checkUrl(raw: string): string {
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    throw invalid('url', 'url is not a valid absolute URL.');
  }
  if (u.protocol !== 'https:') throw invalid('url', 'url must use https.');
  if (!u.hostname) throw invalid('url', 'url has no host.');
  if (u.username || u.password) throw invalid('url', 'url must not carry credentials.');
  u.hash = '';
  return u.toString();
}

/** How the receiver's host is vetted at registration: `WEBHOOK_ALLOW_HOSTS` and, for host names, a resolver. */
export interface HostCheck {
  allowHosts: Set<string>;
  /** Resolves host names at registration; without it only IP literals are checked then (send time checks all). */
  lookup?: HostLookup;
}

/** How long registration waits for DNS before accepting the name unchecked (it is checked again at every send). */
const REGISTRATION_LOOKUP_MS = 3000;

/**
 * Refuses (400) a receiver that is an internal address or resolves to one now. A name that does not resolve yet is
 * accepted: DNS may be set up after registration, and every send resolves and checks again.
 */
async function checkHost(url: string, check: HostCheck): Promise<void> {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (check.allowHosts.has(host)) return;
  if (isIP(host)) {
    const reason = blockedAddressReason(host);
    if (reason) throw invalid('url', `url is refused: ${reason}.`);
    return;
  }
  if (!check.lookup) return;
  const lookup = check.lookup;
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    resolveTargets(host, check.allowHosts, lookup).then(
      () => null,
      (err: Error) => err.message,
    ),
    new Promise<null>((r) => {
      timer = setTimeout(() => r(null), REGISTRATION_LOOKUP_MS);
    }),
  ]);
  clearTimeout(timer);
  if (outcome?.startsWith('refused:')) throw invalid('url', `url is ${outcome}.`);
}

export async function createEndpoint(db: StateDb, accountId: string, body: unknown, now: Date, hostCheck?: HostCheck): Promise<EndpointRecord> {
  const b = parseBody(createEndpointBody, body);
  const url = checkUrl(b.url);
  await checkHost(url, hostCheck ?? { allowHosts: new Set() });
  const id = randomUUID();
  const ts = now.toISOString();
  await db.run(
    `INSERT INTO webhook_endpoints (id, account_id, url, description, status, secret, created_at, updated_at)
     VALUES ($1, $2, $3, $4, 'active', $5, $6, $6)`,
    [id, accountId, url, b.description, generateSecret(), ts],
  );
  return rowToEndpoint(await endpointRow(db, accountId, id), true, now);
}

async function endpointRow(db: StateDb, accountId: string, id: string): Promise<Record<string, unknown>> {
  const rows = isUuid(id) ? await db.all(`SELECT * FROM webhook_endpoints WHERE id = $1 AND account_id = $2`, [id, accountId]) : [];
  if (rows.length === 0) throw notOwned('webhook endpoint', id);
  return rows[0];
}

/** Newest first, cursor-paged; secrets are never listed. */
export async function listEndpoints(db: StateDb, accountId: string, limit: number, after: Keyset | null, now: Date) {
  const r = await accountPage(db, 'webhook_endpoints', accountId, {}, limit, after);
  return { records: r.rows.map((row) => rowToEndpoint(row, false, now)), hasMore: r.hasMore };
}

/** Deleting an endpoint closes what is still owed to it and detaches the monitors that pointed at it. */
export async function deleteEndpoint(db: StateDb, accountId: string, id: string, now: Date): Promise<EndpointRecord> {
  const row = await endpointRow(db, accountId, id);
  await db.transaction(async (tx) => {
    await closePendingDeliveries(tx, 'endpoint_id', id, 'endpoint deleted', now);
    await tx.run(`UPDATE monitors SET webhook_endpoint_id = NULL, updated_at = $2 WHERE webhook_endpoint_id = $1`, [id, now.toISOString()]);
    await tx.run(`DELETE FROM webhook_endpoints WHERE id = $1 AND account_id = $2`, [id, accountId]);
  });
  return rowToEndpoint(row, false, now);
}

/** New secret now; the old one keeps signing alongside for ROTATION_OVERLAP_MS. Returns the new secret once. */
export async function rotateSecret(db: StateDb, accountId: string, id: string, now: Date): Promise<EndpointRecord> {
  await endpointRow(db, accountId, id);
  await db.run(
    `UPDATE webhook_endpoints SET previous_secret = secret, previous_secret_expires_at = $3, secret = $4, updated_at = $5
     WHERE id = $1 AND account_id = $2`,
    [id, accountId, new Date(now.getTime() + ROTATION_OVERLAP_MS).toISOString(), generateSecret(), now.toISOString()],
  );
  return rowToEndpoint(await endpointRow(db, accountId, id), true, now);
}

/** Queues a signed test delivery (type `webhook.test`, no monitor) due immediately; returns its id. */
export async function queueTestDelivery(db: StateDb, accountId: string, id: string, now: Date): Promise<string> {
  const row = await endpointRow(db, accountId, id);
  if (row.status !== 'active') throw conflict(`Webhook endpoint ${id} is ${String(row.status)}; register a new endpoint.`);
  const deliveryId = randomUUID();
  const ts = now.toISOString();
  const event = testEvent(randomUUID(), now);
  await db.run(
    `INSERT INTO webhook_deliveries (id, account_id, endpoint_id, monitor_id, alert_id, event_id, type, event_json, status,
                                     attempts, schedule_step, next_attempt_at, created_at, updated_at)
     VALUES ($1, $2, $3, NULL, NULL, $4, $5, $6, 'pending', 0, 0, $7, $7, $7)`,
    [deliveryId, accountId, id, event.id, TEST_EVENT_TYPE, JSON.stringify(event), ts],
  );
  return deliveryId;
}
