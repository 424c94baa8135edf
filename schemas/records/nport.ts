import { z } from 'zod';

/** API record of /v1/funds/holdings. */

export const FundHoldingRecord = z.object({
  accession_number: z.string(),
  registrant_cik: z.string().nullable(),
  registrant_name: z.string().nullable(),
  series_id: z.string().nullable(),
  fund_name: z.string().nullable(),
  report_date: z.string().describe('Portfolio as-of date.'),
  report_period_end: z.string().nullable(),
  filing_date: z.string().nullable(),
  form: z.string().nullable(),
  security: z.object({
    issuer_name: z.string().nullable(),
    issuer_lei: z.string().nullable(),
    title: z.string().nullable(),
    cusip: z.string().nullable(),
    isin: z.string().nullable(),
    ticker: z.string().nullable(),
  }),
  balance: z.number().nullable(),
  units: z.string().nullable().describe('NS shares, PA principal, NC contracts, OU other.'),
  currency: z.string().nullable(),
  exchange_rate: z.number().nullable(),
  value_usd: z.number().nullable(),
  pct_of_net_assets: z.number().nullable().describe('Percentage points.'),
  payoff_profile: z.string().nullable(),
  asset_category: z.string().nullable(),
  issuer_category: z.string().nullable(),
  inv_country: z.string().nullable(),
  is_restricted: z.boolean().nullable(),
  fair_value_level: z.string().nullable(),
  source: z.string(),
  source_url: z.string(),
});
