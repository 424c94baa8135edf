import { z } from 'zod';

/** API record of /v1/financial-statements. */

export const StatementFact = z.object({
  adsh: z.string().describe('Accession number of the filing.'),
  cik: z.string().describe('10-digit CIK.'),
  company_name: z.string(),
  sic: z.string().nullable(),
  form: z.string().nullable(),
  fiscal_year: z.number().int().nullable(),
  fiscal_period: z.string().nullable(),
  period: z.string().nullable().describe('Balance sheet date (month-end rounded).'),
  filed: z.string().nullable(),
  prevrpt: z.boolean().nullable().describe('Superseded by a later amendment.'),
  tag: z.string(),
  version: z.string().describe('us-gaap/2024, or the adsh for a custom tag.'),
  is_custom: z.boolean().nullable(),
  tag_label: z.string().nullable(),
  datatype: z.string().nullable(),
  iord: z.string().nullable(),
  crdr: z.string().nullable(),
  ddate: z.string().describe('End date of the value (month-end rounded).'),
  qtrs: z.number().int().describe('0 instant, 1 quarter, 4 year.'),
  uom: z.string(),
  segments: z.string().nullable().describe('Axis=Member; pairs; null = no dimensions.'),
  coreg: z.string().nullable().describe('Co-registrant; null = the consolidated entity.'),
  value: z.number().nullable(),
  footnote: z.string().nullable(),
  dataset_quarter: z.string(),
  source: z.string(),
  source_url: z.string(),
});
