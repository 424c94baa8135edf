import { defineTable } from '../table.ts';

/**
 * The append-only events table (docs/api-contract.md: Events). Written only by the diff stage, which anti-joins on
 * `dedup_key` before appending, so re-running an ingest or a backfill never adds a second event for a key.
 * Partitioned by detection day; each append is a new file renamed into place (never a rewrite).
 */
export const eventsTable = defineTable({
  name: 'events',
  description: 'Normalized business-change events derived from filings and data sets (append-only).',
  columns: {
    id: { type: 'VARCHAR', nullable: false, description: 'UUID' },
    event_type: { type: 'VARCHAR', nullable: false },
    importance: { type: 'VARCHAR', nullable: false, description: 'low | medium | high' },
    importance_rank: { type: 'INTEGER', nullable: false, description: '1 low, 2 medium, 3 high (for importance_min filters)' },
    confidence: { type: 'DOUBLE', nullable: false },
    entity_cik: { type: 'VARCHAR', description: '10-digit CIK' },
    entity_ticker: { type: 'VARCHAR' },
    entity_name: { type: 'VARCHAR' },
    accession: { type: 'VARCHAR' },
    summary: { type: 'VARCHAR', nullable: false },
    details: { type: 'JSON', nullable: false },
    evidence: { type: 'JSON', nullable: false },
    dedup_key: { type: 'VARCHAR', nullable: false },
    /** When the business change happened (filing date, period end), for `since`/`until`. */
    occurred_at: { type: 'TIMESTAMP' },
    detected_at: { type: 'TIMESTAMP', nullable: false },
    /** Monotonic per append batch: with `id` it orders the feed newest first and drives the monitor worker. */
    seq: { type: 'BIGINT', nullable: false },
    detected_date: { type: 'DATE', nullable: false },
  },
  partitionBy: 'detected_date',
  sortBy: ['seq', 'id'],
  // A company's or a filing's events (?cik=, ?accession=, ?ticker=) skip the days that hold none without opening their
  // files: each file's Bloom filter of these columns (docs/read-path.md, "Events: the day walk").
  keyFilters: ['entity_cik', 'accession', 'entity_ticker'],
  primaryKey: ['dedup_key'],
  writeMode: 'merge',
});
