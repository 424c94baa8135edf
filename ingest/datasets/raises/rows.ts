import { quarterOf } from '../../sources/common/normalize.ts';
import { filingIndexUrl } from '../../../schemas/tables/insider.ts';
import type { FormDFiling } from '../../sources/edgar/ownership/form-d-xml.ts';
import type { RowOf } from '../../../schemas/table.ts';
import type { formDOfferingsTable } from '../../../schemas/tables/raises.ts';

/** The issuer a Form D row is filed under: the one marked primary, else the first listed. */
export function primaryIssuer(d: FormDFiling): FormDFiling['issuers'][number] | undefined {
  return d.issuers.find((i) => i.is_primary) ?? d.issuers[0];
}

/** What every row needs and a filing may lack: the loader checks these (bad row otherwise) before building the row. */
export interface FormDKeys {
  accession: string;
  filedDate: string;
  issuerCik: string;
}

/** The form_d_offerings row of one parsed Form D. */
export function formDRow(d: FormDFiling, keys: FormDKeys): RowOf<typeof formDOfferingsTable> {
  const primary = primaryIssuer(d);
  const { accession, filedDate } = keys;
  return {
    accession,
    submission_type: d.submission_type,
    is_amendment: d.is_amendment,
    previous_accession: d.previous_accession,
    filed_date: filedDate,
    filed_quarter: quarterOf(filedDate),
    issuer_cik: keys.issuerCik,
    issuer_name: primary?.name ?? null,
    state: primary?.state_or_country ?? null,
    state_description: primary?.state_or_country_description ?? null,
    city: primary?.city ?? null,
    jurisdiction_of_inc: primary?.jurisdiction_of_inc ?? null,
    entity_type: primary?.entity_type ?? null,
    year_of_inc: primary?.year_of_inc ?? null,
    industry_group: d.industry_group,
    investment_fund_type: d.investment_fund_type,
    is_pooled_fund: d.industry_group === 'Pooled Investment Fund',
    is_40_act: d.is_40_act,
    revenue_range: d.revenue_range,
    nav_range: d.nav_range,
    federal_exemptions: d.federal_exemptions,
    date_of_first_sale: d.date_of_first_sale,
    first_sale_yet_to_occur: d.first_sale_yet_to_occur,
    more_than_one_year: d.more_than_one_year,
    security_types: d.security_types,
    minimum_investment: d.minimum_investment,
    total_offering_amount: d.total_offering.usd,
    total_offering_indefinite: d.total_offering.indefinite,
    total_amount_sold: d.total_sold.usd,
    total_remaining: d.total_remaining.usd,
    total_remaining_indefinite: d.total_remaining.indefinite,
    has_non_accredited_investors: d.has_non_accredited_investors,
    num_non_accredited_investors: d.num_non_accredited_investors,
    total_investors: d.total_investors,
    sales_commissions_usd: d.sales_commissions_usd,
    finders_fees_usd: d.finders_fees_usd,
    gross_proceeds_used_usd: d.gross_proceeds_used_usd,
    issuers: d.issuers,
    related_persons: d.related_persons,
    recipients: d.recipients,
    signatures: d.signatures,
    source_kind: 'xml',
    source_url: filingIndexUrl(keys.issuerCik, accession),
  };
}

/** Date a bare Form D XML is filed under when no container tells: its latest signature date. */
export function formDFiledDate(d: FormDFiling): string | null {
  return (
    d.filed_date ??
    d.signatures
      .map((s) => s.date)
      .filter((x): x is string => !!x)
      .sort()
      .pop() ??
    null
  );
}
