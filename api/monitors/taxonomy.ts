/**
 * The event taxonomy as the spec lists it: a monitor's `signals` and an `event_type` target are checked
 * against it, so a typo is a 400 at creation instead of a monitor that silently never fires.
 */
export const EVENT_TYPES = [
  'sec.filing.new',
  'sec.filing.amended',
  'sec.8k.material_agreement',
  'sec.8k.executive_change',
  'sec.8k.auditor_change',
  'sec.8k.bankruptcy_or_receivership',
  'sec.8k.results_of_operations',
  'sec.8k.cybersecurity_incident',
  'sec.8k.delisting_notice',
  'sec.10k.risk_factor_changed',
  'sec.10k.mda_changed',
  'sec.10q.mda_changed',
  'sec.form4.insider_buy',
  'sec.form4.insider_sell',
  'sec.form4.option_exercise',
  'sec.13f.position_increased',
  'sec.13f.position_decreased',
  'sec.13f.holding_added',
  'sec.13f.holding_removed',
  'sec.formd.new_offering',
  'sec.formd.offering_amended',
  'sec.s1.new_registration',
  'sec.s1.amended_registration',
  'sec.proxy.board_changed',
  'sec.proxy.executive_compensation_changed',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

const KNOWN = new Set<string>(EVENT_TYPES);
export function isEventType(s: string): s is EventType {
  return KNOWN.has(s);
}

export const IMPORTANCE = ['low', 'medium', 'high'] as const;
export type Importance = (typeof IMPORTANCE)[number];

/** low < medium < high; an unknown importance ranks 0 so it never passes a materiality threshold. */
export function importanceRank(s: string | null | undefined): number {
  return s ? IMPORTANCE.indexOf(s as Importance) + 1 : 0;
}

export const TARGET_TYPES = ['ticker', 'cik', 'form', 'event_type'] as const;
export type TargetType = (typeof TARGET_TYPES)[number];

export const MONITOR_STATUSES = ['active', 'paused'] as const;
export type MonitorStatus = (typeof MONITOR_STATUSES)[number];
