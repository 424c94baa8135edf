/**
 * The 13F VALUE column was in thousands of dollars until the rule change effective 2023-01-03 and is in whole
 * dollars since, but filers did not all switch on time (and some reported dollars years before), so the unit is
 * decided PER FILING from evidence, strongest first:
 *   1. implied price: median VALUE / SSHPRNAMT over plain share rows (SH, no put/call). Read as dollars, a median
 *      share price under $0.50 is implausible (so thousands); read as thousands, a median over $2,000 is (so dollars).
 *      Between the two the evidence is ambiguous and the next rule decides.
 *   2. schema: the information table carries FIGI (an element introduced with the dollars rule) or a cover-page
 *      schema version newer than X0202 → dollars.
 *   3. date: filed on/after 2023-01-03 → dollars, else thousands; the period end stands in when the filing date is
 *      unknown (a bare information table).
 */
const DOLLARS_RULE_DATE = '2023-01-03';
const THOUSANDS_BELOW = 0.5;
const DOLLARS_FROM = 2;

export type ValueUnit = 'thousands' | 'dollars';

export interface UnitEvidence {
  /** Median of VALUE / SSHPRNAMT over share rows without put/call; null when there are none. */
  medianPrice: number | null;
  priceRows: number;
  hasFigi: boolean;
  schemaVersion: string | null;
  filingDate: string | null;
  periodOfReport: string | null;
}

export interface UnitDecision {
  unit: ValueUnit;
  multiplier: 1 | 1000;
  /** `implied_price` | `schema` | `filing_date` | `period` */
  basis: 'implied_price' | 'schema' | 'filing_date' | 'period';
  reason: string;
}

function fmt(n: number): string {
  return n >= 100 ? n.toFixed(0) : n >= 1 ? n.toFixed(2) : n.toPrecision(3);
}

function decided(unit: ValueUnit, basis: UnitDecision['basis'], reason: string): UnitDecision {
  return { unit, multiplier: unit === 'thousands' ? 1000 : 1, basis, reason };
}

export function decideValueUnit(e: UnitEvidence): UnitDecision {
  if (e.medianPrice != null && e.priceRows > 0) {
    const p = e.medianPrice;
    const over = `median VALUE/shares ${fmt(p)} over ${e.priceRows} share row${e.priceRows === 1 ? '' : 's'}`;
    if (p < THOUSANDS_BELOW) return decided('thousands', 'implied_price', `${over}: under $${THOUSANDS_BELOW} a share if dollars, so thousands`);
    if (p >= DOLLARS_FROM) return decided('dollars', 'implied_price', `${over}: over $${DOLLARS_FROM * 1000} a share if thousands, so dollars`);
  }
  const ambiguous = e.medianPrice != null && e.priceRows > 0 ? `implied price ${fmt(e.medianPrice)} ambiguous; ` : 'no share rows to price; ';
  if (e.hasFigi) return decided('dollars', 'schema', `${ambiguous}FIGI reported (post-2023 information table schema)`);
  if (e.schemaVersion && /^X\d{4}$/i.test(e.schemaVersion) && e.schemaVersion.toUpperCase() > 'X0202') {
    return decided('dollars', 'schema', `${ambiguous}cover page schema ${e.schemaVersion} is newer than X0202`);
  }
  if (e.filingDate) {
    return e.filingDate >= DOLLARS_RULE_DATE
      ? decided('dollars', 'filing_date', `${ambiguous}filed ${e.filingDate}, on/after ${DOLLARS_RULE_DATE}`)
      : decided('thousands', 'filing_date', `${ambiguous}filed ${e.filingDate}, before ${DOLLARS_RULE_DATE}`);
  }
  if (e.periodOfReport && e.periodOfReport >= '2022-12-31') {
    return decided('dollars', 'period', `${ambiguous}filing date unknown; period ${e.periodOfReport} reported under the dollars rule`);
  }
  return decided('thousands', 'period', `${ambiguous}filing date unknown; period ${e.periodOfReport ?? 'unknown'} predates the dollars rule`);
}
