import { z } from 'zod';
import type { MonitorRule } from './matcher.ts';
import { IMPORTANCE, MONITOR_STATUSES, TARGET_TYPES, type TargetType } from './taxonomy.ts';

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

function parseSignals(raw: unknown): string[] {
  try {
    const v = JSON.parse(String(raw ?? '[]'));
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
}

export function rowToRule(r: Record<string, unknown>): MonitorRule {
  return {
    id: String(r.id),
    account_id: String(r.account_id),
    target_type: String(r.target_type) as TargetType,
    target_value: String(r.target_value),
    signals: parseSignals(r.signals),
    materiality: String(r.materiality),
    status: String(r.status),
    webhook_endpoint_id: r.webhook_endpoint_id == null ? null : String(r.webhook_endpoint_id),
  };
}

export function rowToMonitor(r: Record<string, unknown>): MonitorRecord {
  return {
    id: String(r.id),
    name: String(r.name),
    target_type: String(r.target_type) as MonitorRecord['target_type'],
    target_value: String(r.target_value),
    signals: parseSignals(r.signals),
    materiality: String(r.materiality) as MonitorRecord['materiality'],
    status: String(r.status) as MonitorRecord['status'],
    webhook_endpoint_id: r.webhook_endpoint_id == null ? null : String(r.webhook_endpoint_id),
    created_at: String(r.created_at),
  };
}
