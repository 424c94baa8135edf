import { z } from 'zod';
import { OfficeAddress } from './shared.ts';

/** API records of /v1/advisers (list) and /v1/advisers/{crd} (profile). */

export const AdviserListRecord = z.object({
  crd: z.string().describe('Organization CRD number.'),
  business_name: z.string(),
  legal_name: z.string().nullable(),
  sec_number: z.string().nullable().describe('801- (registered) or 802- (exempt reporting).'),
  registration_type: z.enum(['registered', 'exempt_reporting']),
  regulatory_aum_total: z.number().int().nullable().describe('Item 5.F(2)(c), USD; null for exempt-reporting advisers.'),
  has_private_funds: z.boolean().nullable().describe('Item 7.B.'),
  disciplinary: z.boolean().nullable().describe('Item 11 disciplinary history.'),
  address: OfficeAddress.describe('Main office.'),
  snapshot_date: z.string().describe('As-of date of the roster the record comes from.'),
  source: z.string(),
  source_url: z.string().describe("The adviser's public IAPD page."),
});

export const AdviserProfile = AdviserListRecord.extend({
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
