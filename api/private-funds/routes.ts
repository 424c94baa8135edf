import { defineList, f } from '../core/endpoint.ts';
import { crdParam, p, withoutLeadingZeros } from '../core/params.ts';
import { bool, isoDate, num, str } from '../core/records.ts';
import { PrivateFund } from '../../schemas/records/private-funds.ts';
import { privateFundsTable } from '../../schemas/tables/private-funds.ts';
import { SOURCE } from '../../schemas/sources.ts';

const list = defineList({
  path: '/v1/private-funds',
  summary: 'Private funds (Form ADV Schedule D 7.B.(1)), latest filing per adviser',
  description:
    "One record per private fund as reported in its adviser's most recent Form ADV, ordered by adviser CRD " +
    'then fund ID. `as_of` is the end of the newest filing-data month ingested.',
  tag: 'Advisers',
  source: SOURCE.sec_form_adv_schedule_d,
  table: privateFundsTable,
  params: {
    crd: crdParam({ description: 'Adviser CRD (leading zeros ignored).' }),
    sec_number: p.str({ maxLength: 20, description: 'Adviser SEC file number, e.g. 801-70860.' }),
    firm_name: p.str({ maxLength: 200, description: 'Substring of the adviser business or legal name (case-insensitive).' }),
    full_name: p.str({ maxLength: 200, description: 'Substring of the fund name (case-insensitive).' }),
    control_person: p.int({ ge: 0, le: 1, description: '1: advisers answering Yes to Item 10.A (control persons); 0: No.' }),
    fund_id: p.str({ pattern: /^805-\d{1,10}$/, patternText: '^805-\\d{1,10}$', description: 'Private fund ID.' }),
    fund_type: p.str({ maxLength: 60, description: 'Fund type, exact and case-insensitive (e.g. hedge fund).' }),
  },
  filters: {
    crd: f.eqNormalized('crd', withoutLeadingZeros),
    sec_number: f.eq('sec_number'),
    firm_name: f.contains('firm_name', 'firm_legal_name'),
    full_name: f.contains('full_name'),
    control_person: f.eq('control_person'),
    fund_id: f.eq('fund_id'),
    fund_type: f.ieq('fund_type'),
  },
  scope: 'latest_partition',
  orderBy: [
    { column: 'crd_int', dir: 'asc' },
    { column: 'fund_key', dir: 'asc' },
  ],
  record: PrivateFund,
  toRecord: (r) => ({
    crd: String(r.crd),
    sec_number: str(r.sec_number),
    firm_name: str(r.firm_name),
    firm_legal_name: str(r.firm_legal_name),
    filer_type: r.filer_type as 'IA' | 'ERA',
    control_person: num(r.control_person),
    fund_id: str(r.fund_id),
    full_name: String(r.full_name),
    fund_type: str(r.fund_type),
    fund_type_other: str(r.fund_type_other),
    gross_asset_value: num(r.gross_asset_value),
    minimum_investment: num(r.minimum_investment),
    beneficial_owners: num(r.beneficial_owners),
    organized_state: str(r.organized_state),
    organized_country: str(r.organized_country),
    exclusion_3c1: bool(r.exclusion_3c1),
    exclusion_3c7: bool(r.exclusion_3c7),
    is_master: bool(r.is_master),
    is_feeder: bool(r.is_feeder),
    master_fund_name: str(r.master_fund_name),
    master_fund_id: str(r.master_fund_id),
    is_fund_of_funds: bool(r.is_fund_of_funds),
    pct_owned_related: num(r.pct_owned_related),
    pct_owned_funds_of_funds: num(r.pct_owned_funds_of_funds),
    pct_owned_non_us: num(r.pct_owned_non_us),
    is_subadviser: bool(r.is_subadviser),
    filing_id: Number(r.filing_id),
    date_submitted: str(r.date_submitted),
    as_of_date: isoDate(r.as_of_date)!,
    source: SOURCE.sec_form_adv_schedule_d,
    source_url: String(r.source_url),
  }),
});

export default [list];
