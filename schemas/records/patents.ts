import { z } from 'zod';

/** API record of /v1/uspto-patent-grants. */

export const Party = z.object({
  name: z.string(),
  orgname: z.string().nullable(),
  last_name: z.string().nullable(),
  first_name: z.string().nullable(),
  role: z.string().nullable().describe('USPTO role code (02 US company, 03 foreign company, 04/05 individuals…).'),
  city: z.string().nullable(),
  state: z.string().nullable(),
  country: z.string().nullable(),
});

export const PatentRecord = z.object({
  patent_number: z.string().describe('PatentsView form: `11540449`, `D656308`, `RE49876`.'),
  kind_code: z.string().nullable(),
  patent_type: z.string().nullable().describe('utility, design, plant, reissue…'),
  title: z.string().nullable(),
  grant_date: z.string(),
  application_number: z.string().nullable(),
  application_date: z.string().nullable(),
  claims_count: z.number().int().nullable(),
  figures_count: z.number().int().nullable(),
  citations_count: z.number().int().nullable(),
  cpc_main: z.string().nullable(),
  ipc_main: z.string().nullable(),
  assignee: z.string().nullable().describe('First assignee; null when inventor-owned.'),
  assignee_state: z.string().nullable(),
  assignee_country: z.string().nullable(),
  assignee_cik: z.string().nullable().describe('Company CIK of the first assignee when its name resolves to exactly one company in the entity directory.'),
  assignees: z.array(Party),
  inventors: z.array(Party),
  abstract: z.string().nullable(),
  source: z.string(),
  source_url: z.string().describe('The weekly grant file the record was read from.'),
});
