import { z } from 'zod';

/** API record of /v1/raises. */

export const Person = z.object({
  first_name: z.string().nullable(),
  middle_name: z.string().nullable(),
  last_name: z.string().nullable(),
  city: z.string().nullable(),
  state_or_country: z.string().nullable(),
  relationships: z.array(z.string()).describe('Executive Officer, Director, Promoter.'),
  clarification: z.string().nullable(),
});

export const Recipient = z.object({
  name: z.string().nullable(),
  crd: z.string().nullable(),
  associated_bd_name: z.string().nullable(),
  associated_bd_crd: z.string().nullable(),
  city: z.string().nullable(),
  state_or_country: z.string().nullable(),
  states_of_solicitation: z.array(z.string()),
  foreign_solicitation: z.boolean().nullable(),
});

export const FormDSignature = z.object({
  issuer_name: z.string().nullable(),
  signature_name: z.string().nullable().describe('The signature as typed, e.g. /s/ Jane Doe.'),
  name_of_signer: z.string().nullable(),
  title: z.string().nullable(),
  date: z.string().nullable().describe('YYYY-MM-DD.'),
});

export const Issuer = z
  .object({
    is_primary: z.boolean(),
    cik: z.string().nullable(),
    name: z.string().nullable(),
    city: z.string().nullable(),
    state_or_country: z.string().nullable(),
    jurisdiction_of_inc: z.string().nullable(),
    entity_type: z.string().nullable(),
  })
  .passthrough();

export const Raise = z.object({
  accession: z.string(),
  submission_type: z.string().nullable().describe('D (new notice) or D/A (amendment).'),
  is_amendment: z.boolean(),
  previous_accession: z.string().nullable(),
  filed_date: z.string(),
  issuer: z.object({
    cik: z.string(),
    name: z.string().nullable(),
    state: z.string().nullable(),
    city: z.string().nullable(),
    jurisdiction_of_inc: z.string().nullable(),
    entity_type: z.string().nullable(),
    year_of_inc: z.string().nullable(),
  }),
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
  signatures: z.array(FormDSignature).describe('Signature block: one entry per issuer signature.'),
  source: z.string(),
  source_kind: z.string(),
  source_url: z.string().nullable(),
});
