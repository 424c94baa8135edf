import { z } from 'zod';

/** The monitor vocabulary: what a monitor may target, its states, and the importance threshold it fires at. */
export const TARGET_TYPES = ['ticker', 'cik', 'form', 'event_type'] as const;
export type TargetType = (typeof TARGET_TYPES)[number];

const MONITOR_STATUSES = ['active', 'paused'] as const;

const IMPORTANCE = ['low', 'medium', 'high'] as const;

/** The API's Monitor record (docs/api-contract.md: Monitors). */
export const monitorRecord = z.object({
  id: z.string().describe('UUID'),
  name: z.string(),
  target_type: z.enum(TARGET_TYPES).describe('ticker | cik | form | event_type: what `target_value` names'),
  target_value: z.string().describe('Normalized: tickers and forms upper-case, CIKs zero-padded to 10 digits'),
  signals: z.array(z.string()).describe('Event types to match; [] matches every type'),
  materiality: z.enum(IMPORTANCE).describe('Minimum event importance that fires the monitor (low < medium < high)'),
  status: z.enum(MONITOR_STATUSES),
  webhook_endpoint_id: z.string().nullable(),
  created_at: z.string().describe('ISO 8601 timestamp'),
});
export type MonitorRecord = z.infer<typeof monitorRecord>;

/** A monitor's name: 1-200 characters after trimming, no control characters or line breaks. */
const monitorName = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[^\p{Cc}\p{Zl}\p{Zp}]+$/u, 'must not contain control characters or line breaks');

/** Bodies are strict: a misspelled member (`materiallity`) is a 400, not a silently ignored setting. */
export const createMonitorBody = z
  .object({
    name: monitorName,
    target_type: z.enum(TARGET_TYPES),
    target_value: z.string().trim().min(1).max(200).describe('ticker: 1-10 of A-Z 0-9 . -; cik: 1-10 digits; form: 1-25 of A-Z 0-9 space . / -'),
    signals: z.array(z.string()).max(50).default([]),
    materiality: z.enum(IMPORTANCE).default('low'),
    webhook_endpoint_id: z.string().nullable().optional(),
  })
  .strict();

export const patchMonitorBody = z
  .object({
    name: monitorName.optional(),
    status: z.enum(MONITOR_STATUSES).optional(),
    signals: z.array(z.string()).max(50).optional(),
    materiality: z.enum(IMPORTANCE).optional(),
    webhook_endpoint_id: z.string().nullable().optional(),
  })
  .strict();
