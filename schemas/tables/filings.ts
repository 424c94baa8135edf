import { accessionYear } from '../key-buckets.ts';
import { defineTable, type OrderColumn } from '../table.ts';

/**
 * `/v1/filings`'s order within a quarter (newest first, a total order): its first pages, and those of a form or of the
 * newest days, read the newest quarters' heads instead of sorting a quarter's 300,000 rows (docs/layouts.md, "Heads").
 */
export const filingPageOrder = [
  { column: 'filed_date', dir: 'desc' },
  { column: 'accession', dir: 'desc' },
  { column: 'cik', dir: 'asc' },
] as const satisfies readonly OrderColumn[];

/**
 * The filing index: one row per (accession, filer CIK) — a filing with several filer CIKs (co-registrants,
 * a Form 4's issuer and owner) is listed once under each, exactly as the regulator's index lists it.
 * This table is the input of the events diff stage (sec.filing.new / .amended, 8-K items, S-1, Form D):
 * see docs/entities-filings.md "Columns the diff stage can rely on".
 */
export const filingsTable = defineTable({
  name: 'filings',
  description:
    'EDGAR filing index (full-index / daily-index master.idx) enriched with the submissions data (items, acceptance time, primary document, size, XBRL flags).',
  columns: {
    accession: { type: 'VARCHAR', nullable: false, description: 'Dashed accession number 0001234567-24-000123.' },
    cik: { type: 'VARCHAR', nullable: false, description: 'Filer CIK (10 digits) this listing is under.' },
    company: {
      type: 'VARCHAR',
      nullable: false,
      description: 'Conformed name at filing time (index); the current entity name when only the submissions data listed it.',
    },
    form: { type: 'VARCHAR', nullable: false, description: 'Form type as filed, e.g. 10-K, 8-K/A, SC 13G, NT 10-Q.' },
    base_form: { type: 'VARCHAR', nullable: false, description: 'Form without the /A suffix (S-1/A → S-1).' },
    is_amendment: { type: 'BOOLEAN', nullable: false, description: 'Form ends with /A.' },
    filed_date: { type: 'DATE', nullable: false },
    filed_quarter: { type: 'VARCHAR', nullable: false, description: 'Partition: calendar quarter of filed_date, 2024Q3.' },
    report_date: { type: 'DATE', description: 'Period of report (submissions `reportDate`).' },
    acceptance_datetime: { type: 'TIMESTAMP', description: 'Acceptance time as published in the submissions data (its `Z` is unreliable: often US Eastern).' },
    items: { type: 'VARCHAR', description: '8-K item numbers, comma-joined (2.02,9.01); null when none or unknown.' },
    primary_document: { type: 'VARCHAR' },
    primary_doc_description: { type: 'VARCHAR' },
    size: { type: 'BIGINT', description: 'Bytes of the full submission.' },
    is_xbrl: { type: 'BOOLEAN' },
    is_inline_xbrl: { type: 'BOOLEAN' },
    act: { type: 'VARCHAR' },
    file_number: { type: 'VARCHAR' },
    film_number: { type: 'VARCHAR' },
    filing_url: { type: 'VARCHAR', nullable: false, description: 'Full submission .txt on www.sec.gov.' },
    index_url: { type: 'VARCHAR', nullable: false, description: 'Filing index page (-index.htm).' },
    primary_document_url: { type: 'VARCHAR' },
    detail_source: { type: 'VARCHAR', nullable: false, description: '`index`, `submissions` or `index+submissions`: what has described the row so far.' },
  },
  partitionBy: 'filed_quarter',
  sortBy: ['cik', 'filed_date', 'accession'],
  primaryKey: ['accession', 'cik'],
  writeMode: 'merge',
  // A filer's page reads the one row group its CIK falls in, in each quarter it walks, and decompresses all its
  // columns: 16,384 rows instead of 122,880 (docs/layouts.md, "Row groups").
  rowGroupSize: 16_384,
  // A filer's page looks its CIK up in each quarter's index first: the quarters it did not file in are never opened,
  // and the ones it did are read in one query, as many as fill the page (docs/layouts.md, "Key indexes"). A filing's
  // page (?accession=) looks it up in the quarters holding accessions of its year only, and reads the one row group
  // of its filer there.
  keyIndexes: [{ key: 'cik' }, { key: 'accession', bucket: accessionYear }],
  head: { order: filingPageOrder },
});
