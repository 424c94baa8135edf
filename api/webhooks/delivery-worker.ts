import { randomUUID } from 'node:crypto';
import PQueue from 'p-queue';
import { parseAllowHosts } from './address-guard.ts';
import { buildBody, type EventSnapshot } from './payload.ts';
import { sendWebhook, type SendOutcome, type SendRequest } from './sender.ts';
import { signatureHeader } from './signer.ts';
import { jsonRows, rowsOf, type StateDb } from './state-port.ts';
import type { StateTx } from '../core/state.ts';

/** Waits before the retries after a failed attempt (docs/api-contract.md): 1 min, 5 min, 30 min, 2 h; then `failed`. */
export const RETRY_SCHEDULE_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 60 * 60_000] as const;

export interface DeliveryWorkerOptions {
  state: StateDb;
  now: () => Date;
  /** `WEBHOOK_ALLOW_HOSTS` setting. */
  allowHosts: string;
  /** `WEBHOOK_TIMEOUT_MS` setting: the whole exchange (connect, TLS, response head, capped body). */
  timeoutMs: number;
  /** Requests in flight at once, all endpoints together. */
  concurrency?: number;
  /** Requests in flight at once to one endpoint: a slow receiver holds at most this many slots. */
  perEndpoint?: number;
  /** How often the scheduler looks for due deliveries when started. */
  pollMs?: number;
  ca?: string | string[];
  /** The transport, replaceable only to observe it; defaults to the real HTTPS sender. */
  send?: (req: SendRequest) => Promise<SendOutcome>;
  log?: (msg: string) => void;
}

interface DueRow {
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

const iso = (d: Date) => d.toISOString();
const plus = (d: Date | string, ms: number) => new Date(new Date(d).getTime() + ms).toISOString();

/**
 * The delivery scheduler. Every attempt is recorded (`sending`) in the same transaction that claims it, before
 * any byte leaves; the outcome is recorded after. A process killed in between leaves a `sending` attempt,
 * which recover() marks `interrupted` and counts as failed: the schedule resumes with a NEW attempt id, so a
 * Svc-Delivery-Id is never sent twice and no owed delivery is forgotten.
 */
export class DeliveryWorker {
  private readonly queue: PQueue;
  private readonly inFlight = new Set<string>();
  private readonly perEndpointInFlight = new Map<string, number>();
  private readonly allow: Set<string>;
  private readonly concurrency: number;
  private readonly perEndpoint: number;
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<number> | null = null;
  private recovered = false;
  private outcomes: { d: DueRow; attemptId: string; outcome: SendOutcome; resolve: () => void; reject: (e: unknown) => void }[] = [];
  private flushing: Promise<void> | null = null;

  constructor(private readonly o: DeliveryWorkerOptions) {
    this.concurrency = o.concurrency ?? 8;
    this.perEndpoint = o.perEndpoint ?? 2;
    this.queue = new PQueue({ concurrency: this.concurrency });
    this.allow = parseAllowHosts(o.allowHosts);
  }

  /** Settles attempts a previous process left in flight (called once before the first tick). */
  async recover(): Promise<number> {
    this.recovered = true;
    const now = this.o.now();
    const stale = await rowsOf<{ id: string; delivery_id: string; started_at: string }>(
      this.o.state,
      `SELECT id, delivery_id, started_at FROM webhook_attempts WHERE outcome = 'sending'`,
    );
    for (const a of stale) {
      if (this.inFlight.has(a.delivery_id)) continue;
      await this.o.state.transaction(async (tx) => {
        await tx.run(`UPDATE webhook_attempts SET outcome = 'interrupted', error = $2, finished_at = $3 WHERE id = $1`, [
          a.id,
          'interrupted by a restart; outcome unknown, not re-sent under this id',
          iso(now),
        ]);
        await this.scheduleAfterFailure(tx, a.delivery_id, a.started_at, null, 'interrupted by a restart', now);
      });
    }
    // A pending delivery with no due time and no attempt in flight cannot happen through this class; heal it anyway.
    await this.o.state.run(
      `UPDATE webhook_deliveries SET next_attempt_at = $1, updated_at = $1
       WHERE status = 'pending' AND next_attempt_at IS NULL
         AND id NOT IN (SELECT delivery_id FROM webhook_attempts WHERE outcome = 'sending')`,
      [iso(now)],
    );
    return stale.length;
  }

  /** Claims due deliveries (up to the free capacity) and queues their sends. Returns how many were queued. */
  async tick(): Promise<number> {
    if (this.ticking) return this.ticking;
    this.ticking = this.claimAndQueue().finally(() => {
      this.ticking = null;
    });
    return this.ticking;
  }

  private async claimAndQueue(): Promise<number> {
    if (!this.recovered) await this.recover();
    const capacity = this.concurrency * 2 - this.queue.size - this.queue.pending;
    if (capacity <= 0) return 0;
    const now = this.o.now();
    const due = await rowsOf<DueRow>(
      this.o.state,
      `SELECT d.id, d.endpoint_id, d.monitor_id, d.event_id, d.type, d.event_json,
              e.url, e.secret, e.previous_secret, e.previous_secret_expires_at
       FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
       WHERE d.status = 'pending' AND d.next_attempt_at IS NOT NULL AND d.next_attempt_at <= $1 AND e.status = 'active'
       ORDER BY d.next_attempt_at, d.id
       LIMIT $2`,
      [iso(now), capacity + this.inFlight.size + 100],
    );
    const picked: DueRow[] = [];
    const perEndpoint = new Map(this.perEndpointInFlight);
    for (const d of due) {
      if (picked.length >= capacity) break;
      if (this.inFlight.has(d.id)) continue;
      const n = perEndpoint.get(d.endpoint_id) ?? 0;
      if (n >= this.perEndpoint) continue;
      perEndpoint.set(d.endpoint_id, n + 1);
      picked.push(d);
    }
    if (!picked.length) return 0;
    // One transaction claims the whole batch and writes its attempts (`sending`) before any request leaves.
    const attempts = await this.o.state.transaction(async (tx) => {
      const claimed = await rowsOf<{ id: string; attempts: number }>(
        tx,
        `UPDATE webhook_deliveries SET attempts = attempts + 1, next_attempt_at = NULL, updated_at = $2
         WHERE id IN (SELECT unnest(from_json($1::JSON, '["VARCHAR"]'))) AND status = 'pending' AND next_attempt_at IS NOT NULL
         RETURNING id, attempts`,
        [JSON.stringify(picked.map((d) => d.id)), iso(now)],
      );
      const rows = claimed.map((c) => ({ id: randomUUID(), delivery_id: c.id, attempt_no: Number(c.attempts) }));
      if (rows.length) {
        await tx.run(
          `INSERT INTO webhook_attempts (id, delivery_id, attempt_no, outcome, started_at)
           SELECT r.id, r.delivery_id, r.attempt_no, 'sending', $2 FROM ${jsonRows({ id: 'VARCHAR', delivery_id: 'VARCHAR', attempt_no: 'INTEGER' })}`,
          [JSON.stringify(rows), iso(now)],
        );
      }
      return new Map(rows.map((r) => [r.delivery_id, r.id]));
    });
    let queued = 0;
    for (const d of picked) {
      const attemptId = attempts.get(d.id);
      if (!attemptId) continue;
      this.inFlight.add(d.id);
      this.perEndpointInFlight.set(d.endpoint_id, (this.perEndpointInFlight.get(d.endpoint_id) ?? 0) + 1);
      queued++;
      void this.queue.add(() => this.attempt(d, attemptId));
    }
    return queued;
  }

  private async attempt(d: DueRow, attemptId: string): Promise<void> {
    try {
      const now = this.o.now();
      const timestamp = iso(now);
      const event = JSON.parse(d.event_json) as EventSnapshot;
      const body = buildBody({ type: d.type, monitorId: d.monitor_id, deliveryId: d.id, event });
      const secrets = [d.secret];
      if (d.previous_secret && d.previous_secret_expires_at && d.previous_secret_expires_at > timestamp) secrets.push(d.previous_secret);
      const outcome = await (this.o.send ?? sendWebhook)({
        url: d.url,
        body,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'filings-lake-webhooks/0.1',
          'svc-event-id': d.event_id,
          'svc-delivery-id': attemptId,
          'svc-timestamp': timestamp,
          'svc-signature': signatureHeader(secrets, timestamp, body),
        },
        timeoutMs: this.o.timeoutMs,
        allowHosts: this.allow,
        ca: this.o.ca,
      });
      await this.record(d, attemptId, outcome);
    } catch (err) {
      // Only a state-store failure lands here; the attempt stays `sending` and recover() settles it.
      this.o.log?.(`webhook delivery ${d.id}: ${(err as Error).message}`);
    } finally {
      this.inFlight.delete(d.id);
      const n = (this.perEndpointInFlight.get(d.endpoint_id) ?? 1) - 1;
      if (n <= 0) this.perEndpointInFlight.delete(d.endpoint_id);
      else this.perEndpointInFlight.set(d.endpoint_id, n);
    }
  }

  /**
   * Outcomes are group-committed: those that arrive while a write is running go together in the next
   * transaction. A crash before the write leaves the attempt `sending`, which recover() treats like any
   * interrupted attempt, so batching costs no guarantee.
   */
  private record(d: DueRow, attemptId: string, outcome: SendOutcome): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.outcomes.push({ d, attemptId, outcome, resolve, reject });
      if (!this.flushing) this.flushing = this.flushOutcomes();
    });
  }

  private async flushOutcomes(): Promise<void> {
    while (this.outcomes.length) {
      const batch = this.outcomes.splice(0, this.outcomes.length);
      try {
        await this.o.state.transaction(async (tx) => {
          const now = iso(this.o.now());
          const ok = batch.filter((b) => b.outcome.status !== null && b.outcome.status >= 200 && b.outcome.status < 300);
          if (ok.length) {
            const rows = JSON.stringify(ok.map((b) => ({ id: b.attemptId, delivery_id: b.d.id, status: b.outcome.status })));
            const shape = jsonRows({ id: 'VARCHAR', delivery_id: 'VARCHAR', status: 'INTEGER' });
            await tx.run(
              `UPDATE webhook_attempts SET outcome = 'success', response_status = r.status, error = NULL, finished_at = $2
               FROM ${shape} WHERE webhook_attempts.id = r.id`,
              [rows, now],
            );
            await tx.run(
              `UPDATE webhook_deliveries SET status = 'success', response_status = r.status, last_error = NULL, next_attempt_at = NULL, updated_at = $2
               FROM ${shape} WHERE webhook_deliveries.id = r.delivery_id AND webhook_deliveries.status = 'pending'`,
              [rows, now],
            );
          }
          for (const b of batch) if (!ok.includes(b)) await this.recordFailure(tx, b.d, b.attemptId, b.outcome);
        });
        for (const b of batch) b.resolve();
      } catch (err) {
        for (const b of batch) b.reject(err);
      }
    }
    this.flushing = null;
  }

  private async recordFailure(tx: StateTx, d: DueRow, attemptId: string, outcome: SendOutcome): Promise<void> {
    const now = this.o.now();
    const error = (outcome.error ?? 'failed') + (outcome.responseExcerpt ? `: ${outcome.responseExcerpt.slice(0, 200)}` : '');
    await tx.run(`UPDATE webhook_attempts SET outcome = 'error', response_status = $2, error = $3, finished_at = $4 WHERE id = $1`, [
      attemptId,
      outcome.status,
      error,
      iso(now),
    ]);
    if (outcome.status === 410) {
      // The receiver says the endpoint is gone for good: stop everything owed to it.
      const reason = 'receiver answered 410 Gone; endpoint disabled';
      await tx.run(`UPDATE webhook_endpoints SET status = 'disabled', disabled_reason = $2, updated_at = $3 WHERE id = $1`, [d.endpoint_id, reason, iso(now)]);
      await tx.run(
        `UPDATE webhook_deliveries SET status = 'failed', response_status = $2, last_error = $3, next_attempt_at = NULL, updated_at = $4
         WHERE id = $1 AND status = 'pending'`,
        [d.id, 410, error, iso(now)],
      );
      await tx.run(
        `UPDATE webhook_deliveries SET status = 'failed', last_error = $2, next_attempt_at = NULL, updated_at = $3
         WHERE endpoint_id = $1 AND status = 'pending' AND next_attempt_at IS NOT NULL`,
        [d.endpoint_id, reason, iso(now)],
      );
      return;
    }
    await this.scheduleAfterFailure(tx, d.id, iso(now), outcome.status, error, now);
  }

  /** After a failed attempt: the next wait of the schedule from `failedAt`, or `failed` when none is left. */
  private async scheduleAfterFailure(tx: StateTx, deliveryId: string, failedAt: string, status: number | null, error: string, now: Date) {
    const rows = await rowsOf<{ schedule_step: number; status: string; endpoint_status: string | null }>(
      tx,
      `SELECT d.schedule_step, d.status, e.status AS endpoint_status
       FROM webhook_deliveries d LEFT JOIN webhook_endpoints e ON e.id = d.endpoint_id WHERE d.id = $1`,
      [deliveryId],
    );
    const row = rows[0];
    if (row?.status !== 'pending') return;
    const step = Number(row.schedule_step);
    const endpointGone = row.endpoint_status !== 'active';
    if (step >= RETRY_SCHEDULE_MS.length || endpointGone) {
      await tx.run(
        `UPDATE webhook_deliveries SET status = 'failed', response_status = $2, last_error = $3, next_attempt_at = NULL, updated_at = $4 WHERE id = $1`,
        [deliveryId, status, endpointGone ? `${error}; endpoint ${row.endpoint_status ?? 'deleted'}` : error, iso(now)],
      );
      return;
    }
    await tx.run(
      `UPDATE webhook_deliveries SET schedule_step = $2, next_attempt_at = $3, response_status = $4, last_error = $5, updated_at = $6 WHERE id = $1`,
      [deliveryId, step + 1, plus(failedAt, RETRY_SCHEDULE_MS[step]), status, error, iso(now)],
    );
  }

  /** Waits until every queued send has been recorded. */
  async drain(): Promise<void> {
    if (this.ticking) await this.ticking;
    await this.queue.onIdle();
  }

  /** Ticks and drains until nothing is due at the current clock (tests and the bench). */
  async runDue(): Promise<void> {
    for (;;) {
      const n = await this.tick();
      await this.drain();
      if (n === 0) return;
    }
  }

  /** Polls for due deliveries in the background (the server's mode). */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      this.tick().catch((err) => this.o.log?.(`webhook scheduler: ${(err as Error).message}`));
    }, this.o.pollMs ?? 1000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.drain();
  }
}
