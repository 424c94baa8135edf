/**
 * The record both Schedule 13D/G parsers produce (the structured XML one and the legacy text one), and the form-name
 * classification they share: in a module of its own so neither parser imports the other's internals.
 */

export interface ReportingPerson {
  cik: string | null;
  name: string | null;
  citizenship: string | null;
  sole_voting_power: number | null;
  shared_voting_power: number | null;
  sole_dispositive_power: number | null;
  shared_dispositive_power: number | null;
  aggregate_amount: number | null;
  percent_of_class: number | null;
  /** IN, CO, PN, IA, HC, OO, BD, BK, IC, EP … (comma-separated when several). */
  type_of_reporting_person: string | null;
  member_of_group: string | null;
  /** 13D source of funds codes (WC, OO, PF, …). */
  fund_type: string | null;
  comment: string | null;
}

export interface Schedule13Filing {
  accession: string | null;
  filed_date: string | null;
  /** As filed: SCHEDULE 13D, SCHEDULE 13G/A, SC 13G … */
  form_type: string | null;
  schedule: '13D' | '13G' | null;
  is_amendment: boolean;
  amendment_no: number | null;
  /** Structured amendments: headerData/previousAccessionNumber, the filing amended. Legacy covers do not state it. */
  previous_accession: string | null;
  structured: boolean;
  filer_cik: string | null;
  filer_name: string | null;
  subject_cik: string | null;
  issuer_name: string | null;
  cusip: string | null;
  securities_class_title: string | null;
  event_date: string | null;
  /** 13G: Rule 13d-1(b)/(c)/(d). */
  rule_designations: string[];
  group_members: string[];
  persons: ReportingPerson[];
  signature_date: string | null;
}

/** `SCHEDULE 13D/A`, `SC 13G` … → schedule and amendment flag. */
export function classifyForm(form: string | null): { schedule: '13D' | '13G' | null; is_amendment: boolean } {
  const f = (form ?? '').toUpperCase();
  const schedule = /13D/.test(f) ? '13D' : /13G/.test(f) ? '13G' : null;
  return { schedule, is_amendment: /\/A\b|\/A$/.test(f) };
}
