import { defineTable } from '../table.ts';

/**
 * Form ADV Schedule D 7.B.(1): one row per private fund, as last reported by its adviser. Each partition is the
 * complete state as of a date: the funds of each adviser's most recent filing up to then (advisers that did not
 * file in a month are carried forward from the previous partition).
 */
export const privateFundsTable = defineTable({
  name: 'private_funds',
  description: 'Private funds reported by advisers on Form ADV Schedule D 7.B.(1), latest filing per adviser.',
  columns: {
    as_of_date: { type: 'DATE', nullable: false, description: 'End date of the newest filing-data period included.' },
    crd: { type: 'VARCHAR', nullable: false, description: 'Adviser CRD (Item 1.E.1).' },
    crd_int: { type: 'BIGINT', nullable: false },
    sec_number: { type: 'VARCHAR', description: 'Adviser SEC file number (Item 1.D).' },
    firm_name: { type: 'VARCHAR', description: 'Adviser business name (Item 1.B.1), or legal name when none.' },
    firm_legal_name: { type: 'VARCHAR', description: 'Item 1.A.' },
    filer_type: { type: 'VARCHAR', nullable: false, description: 'IA (registered) | ERA (exempt reporting).' },
    control_person: {
      type: 'INTEGER',
      description: "Item 10.A of the adviser's filing: 1 when a person not named in Item 1.A or Schedules A-C controls the adviser, else 0.",
    },
    filing_id: { type: 'BIGINT', nullable: false },
    date_submitted: { type: 'TIMESTAMP', description: 'When the filing was submitted (US Eastern, as published).' },
    fund_key: { type: 'VARCHAR', nullable: false, description: 'Fund ID, or `ref:<ReferenceID>` for the rare fund without one.' },
    fund_id: { type: 'VARCHAR', description: 'Private fund identification number, 805-##########.' },
    reference_id: { type: 'VARCHAR' },
    full_name: { type: 'VARCHAR', nullable: false, description: 'Fund name.' },
    organized_state: { type: 'VARCHAR' },
    organized_country: { type: 'VARCHAR' },
    exclusion_3c1: { type: 'BOOLEAN' },
    exclusion_3c7: { type: 'BOOLEAN' },
    is_master: { type: 'BOOLEAN' },
    is_feeder: { type: 'BOOLEAN' },
    master_fund_name: { type: 'VARCHAR' },
    master_fund_id: { type: 'VARCHAR' },
    is_fund_of_funds: { type: 'BOOLEAN' },
    fund_type: {
      type: 'VARCHAR',
      description: 'Hedge Fund, Liquidity Fund, Private Equity Fund, Real Estate Fund, Securitized Asset Fund, Venture Capital Fund, Other Private Fund.',
    },
    fund_type_other: { type: 'VARCHAR' },
    gross_asset_value: { type: 'BIGINT', description: 'USD.' },
    gross_asset_value_raw: { type: 'VARCHAR' },
    minimum_investment: { type: 'BIGINT', description: 'USD.' },
    beneficial_owners: { type: 'INTEGER' },
    pct_owned_related: { type: 'DOUBLE', description: '% owned by the adviser and related persons.' },
    pct_owned_funds_of_funds: { type: 'DOUBLE' },
    pct_owned_non_us: { type: 'DOUBLE' },
    is_subadviser: { type: 'BOOLEAN' },
    other_advisers: { type: 'BOOLEAN' },
    clients_solicited: { type: 'BOOLEAN' },
    reg_d_exempt: { type: 'BOOLEAN' },
    annual_audit: { type: 'BOOLEAN' },
    source_file: { type: 'VARCHAR', nullable: false },
    source_line: { type: 'INTEGER' },
    source_url: { type: 'VARCHAR', nullable: false, description: "The adviser's public IAPD page (where its Form ADV is shown)." },
  },
  partitionBy: 'as_of_date',
  sortBy: ['crd_int', 'fund_key'],
  primaryKey: ['as_of_date', 'crd', 'fund_key'],
  writeMode: 'replace',
});
