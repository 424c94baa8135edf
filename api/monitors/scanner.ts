import { createHash, randomUUID } from 'node:crypto';
import type { EventSnapshot } from '../webhooks/payload.ts';
import { rowsOf, type StateDb } from '../webhooks/state-port.ts';
import { MonitorIndex, type MonitorRule } from './matcher.ts';
import { rowToRule } from './monitor-record.ts';

/** Reads events of the feed after a (seq, id) keyset position, in (seq, id) order. */
export type EventReader = (after: { seq: number; id: string }, limit: number) => Promise<(EventSnapshot & { seq: number })[]>;

export interface ScanResult {
  events: number;
  alerts: number;
  deliveries: number;
}

/** Alert rows per INSERT statement. */
const INSERT_CHUNK = 2000;

const text = (cols: string[]) => Object.fromEntries(cols.map((c) => [c, 'VARCHAR' as const]));
const ALERT_COLUMNS = text(['id', 'account_id', 'monitor_id', 'event_id', 'event_json', 'delivery_id', 'created_at']);
const DELIVERY_COLUMNS = text(['id', 'account_id', 'endpoint_id', 'monitor_id', 'alert_id', 'event_id', 'type', 'event_json', 'created_at']);

/**
 * The alert id is a function of (monitor, event), UUID-shaped: the primary key then enforces "at most one
 * alert per monitor and event" with no second index, and a re-run computes the same ids.
 */
function alertId(monitorId: string, eventId: string): string {
  const h = createHash('sha256').update(`${monitorId}\u0000${eventId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16], 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * The matcher stage of the worker: reads events past its high-water mark, matches them against the active
 * monitors, and writes the alerts (one per monitor and event: the unique key makes re-runs no-ops), their
 * deliveries and the new high-water mark in ONE state transaction, so a crash never loses or doubles one.
 */
export class MonitorScanner {
  private running: Promise<ScanResult> | null = null;

  constructor(private readonly o: { state: StateDb; readEvents: EventReader; now: () => Date; batchSize?: number }) {}

  async position(): Promise<{ seq: number; id: string }> {
    const rows = await rowsOf<{ last_seq: number | bigint; last_event_id: string }>(
      this.o.state,
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
    const rows = await rowsOf<Record<string, unknown>>(
      this.o.state,
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
    const alertRows: Record<string, unknown>[] = [];
    const deliveryRows: Record<string, unknown>[] = [];
    for (const e of events) {
      const matched = index.match(e);
      if (!matched.length) continue;
      const eventJson = JSON.stringify(e);
      for (const m of matched) {
        const withDelivery = m.webhook_endpoint_id && (m as { endpointActive?: boolean }).endpointActive;
        const alert = {
          id: alertId(m.id, e.id),
          account_id: m.account_id,
          monitor_id: m.id,
          event_id: e.id,
          event_json: eventJson,
          delivery_id: withDelivery ? randomUUID() : null,
          created_at: now,
        };
        alertRows.push(alert);
        if (withDelivery) {
          deliveryRows.push({
            id: alert.delivery_id,
            account_id: m.account_id,
            endpoint_id: m.webhook_endpoint_id,
            monitor_id: m.id,
            alert_id: alert.id,
            event_id: e.id,
            type: e.event_type,
            event_json: eventJson,
            created_at: now,
          });
        }
      }
    }
    const last = events[events.length - 1];
    return this.o.state.transaction(async (tx) => {
      let alerts = 0;
      let deliveries = 0;
      for (let i = 0; i < alertRows.length; i += INSERT_CHUNK) {
        const chunk = alertRows.slice(i, i + INSERT_CHUNK);
        const inserted = await rowsOf<{ id: string }>(
          tx,
          `INSERT INTO alerts (id, account_id, monitor_id, event_id, event_json, delivery_id, created_at)
           SELECT r.id, r.account_id, r.monitor_id, r.event_id, r.event_json, r.delivery_id, r.created_at
           FROM ${tx.dialect.jsonRows(ALERT_COLUMNS)}
           ON CONFLICT DO NOTHING RETURNING id`,
          [JSON.stringify(chunk)],
        );
        alerts += inserted.length;
        const fresh = new Set(inserted.map((r) => r.id));
        // Deliveries only for alerts that are new: a re-run of the matcher must not re-notify.
        const owed = deliveryRows.filter((d) => fresh.has(d.alert_id as string));
        if (owed.length) {
          await tx.run(
            `INSERT INTO webhook_deliveries (id, account_id, endpoint_id, monitor_id, alert_id, event_id, type, event_json, created_at,
                                             status, attempts, schedule_step, next_attempt_at, updated_at)
             SELECT r.id, r.account_id, r.endpoint_id, r.monitor_id, r.alert_id, r.event_id, r.type, r.event_json, r.created_at,
                    'pending', 0, 0, r.created_at, r.created_at
             FROM ${tx.dialect.jsonRows(DELIVERY_COLUMNS)}`,
            [JSON.stringify(owed)],
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
