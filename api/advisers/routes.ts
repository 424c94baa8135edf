import type { z } from 'zod';
import { defineList, defineLookup, f } from '../core/endpoint.ts';
import { crdParam, p, rangeIssue, withoutLeadingZeros } from '../core/params.ts';
import { bool, isoDate, jsonList, num, str } from '../core/records.ts';
import { AdviserListRecord, AdviserProfile } from '../../schemas/records/advisers.ts';
import { advisersTable } from '../../schemas/tables/advisers.ts';
import { SOURCE } from '../../schemas/sources.ts';

function listRecord(r: Record<string, unknown>): z.infer<typeof AdviserListRecord> {
  return {
    crd: String(r.crd),
    business_name: String(r.business_name),
    legal_name: str(r.legal_name),
    sec_number: str(r.sec_number),
    registration_type: r.registration_type as 'registered' | 'exempt_reporting',
    regulatory_aum_total: num(r.regulatory_aum_total),
    has_private_funds: bool(r.has_private_funds),
    disciplinary: bool(r.disciplinary),
    address: { street1: str(r.street1), city: str(r.city), state: str(r.state), postal_code: str(r.postal_code), country: str(r.country) },
    snapshot_date: isoDate(r.snapshot_date)!,
    source: SOURCE.sec_form_adv,
    source_url: String(r.source_url),
  };
}

function profileRecord(r: Record<string, unknown>): z.infer<typeof AdviserProfile> {
  const base = listRecord(r);
  return {
    ...base,
    address: { ...base.address, street2: str(r.street2) },
    sec_region: str(r.sec_region),
    firm_type: str(r.firm_type),
    cik: str(r.cik),
    sec_status: str(r.sec_status),
    sec_status_date: isoDate(r.sec_status_date),
    latest_filing_date: isoDate(r.latest_filing_date),
    form_version: str(r.form_version),
    phone: str(r.phone),
    websites: jsonList(r.websites),
    employees: num(r.employees),
    raum_discretionary: num(r.raum_discretionary),
    raum_non_discretionary: num(r.raum_non_discretionary),
    regulatory_aum_total_raw: str(r.regulatory_aum_total_raw),
    accounts_total: num(r.accounts_total),
    client_types: jsonList(r.client_types),
    private_fund_count: num(r.private_fund_count),
    private_fund_gross_assets: num(r.private_fund_gross_assets),
    source_file: String(r.source_file),
  };
}

const params = {
  aum_min: p.int({ ge: 0, description: 'Minimum total regulatory AUM (Item 5.F(2)(c)), USD.', example: 1_000_000_000 }),
  aum_max: p.int({ ge: 0, description: 'Maximum total regulatory AUM, USD; must be >= aum_min.' }),
  state: p.str({ upper: true, pattern: /^[A-Z]{2}$/, patternText: '^[A-Za-z]{2}$', description: 'Main-office state, two letters (any case).', example: 'NY' }),
  has_private_funds: p.bool({ description: 'Item 7.B: advises private funds.' }),
  disciplinary: p.bool({ description: 'Item 11: reports disciplinary history.' }),
  q: p.str({ maxLength: 200, description: 'Case-insensitive substring of the legal or business name.' }),
};

const list = defineList({
  path: '/v1/advisers',
  summary: 'Investment advisers (latest monthly Form ADV roster)',
  description:
    'Registered and exempt-reporting advisers from the newest roster snapshot, ordered by regulatory AUM ' +
    '(largest first; advisers reporting none last), then CRD. `as_of` is the snapshot date.',
  tag: 'Advisers',
  source: SOURCE.sec_form_adv,
  table: advisersTable,
  params,
  filters: {
    aum_min: f.gte('regulatory_aum_total'),
    aum_max: f.lte('regulatory_aum_total'),
    state: f.eq('state'),
    has_private_funds: f.eq('has_private_funds'),
    disciplinary: f.eq('disciplinary'),
    q: f.contains('legal_name', 'business_name'),
  },
  validate: (v) => [rangeIssue(v, 'aum_min', 'aum_max')],
  scope: 'latest_partition',
  orderBy: [
    { column: 'aum_rank', dir: 'desc' },
    { column: 'crd_int', dir: 'asc' },
  ],
  record: AdviserListRecord,
  toRecord: listRecord,
});

const lookup = defineLookup({
  path: '/v1/advisers/{crd}',
  summary: 'One adviser profile by CRD (latest roster snapshot)',
  description:
    'The fuller profile: legal name, full address, Item 11 disciplinary flag, SEC number and status, ' +
    'employees, RAUM split, client types, websites, filing date. Leading zeros in the CRD are ignored.',
  tag: 'Advisers',
  source: SOURCE.sec_form_adv,
  table: advisersTable,
  pathParams: { crd: crdParam({ required: true, description: 'Organization CRD number.', example: '148826' }) },
  filters: { crd: f.eqNormalized('crd', withoutLeadingZeros) },
  scope: 'latest_partition',
  record: AdviserProfile,
  toRecord: profileRecord,
  notFound: (v) => `No adviser with CRD ${v.crd} in the latest roster snapshot.`,
});

export default [list, lookup];
