import { defineTable } from '../table.ts';

/** Form CRS (client relationship summary) filings, one row per filing, merged across monthly files. */
export const formCrsTable = defineTable({
  name: 'form_crs',
  description: 'Form CRS relationship-summary filings of advisers and broker-dealers (IAPD Form CRS data).',
  columns: {
    filed_month: { type: 'VARCHAR', nullable: false, description: 'YYYY-MM of filed_date (partition).' },
    filing_key: { type: 'VARCHAR', nullable: false, description: 'Filing/document id, or CRD|date|sub-type when none is published.' },
    firm_crd: { type: 'VARCHAR' },
    filer_cik: { type: 'VARCHAR', description: '10-digit CIK, when the firm has one.' },
    filer_name: { type: 'VARCHAR', nullable: false },
    sec_number: { type: 'VARCHAR' },
    form_sub_type: { type: 'VARCHAR', description: 'Initial, Amendment … as published.' },
    filed_date: { type: 'DATE', nullable: false },
    disciplinary_history_flag: { type: 'INTEGER', description: '1 when the summary answers Yes to legal or disciplinary history.' },
    professionals: { type: 'INTEGER', description: 'Number of financial professionals, where published.' },
    document_url: { type: 'VARCHAR' },
    source_file: { type: 'VARCHAR', nullable: false },
    source_line: { type: 'INTEGER' },
    source_url: { type: 'VARCHAR', nullable: false },
  },
  partitionBy: 'filed_month',
  sortBy: ['filed_date', 'filing_key'],
  primaryKey: ['filing_key'],
  writeMode: 'merge',
});
