import { defineTable, type ColumnSpec } from '../table.ts';

/**
 * The 13F lake tables. Every table is partitioned by reporting quarter (`period=2024Q4`), the unit analysts and
 * the quarter-over-quarter diff work in. Amendments arriving in a later data set window rewrite the flags of the
 * rows they supersede (merge mode keyed on the primary key), so `is_current` is always the combined report.
 */

const period = { type: 'VARCHAR', nullable: false, description: 'Reporting quarter, e.g. 2024Q4 (partition).' } as const satisfies ColumnSpec;

export const filings13f = defineTable({
  name: 'filings_13f',
  description: 'One row per Form 13F filing (13F-HR, 13F-HR/A, 13F-NT): cover page, summary page, VALUE unit decision and amendment status.',
  columns: {
    accession_number: { type: 'VARCHAR', nullable: false },
    cik: { type: 'VARCHAR', nullable: false, description: 'Filing manager CIK, 10 digits.' },
    manager_name: { type: 'VARCHAR' },
    street1: { type: 'VARCHAR' },
    street2: { type: 'VARCHAR' },
    city: { type: 'VARCHAR' },
    state_or_country: { type: 'VARCHAR' },
    zip_code: { type: 'VARCHAR' },
    period_of_report: { type: 'DATE', nullable: false },
    period,
    filing_date: { type: 'DATE' },
    accepted_at: { type: 'TIMESTAMP', description: 'EDGAR acceptance time (single filings only; the data sets do not carry it).' },
    submission_type: { type: 'VARCHAR', nullable: false },
    is_amendment: { type: 'BOOLEAN' },
    amendment_no: { type: 'INTEGER' },
    amendment_type: { type: 'VARCHAR', description: 'RESTATEMENT or NEW HOLDINGS, as filed.' },
    amendment_effect: { type: 'VARCHAR', nullable: false, description: 'original | restatement | new_holdings | notice' },
    is_current: { type: 'BOOLEAN', nullable: false, description: 'Part of the combined current report of its manager and period.' },
    superseded_by: { type: 'VARCHAR', description: 'Accession that replaced this filing.' },
    report_type: { type: 'VARCHAR' },
    form13f_file_number: { type: 'VARCHAR' },
    crd_number: { type: 'VARCHAR' },
    sec_file_number: { type: 'VARCHAR' },
    other_included_managers_count: { type: 'INTEGER' },
    table_entry_total: { type: 'INTEGER', description: 'Row count stated on the summary page (may differ from info_rows).' },
    table_value_total_reported: { type: 'DOUBLE', description: "Summary page total as filed, in the filing's unit." },
    table_value_total_usd: { type: 'BIGINT', description: 'Summary page total converted to USD.' },
    info_rows: { type: 'INTEGER', nullable: false, description: 'Information table rows actually present.' },
    info_value_usd: { type: 'BIGINT', description: "Sum of the rows' values in USD." },
    is_confidential_omitted: { type: 'BOOLEAN' },
    schema_version: { type: 'VARCHAR' },
    value_unit_decision: { type: 'VARCHAR', nullable: false, description: 'thousands | dollars: unit of VALUE in this filing.' },
    value_unit_basis: { type: 'VARCHAR', nullable: false, description: 'implied_price | schema | filing_date | period' },
    value_unit_reason: { type: 'VARCHAR', nullable: false },
    implied_price_median: { type: 'DOUBLE' },
    duplicate_rows_decision: {
      type: 'VARCHAR',
      description:
        'none | removed (the information table was filed k times over: one copy kept) | kept (repeated rows kept as filed: ambiguous evidence, a flag).',
    },
    duplicate_rows_reason: { type: 'VARCHAR', description: 'Evidence behind duplicate_rows_decision (null when none).' },
    previous_accession: { type: 'VARCHAR', description: 'Accession an amendment names as amended (XML headerData only; the data sets omit it).' },
    other_managers: {
      type: 'JSON',
      description: 'Cover page: other managers reporting for this manager, [{cik, form13f_file_number, crd_number, sec_file_number, name}].',
    },
    other_included_managers: {
      type: 'JSON',
      description: 'Summary page: other included managers, [{sequence_number, cik, form13f_file_number, crd_number, sec_file_number, name}].',
    },
    signature_name: { type: 'VARCHAR', description: 'Signature block: name of the person signing.' },
    signature_title: { type: 'VARCHAR' },
    signature_phone: { type: 'VARCHAR' },
    signature: { type: 'VARCHAR', description: 'The signature as typed (often "/s/ …").' },
    signature_city: { type: 'VARCHAR' },
    signature_state_or_country: { type: 'VARCHAR' },
    signature_date: { type: 'DATE' },
    source: { type: 'VARCHAR', nullable: false, description: 'sec_13f_dataset | sec_13f_xml' },
    source_url: { type: 'VARCHAR', nullable: false },
  },
  partitionBy: 'period',
  sortBy: ['cik', 'accession_number'],
  primaryKey: ['accession_number'],
  writeMode: 'merge',
});

export const holdings13f = defineTable({
  name: 'holdings_13f',
  description: 'Form 13F information table rows (one per holding line), VALUE in USD, with amendment status and issuer entity.',
  columns: {
    accession_number: { type: 'VARCHAR', nullable: false },
    line_no: { type: 'INTEGER', nullable: false, description: 'Position of the row in its information table (1-based).' },
    manager_cik: { type: 'VARCHAR', nullable: false },
    manager_name: { type: 'VARCHAR' },
    period,
    period_of_report: { type: 'DATE', nullable: false },
    filing_date: { type: 'DATE' },
    issuer_name: { type: 'VARCHAR' },
    title_of_class: { type: 'VARCHAR' },
    cusip: { type: 'VARCHAR', nullable: false, description: 'Upper-cased, blanks removed, lost leading zeros restored when the check digit agrees.' },
    cusip_valid: { type: 'BOOLEAN', nullable: false },
    figi: { type: 'VARCHAR' },
    value_usd: { type: 'BIGINT', description: "Market value in USD (VALUE × the filing's unit)." },
    value_reported: { type: 'DOUBLE', description: 'VALUE as filed.' },
    value_unit_decision: { type: 'VARCHAR', nullable: false },
    value_unit_reason: { type: 'VARCHAR', nullable: false },
    shares: { type: 'DOUBLE', description: 'SSHPRNAMT: shares, or principal amount for PRN rows.' },
    shares_type: { type: 'VARCHAR', description: 'SH | PRN' },
    put_call: { type: 'VARCHAR' },
    investment_discretion: { type: 'VARCHAR' },
    other_manager: { type: 'VARCHAR' },
    voting_sole: { type: 'BIGINT' },
    voting_shared: { type: 'BIGINT' },
    voting_none: { type: 'BIGINT' },
    amendment_effect: { type: 'VARCHAR', nullable: false },
    is_current: { type: 'BOOLEAN', nullable: false },
    issuer_cik: { type: 'VARCHAR', description: 'Issuer entity resolved from the entity directory (null when unmapped).' },
    issuer_ticker: { type: 'VARCHAR' },
    issuer_match_confidence: { type: 'DOUBLE' },
    issuer_match_as_of: { type: 'DATE' },
    source_url: { type: 'VARCHAR', nullable: false },
  },
  partitionBy: 'period',
  // cusip first: `?cusip=` prunes row groups by min/max; manager next so one manager's lines sit together.
  sortBy: ['cusip', 'manager_cik', 'accession_number', 'line_no'],
  primaryKey: ['accession_number', 'line_no'],
  writeMode: 'merge',
  // The filing's text on each line: 60% of the cost of sorting the staged lines (1M lines: 9.0 s CPU with it, 3.7 s without).
  // The line's own longer text (issuer name, class title) too: on the same 1M lines the two sorted writes took
  // 10.0–12.4 s CPU with the five filing columns as codes and 9.0–11.6 s with these two added, measured side by side.
  // The filing's two sort keys too (codes in value order, so the same order): the two sorted writes of a 3M-line
  // quarter 19.0–20.7 s CPU against 21.2–21.5 s (two runs each).
  sortAsCodes: [
    'manager_name',
    'value_unit_decision',
    'value_unit_reason',
    'amendment_effect',
    'source_url',
    'issuer_name',
    'title_of_class',
    'manager_cik',
    'accession_number',
  ],
  // The CUSIPs of each quarter with their largest value: `?cusip=` skips quarters without the CUSIP (docs/read-path.md).
  summary: { key: 'cusip', max: 'value_usd' },
  // A page of a 6.25M-line quarter decodes a whole 122,880-row group of 31 columns from Parquet (38 ms CPU) against
  // 7.9 ms from a native DuckDB copy, for 2.6x the quarter's Parquet bytes on disk (docs/read-path.md).
  serving: true,
  // The filing's text on each line, kept once per filing in the copies: written in 1.5 s of CPU instead of 2.6 s for a
  // 1M-line quarter's copy (37 MB instead of 101), and a page a fifth cheaper (docs/read-path.md, "Lookup columns").
  servingLookup: {
    key: 'accession_number',
    columns: [
      'manager_name',
      'period_of_report',
      'filing_date',
      'value_unit_decision',
      'value_unit_reason',
      'amendment_effect',
      'source_url',
      'parser_version',
    ],
  },
  // Measured on a 50M-line lake (8 quarters of 6.25M): smaller groups are SLOWER for `SELECT *` pages. DuckDB pays
  // per row group × projected column even for pruned groups (16k groups: +14 ms a file), and a matched group costs
  // about the same to decode at 16k as at 122k rows (every group holds nearly all ~8k managers, so the dictionaries
  // do not shrink). `?cusip=` p50 71 ms at 122,880 vs 245 ms at 16,384; `?manager=` 86 vs 692 ms.
  rowGroupSize: 122_880,
});

export const managers13f = defineTable({
  name: 'managers_13f',
  description: 'One row per 13F manager and reporting quarter: the combined current report (original + amendments).',
  columns: {
    cik: { type: 'VARCHAR', nullable: false },
    manager_name: { type: 'VARCHAR' },
    street1: { type: 'VARCHAR' },
    street2: { type: 'VARCHAR' },
    city: { type: 'VARCHAR' },
    state_or_country: { type: 'VARCHAR' },
    zip_code: { type: 'VARCHAR' },
    period,
    period_of_report: { type: 'DATE', nullable: false },
    filing_date: { type: 'DATE', description: 'Date of the first filing for the period.' },
    last_filing_date: { type: 'DATE' },
    accession_number: { type: 'VARCHAR', nullable: false, description: 'Latest filing that is part of the current report.' },
    accessions: { type: 'JSON', nullable: false, description: 'Every accession of the current report, oldest first.' },
    amendment_count: { type: 'INTEGER', nullable: false },
    report_type: { type: 'VARCHAR' },
    holdings_count: { type: 'INTEGER', nullable: false },
    total_value_usd: { type: 'BIGINT', nullable: false },
    value_unit_decision: { type: 'VARCHAR', description: 'thousands | dollars | mixed (across the current filings).' },
    source_url: { type: 'VARCHAR', nullable: false },
  },
  partitionBy: 'period',
  sortBy: ['total_value_usd', 'cik'],
  primaryKey: ['cik', 'period'],
  writeMode: 'merge',
});

export const unmappedCusips13f = defineTable({
  name: 'unmapped_cusips_13f',
  description: "CUSIPs of a quarter's 13F holdings that could not be resolved to an issuer entity (listed, never guessed).",
  columns: {
    period,
    cusip: { type: 'VARCHAR', nullable: false },
    issuer_name: { type: 'VARCHAR', description: 'Most frequent issuer name typed by filers.' },
    cusip_valid: { type: 'BOOLEAN', nullable: false },
    holders: { type: 'INTEGER', nullable: false },
    total_value_usd: { type: 'BIGINT' },
    reason: { type: 'VARCHAR', nullable: false, description: 'no_entity_directory | no_name_match | ambiguous_name' },
  },
  partitionBy: 'period',
  sortBy: ['cusip'],
  primaryKey: ['cusip'],
  writeMode: 'replace',
});

/**
 * The same rows sorted manager first, so `/v1/holdings?manager=` pages prune row groups (a CUSIP-sorted file cannot
 * be pruned by manager). Twice the holdings storage, for p99 on manager pages; written by the same run.
 */
export const holdings13fByManager = defineTable({
  ...holdings13f,
  name: 'holdings_13f_by_manager',
  description: 'holdings_13f sorted by manager: same rows and columns; serves manager-filtered /v1/holdings pages.',
  sortBy: ['manager_cik', 'cusip', 'accession_number', 'line_no'],
  copyOf: holdings13f.name,
  summary: { key: 'manager_cik', max: 'value_usd' },
  serving: true,
});

export const TABLES_13F = [filings13f, holdings13f, holdings13fByManager, managers13f, unmappedCusips13f];
