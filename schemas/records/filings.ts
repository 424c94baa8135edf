import { z } from 'zod';

/** API record of /v1/filings. */

export const FilingRecord = z.object({
  accession: z.string(),
  cik: z.string().describe('Filer CIK (10 digits) this listing is under; a filing with several filers is listed once per filer.'),
  company: z.string().describe('Conformed name at filing time.'),
  form: z.string(),
  base_form: z.string().describe('Form without /A.'),
  is_amendment: z.boolean(),
  filed_date: z.string(),
  report_date: z.string().nullable(),
  acceptance_datetime: z.string().nullable().describe('As published in the submissions data; its zone is unreliable (often US Eastern marked Z).'),
  items: z.array(z.string()).describe('8-K item numbers (2.02, 9.01); empty when none or not yet known.'),
  primary_document: z.string().nullable(),
  primary_doc_description: z.string().nullable(),
  size: z.number().int().nullable().describe('Bytes of the full submission.'),
  is_xbrl: z.boolean().nullable(),
  is_inline_xbrl: z.boolean().nullable(),
  act: z.string().nullable(),
  file_number: z.string().nullable(),
  film_number: z.string().nullable(),
  urls: z.object({ filing: z.string(), index: z.string(), primary_document: z.string().nullable() }),
  detail_source: z.string().describe('index, submissions or index+submissions.'),
  source: z.string(),
  source_url: z.string(),
});
