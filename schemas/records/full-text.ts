import { z } from 'zod';

/** Live full-text search and the feeds built on it (`/v1/full-text`, `/v1/cyber-incidents`). */

export const fullTextRecord = z.object({
  accession: z.string(),
  ciks: z.array(z.string()).describe("10-digit CIKs of the filing's parties."),
  entity_names: z.array(z.string()),
  tickers: z.array(z.string()),
  form: z.string().nullable(),
  file_type: z.string().nullable().describe('Type of the matching document: 10-K, EX-99.1 …'),
  file_description: z.string().nullable(),
  filed_date: z.string().nullable(),
  period_ending: z.string().nullable(),
  items: z.array(z.string()).describe('8-K items of the filing.'),
  file_name: z.string().nullable(),
  url: z.string().nullable().describe('Direct URL of the matching document.'),
  score: z.number().nullable().describe('Upstream relevance score.'),
});

export const cyberIncidentRecord = z.object({
  accession: z.string(),
  form: z.string().describe('8-K or 8-K/A.'),
  company: z.string().nullable(),
  ciks: z.array(z.string()),
  filed_date: z.string().nullable(),
  period_ending: z.string().nullable().describe('Date of the event (period of report).'),
  items: z.array(z.string()).describe('Every item the filing reports.'),
  excerpt: z.string().nullable().describe('Start of the Item 1.05 text; null when the document could not be read.'),
  url: z.string().nullable().describe('Primary document URL.'),
  index_url: z.string(),
});
