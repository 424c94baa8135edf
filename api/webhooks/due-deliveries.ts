import { randomUUID } from 'node:crypto';
import { rowsOf, type StateDb } from './state-port.ts';

/** A delivery due now, with what its attempt needs from its endpoint. */
export interface DueDelivery {
  id: string;
  endpoint_id: string;
  monitor_id: string | null;
  event_id: string;
  type: string;
  event_json: string;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
}

export interface DuePick {
  now: Date;
  /** Deliveries to pick at most, all endpoints together. */
  limit: number;
  /** Deliveries one endpoint may hold claimed or in flight at once. */
  perEndpoint: number;
  /** Deliveries each endpoint already holds (claimed earlier and not yet recorded). */
  busy: ReadonlyMap<string, number>;
}

/** What an attempt needs from its endpoint. */
type EndpointTarget = Pick<DueDelivery, 'url' | 'secret' | 'previous_secret' | 'previous_secret_expires_at'>;

/** An endpoint with deliveries due: its oldest due ones (at most the per-endpoint cap, oldest first) and its target. */
interface DueEndpoint extends EndpointTarget {
  endpoint_id: string;
  ids: string[];
  oldest: string;
}

/** The fair pick: delivery ids in send order, and the target of each endpoint picked. */
export interface Picked {
  ids: string[];
  targets: Map<string, EndpointTarget>;
}

/**
 * The due deliveries, picked fairly: the query takes each endpoint's oldest due deliveries, at most the
 * per-endpoint cap, and the pick goes turn by turn across endpoints (round-robin: every endpoint's first, then
 * every endpoint's second), minus the slots each endpoint already holds. So an endpoint with 20,000 due
 * deliveries takes at most its cap, and a healthy endpoint's single delivery comes in the first pick however large
 * the other backlogs are. (Reading "the oldest N rows" and capping afterwards let one backlog crowd every other
 * endpoint out of the window.) On DuckDB a grouped min_by rather than row_number() over all due rows: no sort of the
 * backlog (`dialect.firstN`; PostgreSQL sorts within each endpoint's group). The endpoint's columns are one value per
 * group: min() takes it on both engines (PostgreSQL 15 has no any_value).
 */
export async function pickDue(db: StateDb, p: DuePick): Promise<Picked> {
  const picked: Picked = { ids: [], targets: new Map() };
  if (p.limit <= 0) return picked;
  // The count of firstN is in the SQL text: it is the worker's own integer option, never user input.
  const endpoints = await rowsOf<DueEndpoint>(
    db,
    `SELECT d.endpoint_id, min(d.next_attempt_at) AS oldest,
            ${db.dialect.firstN('d.id', 'd.next_attempt_at || d.id', p.perEndpoint)} AS ids,
            min(e.url) AS url, min(e.secret) AS secret, min(e.previous_secret) AS previous_secret,
            min(e.previous_secret_expires_at) AS previous_secret_expires_at
     FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
     WHERE d.status = 'pending' AND d.next_attempt_at IS NOT NULL AND d.next_attempt_at <= $1 AND e.status = 'active'
     GROUP BY d.endpoint_id
     ORDER BY oldest, d.endpoint_id`,
    [p.now.toISOString()],
  );
  for (let turn = 0; turn < p.perEndpoint && picked.ids.length < p.limit; turn++) {
    for (const e of endpoints) {
      if (picked.ids.length >= p.limit) break;
      if (turn >= e.ids.length || turn >= p.perEndpoint - (p.busy.get(e.endpoint_id) ?? 0)) continue;
      picked.ids.push(e.ids[turn]);
      picked.targets.set(e.endpoint_id, e);
    }
  }
  return picked;
}

/**
 * Claims the picked deliveries and writes their attempts (`sending`) in ONE transaction, before any request
 * leaves. Returns each delivery claimed (in pick order) with its attempt id; one claimed meanwhile elsewhere is left out.
 * On PostgreSQL, workers of other processes pick the same due rows: the claim locks them FOR UPDATE SKIP LOCKED, so a
 * row another worker is claiming is skipped rather than waited for, and one it has claimed no longer matches.
 */
export async function claimDue(db: StateDb, picked: Picked, now: Date, workerId: string): Promise<{ delivery: DueDelivery; attemptId: string }[]> {
  if (!picked.ids.length) return [];
  const ts = now.toISOString();
  const claimable = `status = 'pending' AND next_attempt_at IS NOT NULL`;
  const ids = db.dialect.skipLocked
    ? `SELECT id FROM webhook_deliveries WHERE id IN (${db.dialect.jsonList(1)}) AND ${claimable}${db.dialect.skipLocked}`
    : db.dialect.jsonList(1);
  const claimed = await db.transaction(async (tx) => {
    const rows = await rowsOf<Omit<DueDelivery, keyof EndpointTarget> & { attempts: number }>(
      tx,
      `UPDATE webhook_deliveries SET attempts = attempts + 1, next_attempt_at = NULL, updated_at = $2
       WHERE id IN (${ids}) AND ${claimable}
       RETURNING id, endpoint_id, monitor_id, event_id, type, event_json, attempts`,
      [JSON.stringify(picked.ids), ts],
    );
    if (!rows.length) return [];
    const attempts = rows.map((r) => ({ id: randomUUID(), delivery_id: r.id, attempt_no: Number(r.attempts) }));
    const attemptRows = tx.dialect.jsonRows({ id: 'VARCHAR', delivery_id: 'VARCHAR', attempt_no: 'INTEGER' });
    await tx.run(
      `INSERT INTO webhook_attempts (id, delivery_id, attempt_no, outcome, started_at, worker_id)
       SELECT r.id, r.delivery_id, r.attempt_no, 'sending', $2, $3 FROM ${attemptRows}`,
      [JSON.stringify(attempts), ts, workerId],
    );
    return rows.map((r, i) => ({ row: r, attemptId: attempts[i].id }));
  });
  const order = new Map(picked.ids.map((id, i) => [id, i]));
  return claimed
    .sort((a, b) => (order.get(a.row.id) ?? 0) - (order.get(b.row.id) ?? 0))
    .flatMap(({ row, attemptId }) => {
      const target = picked.targets.get(row.endpoint_id);
      if (!target) return [];
      const { attempts: _attempts, ...delivery } = row;
      return [{ delivery: { ...delivery, ...target, endpoint_id: row.endpoint_id }, attemptId }];
    });
}
