import { z } from 'zod';

/** API record of /v1/form-crs. */

export const FormCrs = z.object({
  filing_id: z.string().describe('Published filing/document id (or CRD|date|sub-type when none is published).'),
  firm_crd: z.string().nullable(),
  filer_cik: z.string().nullable(),
  filer_name: z.string(),
  sec_number: z.string().nullable(),
  form_sub_type: z.string().nullable(),
  filed_date: z.string(),
  disciplinary_history_flag: z.number().int().nullable().describe('1 = Yes to legal or disciplinary history.'),
  professionals: z.number().int().nullable().describe('Number of financial professionals, where published.'),
  document_url: z.string().nullable(),
  source: z.string(),
  source_url: z.string(),
});
