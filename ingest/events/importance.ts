/**
 * The importance rule table (documented in docs/events.md). One place, read by every diff handler; SQL
 * handlers use the generated CASE expressions so the rules are never written twice.
 */
export const FIXED_IMPORTANCE = {
  'sec.8k.cybersecurity_incident': 'high',
  'sec.8k.bankruptcy_or_receivership': 'high',
  'sec.8k.auditor_change': 'high',
  'sec.8k.delisting_notice': 'high',
  'sec.8k.executive_change': 'medium',
  'sec.8k.material_agreement': 'medium',
  'sec.8k.results_of_operations': 'medium',
  'sec.s1.new_registration': 'high',
  'sec.s1.amended_registration': 'medium',
  'sec.formd.offering_amended': 'low',
  'sec.proxy.board_changed': 'medium',
} as const;

/** Forms whose mere filing is worth more than `low`. */
export const MEDIUM_FORMS = ['10-K', '20-F', '40-F', 'S-1', 'F-1', '10-K/A'];

/** USD thresholds: value at or above `high` → high, at or above `medium` → medium, else low. */
export const VALUE_THRESHOLDS = {
  'sec.form4.insider_buy': { high: 1_000_000, medium: 100_000 },
  'sec.form4.insider_sell': { high: 10_000_000, medium: 1_000_000 },
  'sec.form4.option_exercise': { high: 50_000_000, medium: 10_000_000 },
  'sec.formd.new_offering': { high: 50_000_000, medium: 5_000_000 },
  /** 13F: on the absolute change in position value. */
  'sec.13f': { high: 100_000_000, medium: 10_000_000 },
} as const;

/** 13F: a change of at least this fraction of the prior position is at least `medium`. */
export const THIRTEEN_F_PCT_MEDIUM = 0.5;
/** Compensation: a change in an executive's total of at least this fraction is `medium`, else `low`. */
export const COMP_PCT_MEDIUM = 0.25;
/** 10-K/10-Q text: similarity below this is `medium`, else `low`. */
export const TEXT_SIMILARITY_MEDIUM = 0.8;

/** The same rule as SQL, for handlers that draft in DuckDB. `expr` is a SQL expression of ours. */
export function byValueSql(type: keyof typeof VALUE_THRESHOLDS, expr: string): string {
  const t = VALUE_THRESHOLDS[type];
  return `CASE WHEN abs(coalesce(${expr}, 0)) >= ${t.high} THEN 'high' WHEN abs(coalesce(${expr}, 0)) >= ${t.medium} THEN 'medium' ELSE 'low' END`;
}
