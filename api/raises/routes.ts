import type { z } from 'zod';
import { defineList, f } from '../core/endpoint.ts';
import { p } from '../core/params.ts';
import { bool, int, isoDate, jsonList, str } from '../core/records.ts';
import { type FormDSignature, type Issuer, type Person, Raise, type Recipient } from '../../schemas/records/raises.ts';
import { formDOfferingsTable } from '../../schemas/tables/raises.ts';
import { SOURCE } from '../../schemas/sources.ts';

function toRecord(r: Record<string, unknown>): z.infer<typeof Raise> {
  return {
    accession: String(r.accession),
    submission_type: str(r.submission_type),
    is_amendment: Boolean(r.is_amendment),
    previous_accession: str(r.previous_accession),
    filed_date: isoDate(r.filed_date)!,
    issuer: {
      cik: String(r.issuer_cik),
      name: str(r.issuer_name),
      state: str(r.state),
      city: str(r.city),
      jurisdiction_of_inc: str(r.jurisdiction_of_inc),
      entity_type: str(r.entity_type),
      year_of_inc: str(r.year_of_inc),
    },
    co_issuers: jsonList<z.infer<typeof Issuer>>(r.issuers).filter((i) => !i.is_primary),
    industry_group: str(r.industry_group),
    investment_fund_type: str(r.investment_fund_type),
    is_pooled_fund: Boolean(r.is_pooled_fund),
    is_40_act: bool(r.is_40_act),
    revenue_range: str(r.revenue_range),
    nav_range: str(r.nav_range),
    federal_exemptions: jsonList<string>(r.federal_exemptions),
    date_of_first_sale: isoDate(r.date_of_first_sale),
    first_sale_yet_to_occur: bool(r.first_sale_yet_to_occur),
    security_types: jsonList<string>(r.security_types),
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
    related_persons: jsonList<z.infer<typeof Person>>(r.related_persons),
    sales_compensation_recipients: jsonList<z.infer<typeof Recipient>>(r.recipients),
    signatures: jsonList<z.infer<typeof FormDSignature>>(r.signatures),
    source: SOURCE.sec_form_d,
    source_kind: String(r.source_kind),
    source_url: str(r.source_url),
  };
}

const list = defineList({
  path: '/v1/raises',
  summary: 'Private placements (Form D notices)',
  description:
    'One record per Form D filing (D new notice or D/A amendment, kept apart), newest first, with the ' +
    'offering amounts, industry, fund type, exemptions, related persons and sales compensation recipients. ' +
    '`min_amount` compares the total offering amount; offerings whose amount is "Indefinite" never match ' +
    'it and carry `total_offering_indefinite: true`.',
  tag: 'Private placements',
  source: SOURCE.sec_form_d,
  table: formDOfferingsTable,
  params: {
    state: p.str({
      upper: true,
      pattern: /^[A-Z0-9]{2}$/,
      patternText: '^[A-Za-z0-9]{2}$',
      description: 'Primary issuer address state, or EDGAR country code (e.g. E9 Cayman Islands).',
      example: 'CA',
    }),
    industry: p.str({ maxLength: 100, description: 'Case-insensitive substring of the industry group (e.g. "biotech", "pooled").' }),
    fund_type: p.str({
      maxLength: 100,
      description: 'Case-insensitive substring of the investment fund type (Hedge Fund, Private Equity Fund, Venture Capital Fund, Other Investment Fund).',
    }),
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
  // Newest quarter first: the quarter is the filing date's (the ingest derives it), so the order is the same as by
  // date alone, and a page reads the newest quarters until it is full instead of every quarter's file (docs/layouts.md).
  orderBy: [
    { column: 'filed_quarter', dir: 'desc' },
    { column: 'filed_date', dir: 'desc' },
    { column: 'accession', dir: 'desc' },
  ],
  walk: { windows: true },
  record: Raise,
  toRecord,
});

export default [list];
