import type { z } from 'zod';
import { defineList, defineLookup, f, likeEscape } from '../core/endpoint.ts';
import { p, rangeIssue } from '../core/params.ts';
import { json } from '../core/records.ts';
import { type Evidence, EventRecord } from '../../schemas/records/events.ts';
import { IMPORTANCE_RANK, type Importance } from '../../schemas/events.ts';
import { eventsTable } from '../../schemas/tables/events.ts';
import { SOURCE } from '../../schemas/sources.ts';

function toEventRecord(r: Record<string, unknown>): z.infer<typeof EventRecord> {
  return {
    id: String(r.id),
    event_type: r.event_type as never,
    importance: r.importance as never,
    confidence: Number(r.confidence),
    entity_cik: (r.entity_cik as string) ?? null,
    entity_ticker: (r.entity_ticker as string) ?? null,
    entity_name: (r.entity_name as string) ?? null,
    accession: (r.accession as string) ?? null,
    summary: String(r.summary),
    details: json<Record<string, unknown>>(r.details) ?? {},
    evidence: json<z.infer<typeof Evidence>[]>(r.evidence) ?? [],
    dedup_key: String(r.dedup_key),
    occurred_at: (r.occurred_at as string) ?? null,
    detected_at: String(r.detected_at),
  };
}

const list = defineList({
  path: '/v1/events',
  summary: 'Normalized business-change events, newest first',
  description:
    '`event_type` takes an exact type or a namespace prefix ending in `.*` (`sec.8k.*`). `since`/`until` bound the detection time ' +
    '(inclusive, `YYYY-MM-DD` or an ISO timestamp). `importance_min` keeps events at or above a level.',
  tag: 'Events',
  source: SOURCE.svc_events,
  table: eventsTable,
  params: {
    event_type: p.str({
      pattern: /^sec(\.[a-z0-9_]+)*(\.\*)?$/,
      patternText: '^sec(\\.[a-z0-9_]+)*(\\.\\*)?$',
      description: 'Exact type or namespace prefix such as `sec.8k.*`',
      example: 'sec.8k.*',
    }),
    cik: p.cik({ description: 'Entity CIK, with or without leading zeros' }),
    ticker: p.str({ upper: true, pattern: /^[A-Z0-9.-]{1,10}$/ }),
    importance_min: p.enum(['low', 'medium', 'high'], { lower: true }),
    since: p.timestamp({ description: 'Detected at or after (YYYY-MM-DD or ISO timestamp)' }),
    until: p.timestamp({ description: 'Detected at or before (YYYY-MM-DD or ISO timestamp)' }),
    accession: p.accession(),
  },
  filters: {
    event_type: f.sql(['event_type'], (v: string, b) =>
      v.endsWith('.*') ? `"event_type" LIKE ${b.param(`${likeEscape(v.slice(0, -1))}%`)} ESCAPE '\\'` : `"event_type" = ${b.param(v)}`,
    ),
    cik: f.eq('entity_cik'),
    ticker: f.eq('entity_ticker'),
    importance_min: f.sql(['importance_rank'], (v: Importance, b) => `"importance_rank" >= ${b.param(IMPORTANCE_RANK[v])}`),
    since: f.sql(['detected_at'], (v: string, b) => `"detected_at" >= ${b.param(v)}::TIMESTAMP`),
    until: f.sql(['detected_at'], (v: string, b) =>
      v.length === 10 ? `"detected_at" < ${b.param(v)}::DATE + INTERVAL 1 DAY` : `"detected_at" <= ${b.param(v)}::TIMESTAMP`,
    ),
    accession: f.eq('accession'),
  },
  validate: (v) => [rangeIssue(v as Record<string, unknown>, 'since', 'until')],
  // Newest first by `seq`. The day comes first so that a page walks the day folders newest first and stops when full
  // (3,650 folders: docs/read-path.md), and the cursor names the day it stopped in. The order is the same as `seq`
  // alone: ingest/events/writer.ts numbers each append after the largest `seq` in the lake, under the events lock,
  // and files it under the day of that append's clock, so a later day never holds a smaller `seq` (given a clock
  // that does not step back a day).
  orderBy: [
    { column: 'detected_date', dir: 'desc' },
    { column: 'seq', dir: 'desc' },
  ],
  // `since`/`until` bound `detected_at`, whose UTC day is the partition (`detected_date`): days outside are never read.
  walk: { windows: true, bounds: (v) => ({ from: v.since?.slice(0, 10), to: v.until?.slice(0, 10) }) },
  // Each day file's key filters say which days cannot hold the company or filing (TableSpec.keyFilters).
  bounds: (v) => ({
    entity_cik: v.cik === undefined ? undefined : { in: [v.cik] },
    entity_ticker: v.ticker === undefined ? undefined : { in: [v.ticker] },
    accession: v.accession === undefined ? undefined : { in: [v.accession] },
  }),
  record: EventRecord,
  toRecord: toEventRecord,
});

const one = defineLookup({
  path: '/v1/events/{event_id}',
  summary: 'One event with its full evidence',
  tag: 'Events',
  source: SOURCE.svc_events,
  table: eventsTable,
  pathParams: { event_id: p.str({ required: true, pattern: /^[0-9a-fA-F-]{36}$/, patternText: '^[0-9a-fA-F-]{36}$' }) },
  filters: { event_id: f.eqNormalized('id', (v) => v.toLowerCase()) },
  record: EventRecord,
  toRecord: toEventRecord,
  notFound: (v) => `No event with id ${v.event_id}`,
});

export default [list, one];
