import { z } from 'zod';

/** `/v1/financials/{cik}`: one company's reported XBRL values grouped per concept. */

export const ConceptRecord = z.object({
  concept: z.string(),
  taxonomy: z.string(),
  label: z.string().nullable(),
  units: z
    .record(
      z.string(),
      z.array(
        z.object({
          start: z.string().nullable(),
          end: z.string(),
          value: z.number(),
          fy: z.number().int().nullable(),
          fp: z.string().nullable(),
          form: z.string().nullable(),
          accession: z.string(),
          filed: z.string(),
          frame: z.string().nullable(),
          is_latest: z.boolean(),
        }),
      ),
    )
    .describe('Facts per unit, ordered by period end then filing date.'),
});
export type ConceptFacts = z.infer<typeof ConceptRecord>;

export const CompanyFactsRecord = z.object({
  cik: z.string(),
  entity_name: z.string(),
  ticker: z.string().nullable(),
  concepts: z.array(ConceptRecord),
  source: z.string(),
  source_url: z.string(),
});
