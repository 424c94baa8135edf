import { z } from 'zod';

/** API record of /v1/ownership. */

export const OwnershipRecord = z.object({
  accession: z.string(),
  row_seq: z.number().int(),
  form_type: z.string().nullable().describe('As filed: SCHEDULE 13D/A, SC 13G, …'),
  form_class: z.string().nullable().describe('13D, 13D/A, 13G or 13G/A.'),
  is_amendment: z.boolean(),
  amendment_no: z.number().int().nullable(),
  previous_accession: z.string().nullable().describe('Accession of the filing this amendment amends (structured XML only).'),
  structured: z.boolean().describe('False when the values were read from a legacy text/HTML cover page (best-effort).'),
  filed_date: z.string(),
  event_date: z.string().nullable(),
  filer: z.object({ cik: z.string().nullable(), name: z.string().nullable() }),
  subject: z.object({ cik: z.string().nullable(), name: z.string().nullable(), cusip: z.string().nullable(), class_title: z.string().nullable() }),
  person: z.object({
    cik: z.string().nullable(),
    name: z.string().nullable(),
    citizenship: z.string().nullable(),
    type_of_reporting_person: z.string().nullable(),
    member_of_group: z.string().nullable(),
    fund_type: z.string().nullable(),
  }),
  sole_voting_power: z.number().nullable(),
  shared_voting_power: z.number().nullable(),
  sole_dispositive_power: z.number().nullable(),
  shared_dispositive_power: z.number().nullable(),
  aggregate_amount: z.number().nullable().describe('Shares beneficially owned; joint filers repeat shared positions, do not sum.'),
  percent_of_class: z.number().nullable().describe('Percentage points.'),
  rule_designations: z.array(z.string()),
  group_members: z.array(z.string()),
  source: z.string(),
  source_url: z.string().nullable(),
});
