import { z } from 'zod';
import { defineList, defineLookup, f } from '../core/endpoint.ts';
import { p, rangeIssue } from '../core/params.ts';
import { advisersTable } from '../../schemas/tables/advisers.ts';
import { Address, bool, CRD_PATTERN, isoDate, jsonList, num, STATE_PATTERN, str } from '../adv-common/records.ts';

const SOURCE = 'sec_form_adv';

const AdviserListRecord = z.object({
  crd: z.string().describe('Organization CRD number.'),
  business_name: z.string(),
  legal_name: z.string().nullable(),
  sec_number: z.string().nullable().describe('801- (registered) or 802- (exempt reporting).'),
  registration_type: z.enum(['registered', 'exempt_reporting']),
  regulatory_aum_total: z.number().int().nullable().describe('Item 5.F(2)(c), USD; null for exempt-reporting advisers.'),
  has_private_funds: z.boolean().nullable().describe('Item 7.B.'),
  disciplinary: z.boolean().nullable().describe('Item 11 disciplinary history.'),
  address: Address.describe('Main office.'),
  snapshot_date: z.string().describe('As-of date of the roster the record comes from.'),
  source: z.string(),
  source_url: z.string().describe("The adviser's public IAPD page."),
});

const AdviserProfile = AdviserListRecord.extend({
  sec_region: z.string().nullable(),
  firm_type: z.string().nullable(),
  cik: z.string().nullable().describe('10-digit CIK when the roster gives one.'),
  sec_status: z.string().nullable().describe('SEC Current Status as published.'),
  sec_status_date: z.string().nullable(),
  latest_filing_date: z.string().nullable().describe('Latest Form ADV filing date.'),
  form_version: z.string().nullable(),
  phone: z.string().nullable(),
  websites: z.array(z.string()),
  employees: z.number().int().nullable().describe('Item 5.A.'),
  raum_discretionary: z.number().int().nullable().describe('Item 5.F(2)(a), USD.'),
  raum_non_discretionary: z.number().int().nullable().describe('Item 5.F(2)(b), USD.'),
  regulatory_aum_total_raw: z.string().nullable().describe('Item 5.F(2)(c) exactly as published.'),
  accounts_total: z.number().int().nullable().describe('Item 5.F(2)(f).'),
  client_types: z.array(z.string()).describe('Item 5.D client types reported.'),
  private_fund_count: z.number().int().nullable(),
  private_fund_gross_assets: z.number().int().nullable().describe('USD.'),
  source_file: z.string().describe('Published file (and zip member) the record was read from.'),
});

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
    source: SOURCE,
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
  state: p.str({ upper: true, pattern: STATE_PATTERN, patternText: '^[A-Za-z]{2}$', description: 'Main-office state, two letters (any case).', example: 'NY' }),
  has_private_funds: p.bool({ description: 'Item 7.B: advises private funds.' }),
  disciplinary: p.bool({ description: 'Item 11: reports disciplinary history.' }),
  q: p.str({ maxLength: 200, description: 'Case-insensitive substring of the legal or business name.' }),
};

const list = defineList({
  path: '/v1/advisers',
  summary: 'Investment advisers (latest monthly Form ADV roster)',
  description: 'Registered and exempt-reporting advisers from the newest roster snapshot, ordered by regulatory AUM (largest first; advisers reporting none last), then CRD. `as_of` is the snapshot date.',
  tag: 'Advisers',
  source: SOURCE,
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
  orderBy: [{ column: 'aum_rank', dir: 'desc' }, { column: 'crd_int', dir: 'asc' }],
  record: AdviserListRecord,
  toRecord: listRecord,
  cost: 5,
});

const lookup = defineLookup({
  path: '/v1/advisers/:crd',
  summary: 'One adviser profile by CRD (latest roster snapshot)',
  description: 'The fuller profile: legal name, full address, Item 11 disciplinary flag, SEC number and status, employees, RAUM split, client types, websites, filing date. Leading zeros in the CRD are ignored.',
  tag: 'Advisers',
  source: SOURCE,
  table: advisersTable,
  pathParams: { crd: p.str({ required: true, pattern: CRD_PATTERN, patternText: '^\\d{1,10}$', description: 'Organization CRD number.', example: '148826' }) },
  filters: { crd: (v, b) => `"crd" = ${b.param(v.replace(/^0+(?=\d)/, ''))}` },
  scope: 'latest_partition',
  record: AdviserProfile,
  toRecord: profileRecord,
  notFound: (v) => `No adviser with CRD ${v.crd} in the latest roster snapshot.`,
  cost: 5,
});

export default [list, lookup];
