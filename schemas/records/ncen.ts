import { z } from 'zod';

/** API record of /v1/funds/providers. */

export const ProviderRecord = z.object({
  accession_number: z.string(),
  filer_cik: z.string(),
  registrant_name: z.string().nullable(),
  series_id: z.string().nullable().describe('Null for registrant-level roles (auditor, underwriter).'),
  fund_name: z.string().nullable(),
  role: z.string().describe('Provider role, one of the values of the `role` parameter.'),
  provider: z.object({
    name: z.string(),
    cik: z.string().nullable(),
    lei: z.string().nullable(),
    file_number: z.string().nullable(),
    crd: z.string().nullable(),
    state: z.string().nullable(),
    country: z.string().nullable(),
  }),
  is_affiliated: z.boolean().nullable(),
  report_period_end: z.string(),
  filing_date: z.string().nullable(),
  source: z.string(),
  source_url: z.string(),
});
