import { defineTable } from '../table.ts';

/**
 * Financial Statement Data Sets: one row per numeric fact (num.txt), with its submission (sub.txt) and tag
 * (tag.txt) attributes folded in so every filter of /v1/financial-statements is a plain column.
 */
export const financialStatementsTable = defineTable({
  name: 'financial_statements',
  description: 'Financial Statement Data Sets: numeric facts of the face financial statements per filing (num ⋈ sub ⋈ tag).',
  columns: {
    adsh: { type: 'VARCHAR', nullable: false, description: 'Accession number of the filing.' },
    cik: { type: 'VARCHAR', nullable: false, description: '10-digit CIK of the filer.' },
    company_name: { type: 'VARCHAR', nullable: false },
    sic: { type: 'VARCHAR' },
    form: { type: 'VARCHAR' },
    fiscal_year: { type: 'INTEGER' },
    fiscal_period: { type: 'VARCHAR', description: 'FY, Q1, Q2, Q3, Q4, H1, H2, M9 … (sub.fp).' },
    period: { type: 'DATE', description: 'Balance sheet date, rounded to month end.' },
    filed: { type: 'DATE' },
    accepted: { type: 'TIMESTAMP' },
    prevrpt: { type: 'BOOLEAN', description: 'The filing was later amended/superseded.' },
    tag: { type: 'VARCHAR', nullable: false },
    version: { type: 'VARCHAR', nullable: false, description: 'Taxonomy (us-gaap/2024) or the adsh for a custom tag.' },
    is_custom: { type: 'BOOLEAN' },
    tag_label: { type: 'VARCHAR' },
    datatype: { type: 'VARCHAR' },
    iord: { type: 'VARCHAR', description: 'I instant / D duration.' },
    crdr: { type: 'VARCHAR' },
    ddate: { type: 'DATE', nullable: false, description: 'End date of the value, rounded to month end.' },
    qtrs: { type: 'INTEGER', nullable: false, description: '0 instant, 1 quarter, 4 year, 2/3 year to date.' },
    uom: { type: 'VARCHAR', nullable: false },
    segments: { type: 'VARCHAR', nullable: false, description: 'Axis=Member; pairs; empty string = no dimensions.' },
    coreg: { type: 'VARCHAR', nullable: false, description: 'Co-registrant; empty string = the consolidated entity.' },
    value: { type: 'DOUBLE', description: 'Unscaled value; null for a nil fact.' },
    footnote: { type: 'VARCHAR' },
    dataset_quarter: { type: 'VARCHAR', nullable: false, description: 'Partition: the data set quarter (filing quarter), 2024Q3.' },
  },
  partitionBy: 'dataset_quarter',
  sortBy: ['cik', 'adsh', 'tag', 'version', 'ddate', 'qtrs', 'uom', 'segments', 'coreg'],
  primaryKey: ['adsh', 'tag', 'version', 'ddate', 'qtrs', 'uom', 'segments', 'coreg'],
  writeMode: 'replace',
});
