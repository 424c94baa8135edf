/** Event taxonomy (docs/api-contract.md): stable, namespaced identifiers; monitors validate `signals` against it. */
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

export function isEventType(s: string): s is EventType {
  return (EVENT_TYPES as readonly string[]).includes(s);
}

export type Importance = 'low' | 'medium' | 'high';
export const IMPORTANCE_RANK: Record<Importance, number> = { low: 1, medium: 2, high: 3 };

export interface EvidenceItem {
  source_type: string;
  url: string;
  retrieved_at: string;
  excerpt: string | null;
  section: string | null;
  excerpt_sha256: string | null;
}

/** What a diff handler proposes; the writer assigns id, seq and detected_at. */
export interface EventDraft {
  event_type: string;
  importance: Importance;
  confidence: number;
  entity_cik: string | null;
  entity_ticker: string | null;
  entity_name: string | null;
  accession: string | null;
  summary: string;
  details: Record<string, unknown>;
  evidence: EvidenceItem[];
  dedup_key: string;
  occurred_at: string | null;
}
