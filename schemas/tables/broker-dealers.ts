import { defineTable } from '../table.ts';

/**
 * Broker-dealers as of a date: the SEC's monthly list of active broker-dealers (CIK, name, `8-` file number,
 * address; no CRD) merged by SEC file number with IAPD firm records (CRD, status, disclosures) when given.
 */
export const brokerDealersTable = defineTable({
  name: 'broker_dealers',
  description: 'Broker-dealers: SEC active broker-dealer list joined with IAPD firm records by SEC file number.',
  columns: {
    snapshot_date: { type: 'DATE', nullable: false },
    bd_key: { type: 'VARCHAR', nullable: false, description: 'SEC file number, or crd:<CRD> / cik:<CIK> when there is none.' },
    sec_number: { type: 'VARCHAR', description: 'Broker-dealer SEC file number, 8-#####.' },
    sec_file_number_raw: { type: 'VARCHAR', description: 'REPORTING FILE NUMBER as published (e.g. 00821897).' },
    bd_crd: { type: 'VARCHAR', description: 'Firm CRD (IAPD), when known.' },
    cik: { type: 'VARCHAR', description: '10-digit CIK (SEC list).' },
    name: { type: 'VARCHAR', nullable: false },
    other_names: { type: 'JSON' },
    status: { type: 'VARCHAR', nullable: false, description: 'ACTIVE for firms on the SEC active list; otherwise the IAPD broker-dealer scope.' },
    on_sec_active_list: { type: 'BOOLEAN', nullable: false },
    street1: { type: 'VARCHAR' },
    street2: { type: 'VARCHAR' },
    city: { type: 'VARCHAR' },
    state: { type: 'VARCHAR', description: 'US state, or the EDGAR foreign location code as published (A6 = Ontario…).' },
    country: { type: 'VARCHAR' },
    postal_code: { type: 'VARCHAR' },
    phone: { type: 'VARCHAR' },
    has_disclosure: { type: 'BOOLEAN', description: 'IAPD broker-dealer disclosure flag.' },
    branches_count: { type: 'INTEGER' },
    finra_last_approval_date: { type: 'DATE' },
    expelled_date: { type: 'DATE' },
    also_adviser_sec_number: { type: 'VARCHAR', description: '801- number when the firm is also an investment adviser.' },
    sources: { type: 'JSON', description: 'Files the record was assembled from.' },
    source_file: { type: 'VARCHAR', nullable: false },
    source_line: { type: 'INTEGER' },
    source_url: { type: 'VARCHAR', nullable: false },
  },
  partitionBy: 'snapshot_date',
  sortBy: ['name', 'bd_key'],
  primaryKey: ['snapshot_date', 'bd_key'],
  writeMode: 'replace',
});
