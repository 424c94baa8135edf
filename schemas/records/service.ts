import { z } from 'zod';

/** Service and account records (docs/api-contract.md: Service endpoints). */

export const healthRecord = z.object({
  status: z.enum(['ok', 'degraded']),
  lake: z.object({ reachable: z.boolean(), tables: z.number().int() }),
  state_store: z.object({ reachable: z.boolean() }),
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
});
