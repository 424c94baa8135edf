import { z } from 'zod';

/** API record of /v1/compensation. */

const usd = (d: string) => z.number().int().nullable().describe(`${d}, USD. A dash in the table is 0; blank or N/A is null.`);

export const Compensation = z.object({
  filer_cik: z.string(),
  issuer_name: z.string().nullable(),
  accession_number: z.string().nullable(),
  filed_date: z.string().nullable(),
  proxy_fiscal_year: z.number().int().describe('Fiscal year the proxy statement covers.'),
  table_kind: z
    .enum(['summary_compensation', 'director_compensation', 'fund_compensation'])
    .describe("Summary compensation table (executives, one row per year), director compensation table, or an investment company's compensation table."),
  executive_name: z.string().describe('As printed.'),
  executive_name_normalized: z.string(),
  title: z.string().nullable(),
  is_director: z.boolean(),
  fiscal_year: z.number().int().describe('Year of this row (an SCT has up to three per executive).'),
  salary_usd: usd('Salary'),
  bonus_usd: usd('Bonus'),
  stock_awards_usd: usd('Stock awards'),
  option_awards_usd: usd('Option awards'),
  non_equity_incentive_usd: usd('Non-equity incentive plan compensation'),
  pension_deferred_usd: usd('Change in pension value and nonqualified deferred compensation earnings'),
  other_usd: usd('All other compensation'),
  fees_cash_usd: usd('Director fees earned or paid in cash'),
  aggregate_comp_usd: usd('Fund proxies: aggregate compensation from the company'),
  total_usd: usd('Total as printed (fund tables: the fund-complex total, or the company aggregate where that is N/A)'),
  total_checks: z.boolean().nullable().describe('The components add up to the printed total (within $5).'),
  pvp_verified: z.boolean().describe('Total equals the PEO total tagged in the pay-versus-performance XBRL.'),
  pvp_compensation_actually_paid_usd: usd('PEO compensation actually paid (pay-versus-performance XBRL)'),
  confidence: z.number(),
  source: z.string(),
  source_url: z.string().nullable(),
});
