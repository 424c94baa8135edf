import { cleanText, padCik, toBool, toInt, toIsoDate } from '../common/normalize.ts';
import type { RowOf } from '../../../schemas/table.ts';
import type { advisersTable } from '../../../schemas/tables/advisers.ts';

/** One adviser as read from any source (roster CSV or IAPD XML), still as the untouched source text. */
export interface RawAdviser {
  crd: string | null;
  sec_number: string | null;
  sec_region: string | null;
  firm_type: string | null;
  cik: string | null;
  business_name: string | null;
  legal_name: string | null;
  street1: string | null;
  street2: string | null;
  city: string | null;
  state: string | null;
  postal_code: string | null;
  country: string | null;
  phone: string | null;
  sec_status: string | null;
  sec_status_date: string | null;
  latest_filing_date: string | null;
  form_version: string | null;
  websites: string[];
  employees: string | null;
  raum_discretionary: string | null;
  raum_non_discretionary: string | null;
  regulatory_aum_total: string | null;
  accounts_total: string | null;
  client_types: string[];
  has_private_funds: string | null;
  private_fund_count: string | null;
  private_fund_gross_assets: string | null;
  disciplinary: string | null;
}

export function emptyRawAdviser(): RawAdviser {
  return {
    crd: null,
    sec_number: null,
    sec_region: null,
    firm_type: null,
    cik: null,
    business_name: null,
    legal_name: null,
    street1: null,
    street2: null,
    city: null,
    state: null,
    postal_code: null,
    country: null,
    phone: null,
    sec_status: null,
    sec_status_date: null,
    latest_filing_date: null,
    form_version: null,
    websites: [],
    employees: null,
    raum_discretionary: null,
    raum_non_discretionary: null,
    regulatory_aum_total: null,
    accounts_total: null,
    client_types: [],
    has_private_funds: null,
    private_fund_count: null,
    private_fund_gross_assets: null,
    disciplinary: null,
  };
}

/** Form ADV Item 5.D client-type letters (2017+ layout). */
export const CLIENT_TYPES: Record<string, string> = {
  a: 'individuals',
  b: 'high_net_worth_individuals',
  c: 'banking_or_thrift_institutions',
  d: 'investment_companies',
  e: 'business_development_companies',
  f: 'pooled_investment_vehicles',
  g: 'pension_and_profit_sharing_plans',
  h: 'charitable_organizations',
  i: 'state_or_municipal_government_entities',
  j: 'other_investment_advisers',
  k: 'insurance_companies',
  l: 'sovereign_wealth_funds',
  m: 'corporations_or_other_businesses',
  n: 'other',
};

export interface RowPlace {
  snapshotDate: string;
  /** From the file (exempt roster / feed attribute); the SEC number prefix decides when absent. */
  registrationType: 'registered' | 'exempt_reporting' | null;
  file: string;
  fileUrl: string | null;
  line: number | null;
}

export const IAPD_FIRM_URL = 'https://adviserinfo.sec.gov/firm/summary/';

export type AdviserResult = { ok: true; row: RowOf<typeof advisersTable>; problems: string[] } | { ok: false; reason: string };

/**
 * Typed lake row from source text. A row without a usable CRD or name is rejected; an unparsable number is
 * reported as a problem and stored as null, because the adviser itself is still real and worth serving.
 */
export function toAdviserRow(raw: RawAdviser, at: RowPlace): AdviserResult {
  const crd = raw.crd?.trim().replace(/^0+(?=\d)/, '') ?? '';
  if (!/^\d{1,10}$/.test(crd)) return { ok: false, reason: raw.crd ? `invalid CRD '${raw.crd}'` : 'missing CRD' };
  const business = cleanText(raw.business_name) ?? cleanText(raw.legal_name);
  if (!business) return { ok: false, reason: `CRD ${crd}: no business or legal name` };

  const problems: string[] = [];
  const int = (field: keyof RawAdviser, value: string | null): number | null => {
    if (value == null || value.trim() === '') return null;
    const n = toInt(value);
    if (n == null || n < 0) problems.push(`${field}: unparsable number '${value}'`);
    return n == null || n < 0 ? null : n;
  };
  const flag = (field: keyof RawAdviser, value: string | null): boolean | null => {
    if (value == null || value.trim() === '') return null;
    const b = toBool(value);
    if (b == null) problems.push(`${field}: expected Y/N, got '${value}'`);
    return b;
  };
  const date = (field: keyof RawAdviser, value: string | null): string | null => {
    if (value == null || value.trim() === '') return null;
    const d = toIsoDate(value);
    if (d == null) problems.push(`${field}: unparsable date '${value}'`);
    return d;
  };

  const secNumber = cleanText(raw.sec_number);
  const registrationType =
    at.registrationType ?? (/^802-/.test(secNumber ?? '') || /exempt|ERA/i.test(raw.firm_type ?? '') ? 'exempt_reporting' : 'registered');
  const aum = int('regulatory_aum_total', raw.regulatory_aum_total);
  const state = cleanText(raw.state)?.toUpperCase() ?? null;

  const row: RowOf<typeof advisersTable> = {
    snapshot_date: at.snapshotDate,
    crd,
    crd_int: Number(crd),
    sec_number: secNumber,
    sec_region: cleanText(raw.sec_region),
    registration_type: registrationType,
    firm_type: cleanText(raw.firm_type),
    cik: padCik(raw.cik),
    business_name: business,
    legal_name: cleanText(raw.legal_name),
    street1: cleanText(raw.street1),
    street2: cleanText(raw.street2),
    city: cleanText(raw.city),
    state,
    postal_code: cleanText(raw.postal_code),
    country: cleanText(raw.country),
    phone: cleanText(raw.phone),
    sec_status: cleanText(raw.sec_status),
    sec_status_date: date('sec_status_date', raw.sec_status_date),
    latest_filing_date: date('latest_filing_date', raw.latest_filing_date),
    form_version: cleanText(raw.form_version),
    websites: raw.websites.map((w) => w.trim()).filter(Boolean),
    employees: int('employees', raw.employees),
    raum_discretionary: int('raum_discretionary', raw.raum_discretionary),
    raum_non_discretionary: int('raum_non_discretionary', raw.raum_non_discretionary),
    regulatory_aum_total: aum,
    regulatory_aum_total_raw: cleanText(raw.regulatory_aum_total),
    aum_rank: aum ?? -1,
    accounts_total: int('accounts_total', raw.accounts_total),
    client_types: raw.client_types,
    has_private_funds: flag('has_private_funds', raw.has_private_funds),
    private_fund_count: int('private_fund_count', raw.private_fund_count),
    private_fund_gross_assets: int('private_fund_gross_assets', raw.private_fund_gross_assets),
    disciplinary: flag('disciplinary', raw.disciplinary),
    source_file: at.file,
    source_file_url: at.fileUrl,
    source_line: at.line,
    source_url: `${IAPD_FIRM_URL}${crd}`,
  };
  return { ok: true, row, problems };
}
