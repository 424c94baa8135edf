import { defineList, f } from '../core/endpoint.ts';
import { crdParam, p, withoutLeadingZeros } from '../core/params.ts';
import { bool, isoDate, jsonList, num, str } from '../core/records.ts';
import { BrokerDealer } from '../../schemas/records/broker-dealers.ts';
import { brokerDealersTable } from '../../schemas/tables/broker-dealers.ts';
import { bdSecNumber } from '../../ingest/sources/iapd/index.ts';
import { SOURCE } from '../../schemas/sources.ts';

const list = defineList({
  path: '/v1/broker-dealers',
  summary: 'Broker-dealers (SEC active list joined with IAPD firm records)',
  description: "Newest snapshot, ordered by name. `sec_number` accepts 8-21897, 008-21897 or the list's 00821897 form.",
  tag: 'Advisers',
  source: SOURCE.sec_broker_dealers,
  table: brokerDealersTable,
  params: {
    bd_crd: crdParam({ description: 'Firm CRD.' }),
    sec_number: p.str({ pattern: /^(0*8-\d{1,8}|008\d{1,8})$/, patternText: '^(0*8-\\d{1,8}|008\\d{1,8})$', description: 'Broker-dealer SEC file number.' }),
    status: p.str({ upper: true, maxLength: 30, description: 'ACTIVE, INACTIVE… (case-insensitive).' }),
    name: p.str({ maxLength: 200, description: 'Case-insensitive substring of the firm name.' }),
    main_office_state: p.str({
      upper: true,
      pattern: /^[A-Z0-9]{2}$/,
      patternText: '^[A-Za-z0-9]{2}$',
      description: 'US state or EDGAR location code (A6 = Ontario).',
    }),
    main_office_country: p.str({ maxLength: 60, description: 'Country name, case-insensitive (United States, Canada…).' }),
    main_office_city: p.str({ maxLength: 60, description: 'City, case-insensitive exact match.' }),
  },
  filters: {
    bd_crd: f.eqNormalized('bd_crd', withoutLeadingZeros),
    sec_number: f.eqNormalized('sec_number', (v) => bdSecNumber(v) ?? v),
    status: f.eq('status'),
    name: f.contains('name'),
    main_office_state: f.eq('state'),
    main_office_country: f.ieq('country'),
    main_office_city: f.ieq('city'),
  },
  scope: 'latest_partition',
  orderBy: [
    { column: 'name', dir: 'asc' },
    { column: 'bd_key', dir: 'asc' },
  ],
  record: BrokerDealer,
  toRecord: (r) => ({
    bd_crd: str(r.bd_crd),
    sec_number: str(r.sec_number),
    cik: str(r.cik),
    name: String(r.name),
    other_names: jsonList<string>(r.other_names),
    status: String(r.status),
    on_sec_active_list: Boolean(r.on_sec_active_list),
    main_office: {
      street1: str(r.street1),
      street2: str(r.street2),
      city: str(r.city),
      state: str(r.state),
      postal_code: str(r.postal_code),
      country: str(r.country),
    },
    phone: str(r.phone),
    has_disclosure: bool(r.has_disclosure),
    branches_count: num(r.branches_count),
    finra_last_approval_date: isoDate(r.finra_last_approval_date),
    expelled_date: isoDate(r.expelled_date),
    also_adviser_sec_number: str(r.also_adviser_sec_number),
    snapshot_date: isoDate(r.snapshot_date)!,
    source: SOURCE.sec_broker_dealers,
    source_url: String(r.source_url),
  }),
});

export default [list];
