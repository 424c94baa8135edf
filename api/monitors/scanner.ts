import { randomUUID } from 'node:crypto';
import type { EventSnapshot } from '../webhooks/payload.ts';
import { placeholders, rowsOf, type StateDb } from '../webhooks/state-port.ts';
import { MonitorIndex, type MonitorRule } from './matcher.ts';
import { rowToRule } from './monitor-record.ts';

/** Reads events of the feed after a (seq, id) keyset position, in (seq, id) order. */
export type EventReader = (after: { seq: number; id: string }, limit: number) => Promise<(EventSnapshot & { seq: number })[]>;

export interface ScanResult {
  events: number;
  alerts: number;
  deliveries: number;
}

/** Alert rows per INSERT: keeps the statement's parameter list small. */
const INSERT_CHUNK = 200;

/**
 * The matcher stage of the worker: reads events past its high-water mark, matches them against the active
 * monitors, and writes the alerts (one per monitor and event: the unique key makes re-runs no-ops), their
 * deliveries and the new high-water mark in ONE state transaction, so a crash never loses or doubles one.
 */
export class MonitorScanner {
  private running: Promise<ScanResult> | null = null;

  constructor(
    private readonly o: { state: StateDb; readEvents: EventReader; now: () => Date; batchSize?: number },
  ) {}

  async position(): Promise<{ seq: number; id: string }> {
    const rows = await rowsOf<{ last_seq: number | bigint; last_event_id: string }>(this.o.state, 
      `SELECT last_seq, last_event_id FROM monitor_scan_state WHERE id = 1`,
    );
    return rows[0] ? { seq: Number(rows[0].last_seq), id: rows[0].last_event_id } : { seq: -1, id: '' };
  }

  /** Processes every event currently past the high-water mark. Concurrent calls share one run. */
  scan(): Promise<ScanResult> {
    if (!this.running) {
      this.running = this.scanAll().finally(() => {
        this.running = null;
      });
    }
    return this.running;
  }

  private async scanAll(): Promise<ScanResult> {
    const total: ScanResult = { events: 0, alerts: 0, deliveries: 0 };
    const batch = this.o.batchSize ?? 1000;
    for (;;) {
      const after = await this.position();
      const events = await this.o.readEvents(after, batch);
      if (events.length === 0) return total;
      const index = await this.loadIndex();
      const r = await this.processBatch(index, events);
      total.events += events.length;
      total.alerts += r.alerts;
      total.deliveries += r.deliveries;
      if (events.length < batch) return total;
    }
  }

  private async loadIndex(): Promise<MonitorIndex> {
    const rows = await rowsOf<Record<string, unknown>>(this.o.state, 
      `SELECT m.*, e.status AS endpoint_status FROM monitors m
       LEFT JOIN webhook_endpoints e ON e.id = m.webhook_endpoint_id
       WHERE m.status = 'active'`,
    );
    return new MonitorIndex(
      rows.map((r) => ({ ...rowToRule(r), endpointActive: r.endpoint_status === 'active' }) as MonitorRule & { endpointActive: boolean }),
    );
  }

  private async processBatch(index: MonitorIndex, events: (EventSnapshot & { seq: number })[]) {
    const now = this.o.now().toISOString();
    type Planned = { alertId: string; deliveryId: string | null; m: MonitorRule & { endpointActive?: boolean }; e: EventSnapshot };
    const planned: Planned[] = [];
    for (const e of events) {
      for (const m of index.match(e)) {
        const withDelivery = m.webhook_endpoint_id && (m as { endpointActive?: boolean }).endpointActive;
        planned.push({ alertId: randomUUID(), deliveryId: withDelivery ? randomUUID() : null, m, e });
      }
    }
    const last = events[events.length - 1];
    return this.o.state.transaction(async (tx) => {
      let alerts = 0;
      let deliveries = 0;
      for (let i = 0; i < planned.length; i += INSERT_CHUNK) {
        const chunk = planned.slice(i, i + INSERT_CHUNK);
        const params: unknown[] = [];
        const values = chunk.map((p) => {
          const start = params.length;
          params.push(p.alertId, p.m.account_id, p.m.id, p.e.id, JSON.stringify(p.e), p.deliveryId, now);
          return `(${placeholders(7, start)})`;
        });
        const inserted = await rowsOf<{ id: string }>(tx, 
          `INSERT INTO alerts (id, account_id, monitor_id, event_id, event_json, delivery_id, created_at)
           VALUES ${values.join(', ')} ON CONFLICT DO NOTHING RETURNING id`,
          params,
        );
        alerts += inserted.length;
        const fresh = new Set(inserted.map((r) => r.id));
        // Deliveries only for alerts that are new: a re-run of the matcher must not re-notify.
        const owed = chunk.filter((p) => p.deliveryId && fresh.has(p.alertId));
        if (owed.length) {
          const dparams: unknown[] = [];
          const dvalues = owed.map((p) => {
            const start = dparams.length;
            dparams.push(p.deliveryId, p.m.account_id, p.m.webhook_endpoint_id, p.m.id, p.alertId, p.e.id, p.e.event_type, JSON.stringify(p.e), now);
            // next_attempt_at = created_at: the first attempt is due at once.
            return `(${placeholders(9, start)}, 'pending', 0, 0, $${start + 9}, $${start + 9})`;
          });
          await tx.run(
            `INSERT INTO webhook_deliveries (id, account_id, endpoint_id, monitor_id, alert_id, event_id, type, event_json, created_at,
                                             status, attempts, schedule_step, next_attempt_at, updated_at)
             VALUES ${dvalues.join(', ')}`,
            dparams,
          );
          deliveries += owed.length;
        }
      }
      await tx.run(
        `INSERT INTO monitor_scan_state (id, last_seq, last_event_id, updated_at) VALUES (1, $1, $2, $3)
         ON CONFLICT (id) DO UPDATE SET last_seq = excluded.last_seq, last_event_id = excluded.last_event_id, updated_at = excluded.updated_at`,
        [last.seq, last.id, now],
      );
      return { alerts, deliveries };
    });
  }
}
