import { z } from 'zod';
import { Amount, DocumentLink } from './shared.ts';

/** API record of /v1/enforcement. */

export const ACTION_KINDS = ['administrative_proceeding', 'litigation_release', 'aaer'] as const;

export const EnforcementRecord = z.object({
  id: z.string().describe('`<agency>:<release_number>`.'),
  agency: z.string().describe('Publishing agency (SEC).'),
  action_kind: z.enum(ACTION_KINDS),
  release_number: z.string().describe('e.g. `34-100512`, `LR-26040`.'),
  other_release_numbers: z.array(z.string()).describe('The same order under other Acts, AAER numbers.'),
  case_number: z.string().nullable().describe('Administrative file number `3-NNNNN` or the court civil action number.'),
  date: z.string().describe('Release date, YYYY-MM-DD.'),
  title: z.string().nullable().describe('Respondents line as published.'),
  respondents: z.array(z.string()),
  summary: z.string().nullable(),
  penalty: Amount.describe('Civil penalties stated in the text (sum of distinct amounts); null when none stated.'),
  disgorgement: Amount.describe('Disgorgement stated in the text; null when none stated.'),
  documents: z.array(DocumentLink),
  source: z.string(),
  source_url: z.string().nullable().describe('The release page (else the listing page it was read from).'),
});
