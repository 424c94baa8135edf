import { defineTable, type ColumnMap, type OrderColumn } from '../table.ts';

/**
 * Two lake tables from the same Form 3/4/5 rows: transactions (Tables I and II, with a date and a code) and
 * holdings (positions reported without a transaction). Both carry the filing header and the reporting owners,
 * because a joint filing's rows belong to every owner (the data set does not tie a row to one owner).
 */

const filingColumns = {
  accession: { type: 'VARCHAR', nullable: false, description: 'Accession number, dashed.' },
  row_seq: {
    type: 'INTEGER',
    nullable: false,
    description: "Position of the row among the filing's rows of this table (Table I first, then Table II, each in document order).",
  },
  is_derivative: { type: 'BOOLEAN', nullable: false, description: 'True for Table II (derivative securities).' },
  form_type: { type: 'VARCHAR', description: '3, 3/A, 4, 4/A, 5, 5/A.' },
  is_amendment: { type: 'BOOLEAN', nullable: false },
  filed_date: {
    type: 'DATE',
    nullable: false,
    description: 'Filing date (for a bare XML without its container: latest signature date, else period of report).',
  },
  filed_quarter: { type: 'VARCHAR', nullable: false, description: 'Calendar quarter of filed_date, e.g. 2024Q3 (partition).' },
  period_of_report: { type: 'DATE' },
  date_of_orig_sub: { type: 'DATE', description: 'Amendments: date of the original submission.' },
  issuer_cik: { type: 'VARCHAR', nullable: false, description: '10-digit CIK of the issuer.' },
  issuer_name: { type: 'VARCHAR' },
  ticker: { type: 'VARCHAR', description: 'Trading symbol as typed by the filer (may be wrong or empty).' },
  owner_cik: { type: 'VARCHAR', description: "First reporting owner's CIK." },
  owner_name: { type: 'VARCHAR', description: "First reporting owner's name." },
  owner_ciks: { type: 'VARCHAR', description: "All reporting owners' CIKs, comma-separated." },
  owner_names: { type: 'VARCHAR', description: 'All reporting owners\' names, joined with " | ".' },
  relationship: { type: 'VARCHAR', description: "Union of the owners' relationships: Director, Officer, TenPercentOwner, Other (comma-separated)." },
  is_director: { type: 'BOOLEAN' },
  is_officer: { type: 'BOOLEAN' },
  is_ten_percent_owner: { type: 'BOOLEAN' },
  is_other: { type: 'BOOLEAN' },
  officer_title: { type: 'VARCHAR' },
  other_text: { type: 'VARCHAR' },
  owners: { type: 'JSON', description: 'Array of {cik, name, relationships[], officer_title, other_text}.' },
  aff10b5one: { type: 'BOOLEAN', description: 'Rule 10b5-1 checkbox of the filing (2023+); null when the form predates it.' },
  signatures: { type: 'JSON', description: 'Array of {name, date}: every ownerSignature of the filing (date YYYY-MM-DD), in document order.' },
} as const satisfies ColumnMap;

const positionColumns = {
  security_title: { type: 'VARCHAR' },
  shares_owned_after: { type: 'DOUBLE', description: 'Shares owned following the transaction (or held).' },
  value_owned_after: { type: 'DOUBLE', description: 'Value owned following, for fractional-interest securities.' },
  direct_indirect: { type: 'VARCHAR', description: 'D direct, I indirect.' },
  nature_of_ownership: { type: 'VARCHAR' },
  conversion_or_exercise_price: { type: 'DOUBLE' },
  exercise_date: { type: 'DATE' },
  expiration_date: { type: 'DATE' },
  underlying_security_title: { type: 'VARCHAR' },
  underlying_security_shares: { type: 'DOUBLE' },
  underlying_security_value: { type: 'DOUBLE' },
  footnotes: { type: 'JSON', description: 'Array of {field, id, text}: every footnote reference of the row, resolved to its text.' },
  source_kind: { type: 'VARCHAR', nullable: false, description: 'data_set (quarterly Insider Transactions data set) or xml (ownership XML).' },
  source_url: { type: 'VARCHAR' },
} as const satisfies ColumnMap;

const transactionColumns = {
  transaction_date: { type: 'DATE' },
  deemed_execution_date: { type: 'DATE' },
  trans_form_type: { type: 'VARCHAR' },
  trans_code: { type: 'VARCHAR', description: 'Transaction code: P purchase, S sale, M exercise, A grant, F tax withholding, G gift, …' },
  equity_swap_involved: { type: 'BOOLEAN' },
  transaction_timeliness: { type: 'VARCHAR', description: 'E early, L late.' },
  shares: { type: 'DOUBLE' },
  total_value: { type: 'DOUBLE', description: 'Derivatives reported by value instead of shares.' },
  price_per_share: { type: 'DOUBLE', description: 'Null when given only in a footnote (see price_footnote).' },
  price_footnote: { type: 'VARCHAR', description: 'Text of the footnotes on the price (weighted-average ranges, price given only in a footnote).' },
  acquired_disposed: { type: 'VARCHAR', description: 'A acquired, D disposed.' },
  value_usd: { type: 'DOUBLE', description: 'shares × price_per_share when both are known.' },
} as const satisfies ColumnMap;

/** `/v1/insider`'s order within a quarter: its first pages read the newest quarters' heads (docs/layouts.md, "Heads"). */
export const insiderPageOrder = [
  { column: 'filed_date', dir: 'desc' },
  { column: 'accession', dir: 'desc' },
  { column: 'row_seq', dir: 'asc' },
] as const satisfies readonly OrderColumn[];

export const insiderTransactionsTable = defineTable({
  name: 'insider_transactions',
  description: 'Form 3/4/5 transactions (non-derivative and derivative), one row per transaction, with issuer, reporting owners and resolved footnotes.',
  columns: { ...filingColumns, ...transactionColumns, ...positionColumns },
  partitionBy: 'filed_quarter',
  sortBy: ['issuer_cik', 'filed_date', 'accession', 'row_seq'],
  primaryKey: ['accession', 'row_seq'],
  writeMode: 'merge',
  // An issuer's page reads the one row group its CIK falls in, in each quarter it walks, and decompresses all its
  // columns: 16,384 rows instead of 122,880 (docs/layouts.md, "Row groups").
  rowGroupSize: 16_384,
  // A page not keyed by issuer sorts a quarter's order columns, then reads its 26 rows' 60 columns (docs/layouts.md).
  lateMaterialization: true,
  // An owner's page (`?owner_cik=`) finds in each quarter's index the issuers the owner's rows are under, and reads
  // their row groups only, where the owners column alone was scanned in full (docs/layouts.md, "Key indexes").
  keyIndexes: [{ key: 'owner_ciks', list: true }],
  head: { order: insiderPageOrder },
});

export const insiderHoldingsTable = defineTable({
  name: 'insider_holdings',
  description: 'Form 3/4/5 holdings reported without a transaction (non-derivative and derivative).',
  columns: { ...filingColumns, ...positionColumns },
  partitionBy: 'filed_quarter',
  sortBy: ['issuer_cik', 'filed_date', 'accession', 'row_seq'],
  primaryKey: ['accession', 'row_seq'],
  writeMode: 'merge',
});

/** The filing index page on the regulator's site: provenance for every row of an accession. */
export function filingIndexUrl(cik: string | null, accession: string): string | null {
  if (!cik) return null;
  return `https://www.sec.gov/Archives/edgar/data/${Number(cik)}/${accession.replace(/-/g, '')}/${accession}-index.htm`;
}
