import { z } from 'zod';

/** API record of /v1/nt-late. */

export const NtRecord = z.object({
  accession: z.string(),
  filer_cik: z.string(),
  filer_name: z.string(),
  form_type: z.string().describe('NT 10-K, NT 10-Q/A, …'),
  late_for_form: z.string().describe('The report announced as late (10-K, 10-Q, 20-F, 11-K, N-CSR, N-CEN …).'),
  is_amendment: z.boolean(),
  filing_date: z.string(),
  report_date: z.string().nullable().describe('Period of the late report, when the submissions data gives it.'),
  source: z.string(),
  source_url: z.string(),
});
