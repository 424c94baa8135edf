import { z } from 'zod';

/** API record of /v1/proxy/officers. */

export const ProxyOfficer = z.object({
  cik: z.string().describe('10-digit issuer CIK.'),
  issuer: z.string().nullable(),
  accession_number: z.string().nullable().describe('Null only for a local document ingested without one.'),
  filed_date: z.string().nullable(),
  form_type: z.string().nullable(),
  fiscal_year: z.number().int().describe('Fiscal year the proxy statement covers.'),
  name: z.string().describe('As printed (footnote markers removed).'),
  name_normalized: z.string().describe('`first last`, lower-case; stable across proxies and sources.'),
  title: z.string().nullable(),
  is_director: z.boolean(),
  is_officer: z.boolean(),
  is_independent: z.boolean().nullable().describe('Where the statement says (independent/interested sections, "Independent" labels); null otherwise.'),
  age: z.number().int().nullable(),
  director_since: z.number().int().nullable(),
  officer_since: z.number().int().nullable(),
  confidence: z.number().describe('0-1, from how the row was found (docs/proxy-board.md).'),
  found_in: z.array(z.string()).describe('Tables/layouts the person was read from, e.g. `people_table#6`, `bio_card`, `summary_compensation#303`.'),
  source: z.string(),
  source_url: z.string().nullable(),
});
