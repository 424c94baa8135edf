import { z } from 'zod';
import { enriched } from './shared.ts';

/** API records of the 13F lists (/v1/managers, /v1/holdings). */

export const ManagerRecord = z.object({
  cik: z.string().describe('Manager CIK, 10 digits.'),
  name: z.string().nullable(),
  address: z.object({
    street1: z.string().nullable(),
    street2: z.string().nullable(),
    city: z.string().nullable(),
    state_or_country: z.string().nullable(),
    postal_code: z.string().nullable(),
  }),
  period: z.string().describe('Reporting quarter, e.g. 2024Q4.'),
  period_of_report: z.string().describe('Quarter end date.'),
  filing_date: z.string().nullable().describe('First filing for the period.'),
  last_filing_date: z.string().nullable().describe('Latest filing (amendments) for the period.'),
  report_type: z.string().nullable().describe('13F HOLDINGS REPORT, 13F COMBINATION REPORT or 13F NOTICE.'),
  holdings_count: z.number().int().describe('Lines of the combined current report (original + amendments).'),
  total_value_usd: z.number().int().describe('Sum of the current lines, USD.'),
  value_unit: z.string().nullable().describe('Unit VALUE was filed in: thousands, dollars, or mixed across the filings.'),
  accession_number: z.string().describe('Latest filing of the current report.'),
  accessions: z.array(z.string()).describe('Every filing of the current report, oldest first.'),
  amendment_count: z.number().int(),
  source: z.string(),
  source_url: z.string(),
});

export const HoldingRecord = z.object({
  issuer: z.string().nullable().describe('NAMEOFISSUER as filed.'),
  class: z.string().nullable().describe('TITLEOFCLASS as filed.'),
  cusip: z.string().describe('Normalized CUSIP.'),
  cusip_valid: z.boolean().describe('Check digit agrees.'),
  figi: z.string().nullable(),
  value_usd: z.number().int().nullable().describe('Market value in USD, whatever unit the filing used.'),
  shares: z.number().nullable().describe('Shares, or principal amount when shares_type is PRN.'),
  shares_type: z.string().nullable().describe('SH or PRN.'),
  put_call: z.string().nullable(),
  investment_discretion: z.string().nullable().describe('SOLE, DFND or OTR.'),
  other_manager: z.string().nullable().describe('Sequence numbers of the other included managers.'),
  voting_authority: z.object({ sole: z.number().nullable(), shared: z.number().nullable(), none: z.number().nullable() }),
  period: z.string(),
  period_of_report: z.string(),
  manager_cik: z.string(),
  manager_name: z.string().nullable(),
  accession_number: z.string(),
  filing_date: z.string().nullable(),
  amendment_effect: z.string().describe('original, restatement or new_holdings: how the filing entered the report.'),
  is_current: z.boolean().describe('False only for lines replaced by a later restatement (include_superseded=true).'),
  value_unit: z.object({ decision: z.string(), reason: z.string() }).describe('Unit VALUE was filed in and why it was decided so.'),
  issuer_entity: enriched(z.object({ cik: z.string(), ticker: z.string().nullable() })).describe(
    'Issuer resolved from the entity directory; null when unmapped.',
  ),
  source: z.string(),
  source_url: z.string(),
});
