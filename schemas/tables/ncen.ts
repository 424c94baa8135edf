import { defineTable } from '../table.ts';

/**
 * N-CEN service providers, one row per (filing, fund, provider role, provider). Registrant-level roles (auditor,
 * principal underwriter) carry no series. Partitioned by the year of the reporting period end.
 */
export const fundProviders = defineTable({
  name: 'fund_providers',
  description:
    'Service providers of registered funds from Form N-CEN: advisers, sub-advisers, administrators, ' +
    'custodians, transfer agents, pricing services, underwriters, auditors, …',
  columns: {
    accession_number: { type: 'VARCHAR', nullable: false },
    provider_no: { type: 'INTEGER', nullable: false, description: 'Ordinal of the provider within the filing.' },
    filer_cik: { type: 'VARCHAR', nullable: false, description: 'Registrant CIK, 10 digits.' },
    registrant_name: { type: 'VARCHAR' },
    series_id: { type: 'VARCHAR' },
    fund_name: { type: 'VARCHAR' },
    role: {
      type: 'VARCHAR',
      nullable: false,
      description:
        'Lower case: adviser, sub-adviser, administrator, custodian, transfer agent, pricing service, ' +
        'shareholder servicing agent, securities lending agent, broker-dealer, broker, underwriter, ' +
        'auditor.',
    },
    provider_name: { type: 'VARCHAR', nullable: false },
    provider_cik: { type: 'VARCHAR', description: 'Only when the filing states one (N-CEN rarely does).' },
    provider_lei: { type: 'VARCHAR' },
    provider_file_number: { type: 'VARCHAR', description: '801- (advisers), 084- (transfer agents), 8- (brokers).' },
    provider_crd: { type: 'VARCHAR' },
    state: { type: 'VARCHAR' },
    country: { type: 'VARCHAR' },
    is_affiliated: { type: 'BOOLEAN' },
    report_period_end: { type: 'DATE', nullable: false },
    report_year: { type: 'VARCHAR', nullable: false, description: 'Year of report_period_end (partition).' },
    filing_date: { type: 'DATE' },
    source: { type: 'VARCHAR', nullable: false },
    source_url: { type: 'VARCHAR', nullable: false },
  },
  partitionBy: 'report_year',
  sortBy: ['filer_cik', 'accession_number', 'provider_no'],
  primaryKey: ['accession_number', 'provider_no'],
  writeMode: 'merge',
});
