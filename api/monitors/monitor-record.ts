import type { MonitorRecord, TargetType } from '../../schemas/records/monitors.ts';
import type { MonitorRule } from './matcher.ts';

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
