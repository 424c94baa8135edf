import { z } from 'zod';
import { EVENT_TYPES } from '../events.ts';

/** API record of /v1/events and /v1/events/{event_id}. */

export const Evidence = z.object({
  source_type: z.string(),
  url: z.string(),
  retrieved_at: z.string(),
  excerpt: z.string().nullable().describe('The text the event rests on'),
  section: z.string().nullable().describe('Where in the source the excerpt stands (item, table…)'),
  excerpt_sha256: z.string().nullable().describe('SHA-256 of the excerpt, hex'),
});

export const EventRecord = z.object({
  id: z.string().describe('UUID'),
  event_type: z.enum(EVENT_TYPES),
  importance: z.enum(['low', 'medium', 'high']),
  confidence: z.number().min(0).max(1),
  entity_cik: z.string().nullable().describe('10-digit CIK'),
  entity_ticker: z.string().nullable(),
  entity_name: z.string().nullable(),
  accession: z.string().nullable(),
  summary: z.string(),
  details: z.record(z.string(), z.unknown()),
  evidence: z.array(Evidence),
  dedup_key: z.string(),
  occurred_at: z.string().nullable(),
  detected_at: z.string(),
});
