import { z } from 'zod';
import { DocumentLink } from './shared.ts';

/** API record of /v1/whistleblower. */

export const WhistleblowerRecord = z.object({
  award_order_no: z.string().describe('Exchange Act release number of the final order.'),
  date: z.string(),
  fiscal_year: z.number().int().describe('U.S. federal fiscal year (Oct 1 – Sep 30) of the order date.'),
  title: z.string().nullable(),
  decision: z.string().nullable().describe('award | denial | null when the text says neither.'),
  award_amount_usd: z.number().int().nullable().describe('Null when the order states only a percentage or no amount.'),
  award_amount_text: z.string().nullable().describe('The phrase the amount was parsed from.'),
  public_summary: z.string().nullable(),
  other_release_numbers: z.array(z.string()),
  documents: z.array(DocumentLink),
  source: z.string(),
  source_url: z.string().nullable(),
});
