import { z } from 'zod';
import { defineList, f } from '../core/endpoint.ts';
import { p } from '../core/params.ts';
import { formDOfferingsTable } from '../../schemas/tables/raises.ts';
import { bool, int, isoDate, jsonArray, str } from '../insider-ownership-common/records.ts';

const SOURCE = 'sec_form_d';

const Person = z.object({
  first_name: z.string().nullable(), middle_name: z.string().nullable(), last_name: z.string().nullable(),
  city: z.string().nullable(), state_or_country: z.string().nullable(),
  relationships: z.array(z.string()).describe('Executive Officer, Director, Promoter.'),
  clarification: z.string().nullable(),
});
const Recipient = z.object({
  name: z.string().nullable(), crd: z.string().nullable(), associated_bd_name: z.string().nullable(), associated_bd_crd: z.string().nullable(),
  city: z.string().nullable(), state_or_country: z.string().nullable(), states_of_solicitation: z.array(z.string()), foreign_solicitation: z.boolean().nullable(),
});
const Issuer = z.object({
  is_primary: z.boolean(), cik: z.string().nullable(), name: z.string().nullable(), city: z.string().nullable(),
  state_or_country: z.string().nullable(), jurisdiction_of_inc: z.string().nullable(), entity_type: z.string().nullable(),
}).passthrough();

const Raise = z.object({
  accession: z.string(),
  submission_type: z.string().nullable().describe('D (new notice) or D/A (amendment).'),
  is_amendment: z.boolean(),
  previous_accession: z.string().nullable(),
  filed_date: z.string(),
  issuer: z.object({ cik: z.string(), name: z.string().nullable(), state: z.string().nullable(), city: z.string().nullable(), jurisdiction_of_inc: z.string().nullable(), entity_type: z.string().nullable(), year_of_inc: z.string().nullable() }),
  co_issuers: z.array(Issuer),
  industry_group: z.string().nullable(),
  investment_fund_type: z.string().nullable(),
  is_pooled_fund: z.boolean(),
  is_40_act: z.boolean().nullable(),
  revenue_range: z.string().nullable(),
  nav_range: z.string().nullable(),
  federal_exemptions: z.array(z.string()),
  date_of_first_sale: z.string().nullable(),
  first_sale_yet_to_occur: z.boolean().nullable(),
  security_types: z.array(z.string()),
  minimum_investment: z.number().int().nullable(),
  total_offering_amount: z.number().int().nullable().describe('USD; null when the filer wrote Indefinite.'),
  total_offering_indefinite: z.boolean().describe('True when the total offering amount is "Indefinite".'),
  total_amount_sold: z.number().int().nullable(),
  total_remaining: z.number().int().nullable(),
  total_remaining_indefinite: z.boolean(),
  total_investors: z.number().int().nullable(),
  has_non_accredited_investors: z.boolean().nullable(),
  sales_commissions_usd: z.number().int().nullable(),
  finders_fees_usd: z.number().int().nullable(),
  related_persons: z.array(Person),
  sales_compensation_recipients: z.array(Recipient),
  source: z.string(),
  source_kind: z.string(),
  source_url: z.string().nullable(),
});

function toRecord(r: Record<string, unknown>): z.infer<typeof Raise> {
  return {
    accession: String(r.accession),
    submission_type: str(r.submission_type),
    is_amendment: Boolean(r.is_amendment),
    previous_accession: str(r.previous_accession),
    filed_date: isoDate(r.filed_date)!,
    issuer: { cik: String(r.issuer_cik), name: str(r.issuer_name), state: str(r.state), city: str(r.city), jurisdiction_of_inc: str(r.jurisdiction_of_inc), entity_type: str(r.entity_type), year_of_inc: str(r.year_of_inc) },
    co_issuers: jsonArray<z.infer<typeof Issuer>>(r.issuers).filter((i) => !i.is_primary),
    industry_group: str(r.industry_group),
    investment_fund_type: str(r.investment_fund_type),
    is_pooled_fund: Boolean(r.is_pooled_fund),
    is_40_act: bool(r.is_40_act),
    revenue_range: str(r.revenue_range),
    nav_range: str(r.nav_range),
    federal_exemptions: jsonArray<string>(r.federal_exemptions),
    date_of_first_sale: isoDate(r.date_of_first_sale),
    first_sale_yet_to_occur: bool(r.first_sale_yet_to_occur),
    security_types: jsonArray<string>(r.security_types),
    minimum_investment: int(r.minimum_investment),
    total_offering_amount: int(r.total_offering_amount),
    total_offering_indefinite: Boolean(r.total_offering_indefinite),
    total_amount_sold: int(r.total_amount_sold),
    total_remaining: int(r.total_remaining),
    total_remaining_indefinite: Boolean(r.total_remaining_indefinite),
    total_investors: int(r.total_investors),
    has_non_accredited_investors: bool(r.has_non_accredited_investors),
    sales_commissions_usd: int(r.sales_commissions_usd),
    finders_fees_usd: int(r.finders_fees_usd),
    related_persons: jsonArray<z.infer<typeof Person>>(r.related_persons),
    sales_compensation_recipients: jsonArray<z.infer<typeof Recipient>>(r.recipients),
    source: SOURCE,
    source_kind: String(r.source_kind),
    source_url: str(r.source_url),
  };
}

const list = defineList({
  path: '/v1/raises',
  summary: 'Private placements (Form D notices)',
  description: 'One record per Form D filing (D new notice or D/A amendment, kept apart), newest first, with the offering amounts, industry, fund type, exemptions, related persons and sales compensation recipients. `min_amount` compares the total offering amount; offerings whose amount is "Indefinite" never match it and carry `total_offering_indefinite: true`.',
  tag: 'Private placements',
  source: SOURCE,
  table: formDOfferingsTable,
  params: {
    state: p.str({ upper: true, pattern: /^[A-Z0-9]{2}$/, patternText: '^[A-Za-z0-9]{2}$', description: 'Primary issuer address state, or EDGAR country code (e.g. E9 Cayman Islands).', example: 'CA' }),
    industry: p.str({ maxLength: 100, description: 'Case-insensitive substring of the industry group (e.g. "biotech", "pooled").' }),
    fund_type: p.str({ maxLength: 100, description: 'Case-insensitive substring of the investment fund type (Hedge Fund, Private Equity Fund, Venture Capital Fund, Other Investment Fund).' }),
    min_amount: p.int({ ge: 0, description: 'Minimum total offering amount, USD (Indefinite amounts never match).', example: 10_000_000 }),
    is_pooled_fund: p.bool({ description: 'Industry group is Pooled Investment Fund.' }),
    q: p.str({ maxLength: 200, description: 'Case-insensitive substring of the primary issuer name.' }),
    issuer_cik: p.cik({ description: 'Primary issuer CIK.' }),
    is_amendment: p.bool({ description: 'true: D/A amendments only; false: new notices only.' }),
  },
  filters: {
    state: f.eq('state'),
    industry: f.contains('industry_group'),
    fund_type: f.contains('investment_fund_type'),
    min_amount: f.gte('total_offering_amount'),
    is_pooled_fund: f.eq('is_pooled_fund'),
    q: f.contains('issuer_name'),
    issuer_cik: f.eq('issuer_cik'),
    is_amendment: f.eq('is_amendment'),
  },
  orderBy: [{ column: 'filed_date', dir: 'desc' }, { column: 'accession', dir: 'desc' }],
  record: Raise,
  toRecord,
  cost: 5,
});

export default [list];
