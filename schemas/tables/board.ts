import { defineTable } from '../table.ts';

/**
 * Both writers of board_members (proxy, irs990) share this parser version: the runner re-derives a table's
 * partitions written by a lower version than the running ingester's, and the catalog does not yet record
 * which ingester wrote a partition (the catalog now records it; the shared version stays as the simple rule). Bump it when either parser's output changes.
 */
export const BOARD_PARSER_VERSION = 1;

/**
 * Board members and officers from two kinds of sources in one table, so `/v1/board?person_name=` is a
 * single query: company proxies (`sec_proxy`, written by the `proxy` ingester) and tax-exempt returns
 * (`irs_990`, written by the `irs990` ingester). Each ingester merges into its own partitions
 * (`source_partition` = `<source_type>-<year>`), so neither run ever touches the other's rows.
 */
export const boardMembersTable = defineTable({
  name: 'board_members',
  description: 'Directors, trustees, officers and key employees from DEF 14A proxies and IRS Form 990 Part VII / 990-EZ / 990-PF.',
  columns: {
    record_id: { type: 'VARCHAR', nullable: false, description: 'Stable row id: `<filing id>:<name key or list position>`.' },
    source_partition: { type: 'VARCHAR', nullable: false, description: '`sec_proxy-<fiscal year>` or `irs_990-<tax year>`.' },
    source_type: { type: 'VARCHAR', nullable: false, description: '`sec_proxy` | `irs_990`.' },
    org_id: { type: 'VARCHAR', nullable: false, description: 'sec_cik for proxies, ein for 990s (keyset order).' },
    sec_cik: { type: 'VARCHAR', description: '10-digit CIK of the issuer (proxies).' },
    ein: { type: 'VARCHAR', description: '9-digit EIN (990s).' },
    organization_name: { type: 'VARCHAR', nullable: false },
    person_name: { type: 'VARCHAR', nullable: false, description: 'Name as printed (footnote markers removed).' },
    name_key: { type: 'VARCHAR', nullable: false, description: 'Normalized `first last`, lower-case ASCII.' },
    name_first: { type: 'VARCHAR' },
    name_middle: { type: 'VARCHAR' },
    name_last: { type: 'VARCHAR', nullable: false },
    name_suffix: { type: 'VARCHAR' },
    title: { type: 'VARCHAR' },
    role: {
      type: 'VARCHAR',
      nullable: false,
      description: 'Main role: director | officer | key_employee | highest_compensated | former | institutional_trustee | listed.',
    },
    roles: { type: 'VARCHAR', nullable: false, description: 'Every role, comma-separated.' },
    is_director: { type: 'BOOLEAN' },
    is_officer: { type: 'BOOLEAN' },
    is_key_employee: { type: 'BOOLEAN' },
    is_highest_compensated: { type: 'BOOLEAN' },
    is_former: { type: 'BOOLEAN' },
    is_institutional_trustee: { type: 'BOOLEAN' },
    is_independent: { type: 'BOOLEAN' },
    age: { type: 'INTEGER' },
    director_since: { type: 'INTEGER' },
    average_hours_per_week: { type: 'DOUBLE' },
    average_hours_related_orgs: { type: 'DOUBLE' },
    reportable_comp_usd: { type: 'BIGINT', description: '990: reportable compensation from the organization (990-EZ/PF: compensation).' },
    reportable_comp_related_usd: { type: 'BIGINT' },
    other_comp_usd: { type: 'BIGINT' },
    benefit_program_usd: { type: 'BIGINT' },
    expense_allowance_usd: { type: 'BIGINT' },
    fiscal_year: { type: 'INTEGER', nullable: false, description: 'Proxy: fiscal year covered; 990: tax year.' },
    period_end: { type: 'DATE', description: '990 tax period end.' },
    form_type: { type: 'VARCHAR', description: 'DEF 14A, 990, 990EZ, 990PF.' },
    accession_number: { type: 'VARCHAR' },
    object_id: { type: 'VARCHAR', description: '990 e-file OBJECT_ID.' },
    filed_date: { type: 'DATE' },
    confidence: { type: 'DOUBLE', nullable: false, description: '1.0 for structured 990 flags; proxy rows carry the extractor confidence.' },
    found_in: { type: 'JSON', description: 'Proxy tables/layouts the person was read from.' },
    source_url: { type: 'VARCHAR' },
  },
  partitionBy: 'source_partition',
  sortBy: ['name_last', 'org_id', 'record_id'],
  primaryKey: ['record_id'],
  writeMode: 'merge',
});
