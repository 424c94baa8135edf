import { defineTable } from '../table.ts';

/**
 * Proxy rows keep issuer CIK, accession, filed date, fiscal year and the normalized name on every row:
 * the events stage compares consecutive proxies of one issuer on (cik, name_key) to derive
 * sec.proxy.board_changed and sec.proxy.executive_compensation_changed.
 */

const filingColumns = {
  filing_id: { type: 'VARCHAR', nullable: false, description: 'Accession number, or `doc:<sha1>` for a local document without one.' },
  accession_number: { type: 'VARCHAR' },
  filed_date: { type: 'DATE' },
  form_type: { type: 'VARCHAR' },
  proxy_fiscal_year: { type: 'INTEGER', nullable: false, description: 'Fiscal year the proxy statement covers (partition).' },
  source_url: { type: 'VARCHAR' },
} as const;

const nameColumns = {
  name_key: { type: 'VARCHAR', nullable: false, description: 'Normalized `first last`.' },
  name_first: { type: 'VARCHAR' },
  name_middle: { type: 'VARCHAR' },
  name_last: { type: 'VARCHAR', nullable: false },
  name_suffix: { type: 'VARCHAR' },
} as const;

export const proxyOfficersTable = defineTable({
  name: 'proxy_officers',
  description: 'People named in DEF 14A director/executive tables and director bio layouts, one row per person per proxy.',
  columns: {
    record_id: { type: 'VARCHAR', nullable: false },
    cik: { type: 'VARCHAR', nullable: false, description: '10-digit issuer CIK.' },
    issuer: { type: 'VARCHAR' },
    ...filingColumns,
    name: { type: 'VARCHAR', nullable: false, description: 'As printed.' },
    ...nameColumns,
    title: { type: 'VARCHAR' },
    is_director: { type: 'BOOLEAN', nullable: false },
    is_officer: { type: 'BOOLEAN', nullable: false },
    is_independent: { type: 'BOOLEAN' },
    age: { type: 'INTEGER' },
    director_since: { type: 'INTEGER' },
    officer_since: { type: 'INTEGER' },
    confidence: { type: 'DOUBLE', nullable: false },
    found_in: { type: 'JSON', nullable: false },
  },
  partitionBy: 'proxy_fiscal_year',
  sortBy: ['cik', 'name_last', 'record_id'],
  primaryKey: ['record_id'],
  writeMode: 'merge',
});

export const proxyCompensationTable = defineTable({
  name: 'proxy_compensation',
  description: 'Summary compensation table rows (one per executive per fiscal year), director and fund compensation tables, from DEF 14A.',
  columns: {
    record_id: { type: 'VARCHAR', nullable: false },
    filer_cik: { type: 'VARCHAR', nullable: false },
    issuer_name: { type: 'VARCHAR' },
    ...filingColumns,
    table_kind: { type: 'VARCHAR', nullable: false, description: 'summary_compensation | director_compensation | fund_compensation' },
    executive_name: { type: 'VARCHAR', nullable: false },
    ...nameColumns,
    title: { type: 'VARCHAR' },
    is_director: { type: 'BOOLEAN', nullable: false },
    fiscal_year: { type: 'INTEGER', nullable: false },
    salary_usd: { type: 'BIGINT' },
    bonus_usd: { type: 'BIGINT' },
    stock_awards_usd: { type: 'BIGINT' },
    option_awards_usd: { type: 'BIGINT' },
    non_equity_incentive_usd: { type: 'BIGINT' },
    pension_deferred_usd: { type: 'BIGINT' },
    other_usd: { type: 'BIGINT' },
    fees_cash_usd: { type: 'BIGINT' },
    aggregate_comp_usd: { type: 'BIGINT' },
    total_usd: { type: 'BIGINT' },
    total_checks: { type: 'BOOLEAN' },
    pvp_verified: { type: 'BOOLEAN', nullable: false },
    pvp_compensation_actually_paid_usd: { type: 'BIGINT' },
    confidence: { type: 'DOUBLE', nullable: false },
  },
  partitionBy: 'proxy_fiscal_year',
  sortBy: ['filer_cik', 'fiscal_year', 'record_id'],
  primaryKey: ['record_id'],
  writeMode: 'merge',
});
