import { z } from 'zod';
import { Amount, DocumentLink } from './shared.ts';

/** API record of /v1/litigation. */

export const LitigationRecord = z.object({
  release_number: z.string().describe('`LR-26040`.'),
  date: z.string(),
  title: z.string().nullable().describe('Defendants line as published.'),
  defendants: z.array(z.string()),
  more_defendants: z.boolean().describe('The title ends with "et al.".'),
  action_type: z
    .string()
    .nullable()
    .describe('What the release reports, derived from its text (one of the values of the `action_type` parameter); null when not stated.'),
  summary: z.string().nullable(),
  court_case_number: z.string().nullable(),
  other_release_numbers: z.array(z.string()),
  penalty: Amount,
  disgorgement: Amount,
  documents: z.array(DocumentLink),
  source: z.string(),
  source_url: z.string().nullable(),
});
