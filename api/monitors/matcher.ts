import { padCik } from '../../ingest/sources/common/index.ts';
import type { TargetType } from '../../schemas/records/monitors.ts';
import { importanceRank } from './taxonomy.ts';

/** What the matcher needs of a monitor (a row of the `monitors` table, signals parsed). */
export interface MonitorRule {
  id: string;
  account_id: string;
  target_type: TargetType;
  /** Stored normalized (see normalizeTarget), so matching is a plain equality. */
  target_value: string;
  signals: string[];
  materiality: string;
  status: string;
  webhook_endpoint_id: string | null;
}

/** What the matcher needs of an event (a row of the `events` view, `details` parsed). */
export interface MatchableEvent {
  id: string;
  event_type: string;
  importance: string;
  entity_cik: string | null;
  entity_ticker: string | null;
  details: { form?: unknown } | null;
}

/**
 * Canonical form of a target value, applied both when a monitor is saved and when an event is matched:
 * tickers and forms compare case-insensitively, a CIK with or without leading zeros is the same company,
 * event types are exact. Returns null when the value cannot name anything of that type.
 */
export function normalizeTarget(type: TargetType, raw: string): string | null {
  const v = raw.trim();
  if (!v) return null;
  switch (type) {
    case 'ticker':
      return v.toUpperCase();
    case 'cik':
      return padCik(v);
    case 'form':
      return v.toUpperCase();
    case 'event_type':
      return v;
  }
}

/** The target keys an event can be matched under, one per target type it carries a value for. */
function eventKeys(e: MatchableEvent): string[] {
  const keys: string[] = [`event_type\u0000${e.event_type}`];
  if (e.entity_ticker) keys.push(`ticker\u0000${e.entity_ticker.trim().toUpperCase()}`);
  const cik = e.entity_cik ? padCik(e.entity_cik) : null;
  if (cik) keys.push(`cik\u0000${cik}`);
  const form = e.details && typeof e.details.form === 'string' ? e.details.form.trim().toUpperCase() : '';
  if (form) keys.push(`form\u0000${form}`);
  return keys;
}

function passesSignalAndMateriality(m: MonitorRule, e: MatchableEvent): boolean {
  if (m.signals.length > 0 && !m.signals.includes(e.event_type)) return false;
  return importanceRank(e.importance) >= importanceRank(m.materiality);
}

/** The three matching rules of docs/api-contract.md for one monitor and one event; a paused monitor matches nothing. */
export function monitorMatches(m: MonitorRule, e: MatchableEvent): boolean {
  if (m.status !== 'active') return false;
  if (!eventKeys(e).includes(`${m.target_type}\u0000${m.target_value}`)) return false;
  return passesSignalAndMateriality(m, e);
}

/**
 * Active monitors indexed by target key: an event looks up at most four buckets instead of scanning every
 * monitor, so matching cost grows with the monitors that share the event's target, not with their total.
 */
export class MonitorIndex {
  private readonly byKey = new Map<string, MonitorRule[]>();
  readonly size: number;

  constructor(monitors: Iterable<MonitorRule>) {
    let n = 0;
    for (const m of monitors) {
      if (m.status !== 'active') continue;
      const key = `${m.target_type}\u0000${m.target_value}`;
      const bucket = this.byKey.get(key);
      if (bucket) bucket.push(m);
      else this.byKey.set(key, [m]);
      n++;
    }
    this.size = n;
  }

  match(e: MatchableEvent): MonitorRule[] {
    const out: MonitorRule[] = [];
    for (const key of eventKeys(e)) {
      const bucket = this.byKey.get(key);
      if (!bucket) continue;
      for (const m of bucket) if (passesSignalAndMateriality(m, e)) out.push(m);
    }
    return out;
  }
}
