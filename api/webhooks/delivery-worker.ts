import { randomUUID } from 'node:crypto';
import PQueue from 'p-queue';
import { parseAllowHosts } from './address-guard.ts';
import { claimDue, type DueDelivery, pickDue } from './due-deliveries.ts';
import { buildBody, type EventSnapshot } from './payload.ts';
import { sendWebhook, type SendOutcome, type SendRequest } from './sender.ts';
import { signatureHeader } from './signer.ts';
import { rowsOf, type StateDb } from './state-port.ts';
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

/** A worker refreshes its heartbeat this often (shared store only) … */
const HEARTBEAT_MS = 10_000;
/** … and one silent for this long is dead: its `sending` attempts are recovered by the others (like LOCK_STALE_MS). */
const WORKER_STALE_MS = 30_000;

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
  /** Deliveries claimed and not yet recorded, at most: the sends in flight plus the next ones ready to go. */
  private readonly maxHeld: number;
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<number> | null = null;
  private tickAgain = false;
  /** Called whenever an attempt is recorded (runDue waits on it). */
  private settledWaiters: (() => void)[] = [];
  /** Attempts claimed and not yet recorded (drain waits for them). */
  private readonly attempts = new Set<Promise<void>>();
  /** Names this worker on the attempts it claims, so workers of other processes leave them alone. */
  readonly workerId = randomUUID();
  /** When recover() last ran (the injected clock); on a shared store it runs again every WORKER_STALE_MS. */
  private recoveredAt: number | null = null;
  private beatAt: number | null = null;
  private outcomes: { d: DueDelivery; attemptId: string; outcome: SendOutcome; resolve: () => void; reject: (e: unknown) => void }[] = [];
  private flushing: Promise<void> | null = null;

  constructor(private readonly o: DeliveryWorkerOptions) {
    this.concurrency = o.concurrency ?? 8;
    this.perEndpoint = o.perEndpoint ?? 2;
    // Claiming costs one state transaction whatever its size, so claims come in batches: the sends in flight plus as
    // many ready behind them (measured: claiming 8 at a time capped delivery at ~170/s, the store's round trips).
    this.maxHeld = this.concurrency * 16;
    this.queue = new PQueue({ concurrency: this.concurrency });
    this.allow = parseAllowHosts(o.allowHosts);
  }

  /**
   * Settles attempts a dead worker left in flight (called before the first tick; on a shared store also every
   * WORKER_STALE_MS). The embedded store has one owner, so every `sending` attempt not in this worker's hands is a
   * previous process's; on PostgreSQL only those of workers whose heartbeat is stale (or that predate heartbeats).
   */
  async recover(): Promise<number> {
    const now = this.o.now();
    this.recoveredAt = now.getTime();
    const shared = this.o.state.dialect.shared;
    if (shared) await this.beat(now);
    const stale = await rowsOf<{ id: string; delivery_id: string; started_at: string }>(
      this.o.state,
      shared
        ? `SELECT id, delivery_id, started_at FROM webhook_attempts
           WHERE outcome = 'sending' AND (worker_id IS NULL OR worker_id NOT IN (SELECT id FROM webhook_workers WHERE heartbeat_at > $1))`
        : `SELECT id, delivery_id, started_at FROM webhook_attempts WHERE outcome = 'sending'`,
      shared ? [iso(new Date(now.getTime() - WORKER_STALE_MS))] : [],
    );
    for (const a of stale) {
      if (this.inFlight.has(a.delivery_id)) continue;
      await this.o.state.transaction(async (tx) => {
        // Conditional: of two workers recovering the same attempt, one settles it and schedules the retry.
        const settled = await tx.all(
          `UPDATE webhook_attempts SET outcome = 'interrupted', error = $2, finished_at = $3 WHERE id = $1 AND outcome = 'sending' RETURNING id`,
          [a.id, 'interrupted by a restart; outcome unknown, not re-sent under this id', iso(now)],
        );
        if (settled.length) await this.scheduleAfterFailure(tx, a.delivery_id, a.started_at, null, 'interrupted by a restart', now);
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

  /**
   * Claims due deliveries up to the free capacity and queues their sends, without waiting for them: a send that
   * hangs holds its slot until its own time-out, never the scheduler. Returns how many were queued.
   */
  async tick(): Promise<number> {
    if (this.ticking) {
      // A tick is running: one more runs right after it, so a slot freed meanwhile is not left idle.
      this.tickAgain = true;
      return this.ticking;
    }
    this.ticking = this.claimAndQueue().finally(() => {
      this.ticking = null;
      if (this.tickAgain) {
        this.tickAgain = false;
        this.tick().catch((err) => this.o.log?.(`webhook scheduler: ${(err as Error).message}`));
      }
    });
    return this.ticking;
  }

  /** This worker's heartbeat on a shared store: the others recover its attempts only once it stops. */
  private async beat(now: Date): Promise<void> {
    this.beatAt = now.getTime();
    // A worker long gone is as dead without its row: the table holds live workers and the recently stopped.
    await this.o.state.run(`DELETE FROM webhook_workers WHERE heartbeat_at < $1`, [iso(new Date(now.getTime() - 10 * WORKER_STALE_MS))]);
    await this.o.state.run(
      `INSERT INTO webhook_workers (id, heartbeat_at) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET heartbeat_at = excluded.heartbeat_at`,
      [this.workerId, iso(now)],
    );
  }

  private async claimAndQueue(): Promise<number> {
    const now = this.o.now();
    const shared = this.o.state.dialect.shared;
    if (this.recoveredAt === null || (shared && now.getTime() - this.recoveredAt >= WORKER_STALE_MS)) await this.recover();
    else if (shared && (this.beatAt === null || now.getTime() - this.beatAt >= HEARTBEAT_MS)) await this.beat(now);
    const picked = await pickDue(this.o.state, {
      now,
      limit: this.maxHeld - this.inFlight.size,
      perEndpoint: this.perEndpoint,
      busy: this.perEndpointInFlight,
    });
    const claimed = await claimDue(this.o.state, { ...picked, ids: picked.ids.filter((id) => !this.inFlight.has(id)) }, now, this.workerId);
    for (const { delivery: d, attemptId } of claimed) {
      this.inFlight.add(d.id);
      this.perEndpointInFlight.set(d.endpoint_id, (this.perEndpointInFlight.get(d.endpoint_id) ?? 0) + 1);
      const running = this.attempt(d, attemptId);
      this.attempts.add(running);
      void running.finally(() => this.attempts.delete(running));
    }
    const queued = claimed.length;
    return queued;
  }

  /**
   * One attempt: the send holds one of the `concurrency` slots; the outcome is then recorded outside it (group
   * commit), so a slot never waits on the state store (measured: holding it through the commit capped the
   * outcome batches at the slot count and delivery at ~160/s).
   */
  private async attempt(d: DueDelivery, attemptId: string): Promise<void> {
    try {
      const outcome = (await this.queue.add(() => this.send(d, attemptId))) as SendOutcome;
      await this.record(d, attemptId, outcome);
    } catch (err) {
      // Only a state-store failure lands here; the attempt stays `sending` and recover() settles it.
      this.o.log?.(`webhook delivery ${d.id}: ${(err as Error).message}`);
    } finally {
      this.inFlight.delete(d.id);
      const n = (this.perEndpointInFlight.get(d.endpoint_id) ?? 1) - 1;
      if (n <= 0) this.perEndpointInFlight.delete(d.endpoint_id);
      else this.perEndpointInFlight.set(d.endpoint_id, n);
      this.settled();
    }
  }

  private async send(d: DueDelivery, attemptId: string): Promise<SendOutcome> {
    const timestamp = iso(this.o.now());
    const event = JSON.parse(d.event_json) as EventSnapshot;
    const body = buildBody({ type: d.type, monitorId: d.monitor_id, deliveryId: d.id, event });
    const secrets = [d.secret];
    if (d.previous_secret && d.previous_secret_expires_at && d.previous_secret_expires_at > timestamp) secrets.push(d.previous_secret);
    try {
      return await (this.o.send ?? sendWebhook)({
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
    } catch (err) {
      return { status: null, error: (err as Error).message, responseExcerpt: '' };
    }
  }

  /** A slot came free: wake runDue, and refill the batch once it is half spent (background mode). */
  private settled(): void {
    const waiters = this.settledWaiters;
    this.settledWaiters = [];
    for (const w of waiters) w();
    if (this.timer && this.inFlight.size <= this.maxHeld / 2) {
      this.tick().catch((err) => this.o.log?.(`webhook scheduler: ${(err as Error).message}`));
    }
  }

  private nextSettled(): Promise<void> {
    return new Promise((resolve) => this.settledWaiters.push(resolve));
  }

  /**
   * Outcomes are group-committed: those that arrive while a write is running go together in the next
   * transaction. A crash before the write leaves the attempt `sending`, which recover() treats like any
   * interrupted attempt, so batching costs no guarantee.
   */
  private record(d: DueDelivery, attemptId: string, outcome: SendOutcome): Promise<void> {
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
            const shape = tx.dialect.jsonRows({ id: 'VARCHAR', delivery_id: 'VARCHAR', status: 'INTEGER' });
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

  private async recordFailure(tx: StateTx, d: DueDelivery, attemptId: string, outcome: SendOutcome): Promise<void> {
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
    while (this.attempts.size) await Promise.all([...this.attempts]);
  }

  /**
   * Sends until nothing is due at the current clock and nothing is in flight (tests and the bench). Refills the
   * batch as it empties rather than after all of it: one slow send does not idle the other slots.
   */
  async runDue(): Promise<void> {
    for (;;) {
      const queued = await this.tick();
      if (queued === 0 && this.inFlight.size === 0) return;
      // Claimed nothing: wait for one slot; otherwise refill when half the batch is spent. The sizes are read before
      // each wait and a settlement wakes waiters later, so no wake-up is missed.
      if (queued === 0) await this.nextSettled();
      else while (this.inFlight.size > this.maxHeld / 2) await this.nextSettled();
    }
  }

  /** Polls for due deliveries in the background (the server's mode), and refills as sends finish. */
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
