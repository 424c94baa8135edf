import { defineTable } from '../table.ts';

/**
 * Item text of annual and quarterly reports (10-K Item 1A and Item 7, 10-Q Part I Item 2), one row per filing and
 * section: the input of sec.10k.risk_factor_changed, sec.10k.mda_changed and sec.10q.mda_changed.
 */
export const filingSectionsTable = defineTable({
  name: 'filing_sections',
  description: 'Risk factors and MD&A text of 10-K / 10-Q filings, extracted with the item extractor.',
  columns: {
    accession: { type: 'VARCHAR', nullable: false },
    cik: { type: 'VARCHAR', nullable: false, description: '10-digit filer CIK' },
    company: { type: 'VARCHAR' },
    form: { type: 'VARCHAR', nullable: false },
    base_form: { type: 'VARCHAR', nullable: false, description: '10-K or 10-Q (amendments folded)' },
    filed_date: { type: 'DATE', nullable: false },
    filed_year: { type: 'VARCHAR', nullable: false, description: 'Partition: year of filed_date' },
    period: { type: 'DATE', description: 'Period of report' },
    section: { type: 'VARCHAR', nullable: false, description: 'risk_factors | mda' },
    item: { type: 'VARCHAR', nullable: false, description: 'Item as numbered on the form: 1A, 7, I-2' },
    heading: { type: 'VARCHAR' },
    text: { type: 'VARCHAR', nullable: false },
    paragraphs: { type: 'INTEGER', nullable: false },
    words: { type: 'INTEGER', nullable: false },
    source_url: { type: 'VARCHAR' },
  },
  partitionBy: 'filed_year',
  sortBy: ['cik', 'filed_date', 'accession', 'section'],
  primaryKey: ['accession', 'section'],
  writeMode: 'merge',
});

/** Which items are kept, per form. */
export const SECTIONS: Record<'10-K' | '10-Q', { section: 'risk_factors' | 'mda'; item: string }[]> = {
  '10-K': [
    { section: 'risk_factors', item: '1A' },
    { section: 'mda', item: '7' },
  ],
  '10-Q': [{ section: 'mda', item: 'I-2' }],
};
