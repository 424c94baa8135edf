/**
 * The two shapes every 13F source is reduced to before the shared pipeline (unit decision, amendments,
 * enrichment) runs: the data set TSVs via DuckDB `read_csv`, single XML filings via the parser. Column names
 * match the work-database tables `raw13f_filing` / `raw13f_info` (pipeline.ts).
 */
export interface RawFiling {
  accession_number: string;
  cik: string;
  manager_name: string | null;
  street1: string | null;
  street2: string | null;
  city: string | null;
  state_or_country: string | null;
  zip_code: string | null;
  period_of_report: string;
  filing_date: string | null;
  accepted_at: string | null;
  submission_type: string;
  is_amendment: boolean | null;
  amendment_no: number | null;
  amendment_type: string | null;
  report_type: string | null;
  form13f_file_number: string | null;
  crd_number: string | null;
  sec_file_number: string | null;
  other_included_managers_count: number | null;
  table_entry_total: number | null;
  table_value_total_reported: number | null;
  is_confidential_omitted: boolean | null;
  schema_version: string | null;
  source: 'sec_13f_dataset' | 'sec_13f_xml';
  /** headerData/previousAccessionNumber when an amendment names the filing it amends (the data sets do not carry it). */
  previous_accession: string | null;
  /** JSON text: the cover page's other managers reporting for this manager, [{cik, form13f_file_number, crd_number, sec_file_number, name}]. */
  other_managers: string | null;
  /** JSON text: the summary page's other included managers, [{sequence_number, cik, form13f_file_number, crd_number, sec_file_number, name}]. */
  other_included_managers: string | null;
  signature_name: string | null;
  signature_title: string | null;
  signature_phone: string | null;
  /** The signature as typed (often "/s/ …"). */
  signature: string | null;
  signature_city: string | null;
  signature_state_or_country: string | null;
  signature_date: string | null;
}

export interface RawInfo {
  accession_number: string;
  line_no: number;
  issuer_name: string | null;
  title_of_class: string | null;
  cusip_raw: string | null;
  figi: string | null;
  value_reported: number | null;
  shares: number | null;
  shares_type: string | null;
  put_call: string | null;
  investment_discretion: string | null;
  other_manager: string | null;
  voting_sole: number | null;
  voting_shared: number | null;
  voting_none: number | null;
}

export const RAW_FILING_DDL = `accession_number VARCHAR, cik VARCHAR, manager_name VARCHAR, street1 VARCHAR, street2 VARCHAR, city VARCHAR,
  state_or_country VARCHAR, zip_code VARCHAR, period_of_report DATE, filing_date DATE, accepted_at TIMESTAMP, submission_type VARCHAR,
  is_amendment BOOLEAN, amendment_no INTEGER, amendment_type VARCHAR, report_type VARCHAR, form13f_file_number VARCHAR, crd_number VARCHAR,
  sec_file_number VARCHAR, other_included_managers_count INTEGER, table_entry_total INTEGER, table_value_total_reported DOUBLE,
  is_confidential_omitted BOOLEAN, schema_version VARCHAR, source VARCHAR, previous_accession VARCHAR, other_managers VARCHAR,
  other_included_managers VARCHAR, signature_name VARCHAR, signature_title VARCHAR, signature_phone VARCHAR, signature VARCHAR,
  signature_city VARCHAR, signature_state_or_country VARCHAR, signature_date DATE`;

export const RAW_INFO_DDL = `accession_number VARCHAR, line_no BIGINT, issuer_name VARCHAR, title_of_class VARCHAR, cusip_raw VARCHAR, figi VARCHAR,
  value_reported DOUBLE, shares DOUBLE, shares_type VARCHAR, put_call VARCHAR, investment_discretion VARCHAR, other_manager VARCHAR,
  voting_sole BIGINT, voting_shared BIGINT, voting_none BIGINT`;

export { filingIndexUrl } from './work.ts';
