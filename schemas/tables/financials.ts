import { defineTable } from '../table.ts';

/**
 * XBRL company facts: one row per reported fact per filing. The same value re-reported by later filings (a 10-K
 * repeats prior years; amendments restate) is kept once per filing; `is_latest` marks the one to use for
 * "the value of a period" (see docs/entities-filings.md, "Latest value for a period").
 */
export const financialFactsTable = defineTable({
  name: 'financial_facts',
  description: 'XBRL financial facts from the company facts data (every non-dimensional fact, per reporting filing).',
  columns: {
    cik: { type: 'VARCHAR', nullable: false, description: '10-digit CIK.' },
    cik_bucket: { type: 'VARCHAR', nullable: false, description: 'Partition: first 5 digits of the CIK.' },
    entity_name: { type: 'VARCHAR', nullable: false },
    taxonomy: { type: 'VARCHAR', nullable: false, description: 'us-gaap, ifrs-full, dei, srt, …' },
    concept: { type: 'VARCHAR', nullable: false, description: 'Namespaced concept, e.g. us-gaap:Revenues.' },
    label: { type: 'VARCHAR' },
    unit: { type: 'VARCHAR', nullable: false, description: 'USD, shares, USD/shares, pure, EUR, …' },
    period_start: { type: 'DATE', description: 'Start of a duration; null for an instant.' },
    period_end: { type: 'DATE', nullable: false, description: 'End of the duration, or the instant.' },
    period_days: { type: 'INTEGER', nullable: false, description: 'Days in the duration, inclusive; 0 for an instant.' },
    value: { type: 'DOUBLE', nullable: false, description: 'Unscaled value (full units).' },
    accession: { type: 'VARCHAR', nullable: false, description: 'Filing that reported the fact.' },
    fiscal_year: { type: 'INTEGER', description: 'Fiscal year focus of the FILING (not of the fact).' },
    fiscal_period: { type: 'VARCHAR', description: 'FY, Q1, Q2, Q3 (of the filing).' },
    form: { type: 'VARCHAR' },
    filed: { type: 'DATE', nullable: false },
    frame: { type: 'VARCHAR', description: 'Calendar frame the regulator assigned (CY2023, CY2023Q2, CY2023Q2I), at most one fact per frame.' },
    is_latest: { type: 'BOOLEAN', nullable: false, description: 'The latest-filed report of this (concept, unit, period): the value to use for the period.' },
  },
  partitionBy: 'cik_bucket',
  sortBy: ['cik', 'concept', 'unit', 'period_end', 'period_days', 'accession'],
  primaryKey: ['cik', 'concept', 'unit', 'period_end', 'period_days', 'accession'],
  writeMode: 'merge',
});
