import { z } from 'zod';

/** Service and account records (docs/api-contract.md: Service endpoints). */

/** The live lane's state (docs/live-lane.md), as /healthz and /v1/sources show it. */
export const liveLaneRecord = z.object({
  enabled: z.boolean().describe('LIVE=on'),
  status: z.enum(['off', 'idle', 'polling', 'degraded']).describe('degraded: throttled or failing, polling at a longer interval'),
  interval_ms: z.number().int().describe('Current poll interval (doubles after throttling or a failed poll, up to LIVE_MAX_INTERVAL_MS)'),
  base_interval_ms: z.number().int().describe('LIVE_INTERVAL_MS'),
  datasets: z.array(z.string()).describe('Datasets the lane feeds'),
  last_poll_at: z.string().nullable(),
  last_success_at: z.string().nullable(),
  newest_feed_entry_at: z.string().nullable().describe("The feed's newest entry (its `updated`, UTC)"),
  newest_ingested_at: z.string().nullable().describe('The newest filing the lane put in the lake (feed time, UTC)'),
  lag_seconds: z.number().int().describe("How far the lake is behind the feed's newest entry; 0 when caught up"),
  backlog: z.number().int().describe('Filings seen in the feed and not yet in the lake'),
  failing: z
    .array(z.object({ accession: z.string(), form: z.string(), attempts: z.number().int(), last_error: z.string().nullable() }))
    .describe('Pending filings whose last attempt failed (retried every poll, never dropped), at most 20'),
  errors: z.number().int().describe('Failed or throttled polls since start'),
  last_error: z.string().nullable(),
  polls: z.number().int(),
  requests: z.number().int().describe('Requests to the regulator since start (feed pages and filings)'),
  filings_ingested: z.number().int(),
  events_appended: z.number().int(),
});

export const healthRecord = z.object({
  status: z.enum(['ok', 'degraded']),
  lake: z.object({ reachable: z.boolean(), tables: z.number().int() }),
  state_store: z.object({ reachable: z.boolean() }),
  live: liveLaneRecord,
  version: z.string(),
  time: z.string(),
});

export const balanceRecord = z.object({
  account_id: z.string(),
  key_id: z.string(),
  key_name: z.string().nullable(),
  plan: z.string().describe('free | starter | builder | pro | scale | business | enterprise'),
  plan_name: z.string(),
  monthly_price_usd: z.number().nullable(),
  billing_period: z.string().describe('YYYY-MM for paid plans; "lifetime" for the one-time free allowance'),
  metering: z.enum(['on', 'off']),
  credits_included: z.union([z.number().int(), z.literal('unlimited')]),
  credits_used: z.number().int(),
  credits_remaining: z.union([z.number().int(), z.literal('unlimited')]),
  overage_credits: z.number().int(),
  overage_per_1000_usd: z.number().nullable(),
  overage_cost_usd: z.number().nullable(),
});

export const sourceRecord = z.object({
  table: z.string().describe('Lake table and SQL view name'),
  dataset: z.string().describe('Ingester that writes it (`npm run ingest -- <dataset>`)'),
  description: z.string(),
  source: z.string(),
  source_urls: z.array(z.string()),
  record_count: z.number().int(),
  last_refresh: z.string().nullable(),
  partition_key: z.string(),
  partitions: z.array(z.object({ value: z.string(), rows: z.number().int(), refreshed_at: z.string(), parser_version: z.number().int() })),
  live: liveLaneRecord.nullable().describe("The live lane's state when LIVE=on and it feeds this table's dataset; else null"),
});
