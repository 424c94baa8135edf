import { z } from 'zod';

/** API record of /v1/financials. */

export const FactRecord = z.object({
  cik: z.string(),
  entity_name: z.string(),
  concept: z.string().describe('Namespaced concept, us-gaap:Revenues.'),
  taxonomy: z.string(),
  label: z.string().nullable(),
  unit: z.string(),
  period_start: z.string().nullable().describe('Null for an instant.'),
  period_end: z.string(),
  period_days: z.number().int().describe('0 for an instant.'),
  value: z.number(),
  fiscal_year: z.number().int().nullable().describe('Fiscal year of the reporting filing.'),
  fiscal_period: z.string().nullable(),
  form: z.string().nullable(),
  accession: z.string(),
  filed: z.string(),
  frame: z.string().nullable(),
  is_latest: z.boolean().describe('The latest-filed report of this concept/unit/period: the value to use.'),
  source: z.string(),
  source_url: z.string(),
});
