import { z } from 'zod';
import { DocumentLink } from './shared.ts';

/** API record of /v1/trading-suspensions. */

export const SuspensionRecord = z.object({
  release_number: z.string().describe('Exchange Act release `34-NNNNNN`.'),
  date: z.string().describe('Date of the suspension order.'),
  company: z.string().nullable().describe('Company line as published.'),
  companies: z.array(z.string()),
  tickers: z.array(z.string()).describe('Symbols named in the order text, when stated.'),
  file_number: z.string().nullable(),
  other_release_numbers: z.array(z.string()),
  summary: z.string().nullable(),
  documents: z.array(DocumentLink),
  source: z.string(),
  source_url: z.string().nullable(),
});
