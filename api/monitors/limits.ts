import type { TargetType } from '../../schemas/records/monitors.ts';

/**
 * The documented limits of a monitor's target (docs/monitors-webhooks.md). A value outside them cannot name
 * anything the feed carries, so it is refused (400) instead of stored as a monitor that can never fire.
 */
const TARGET_SYNTAX: Record<Exclude<TargetType, 'event_type'>, { pattern: RegExp; describe: string }> = {
  // BRK.B, BF-B, GOOGL: exchange tickers with a class suffix.
  ticker: { pattern: /^[A-Z0-9][A-Z0-9.-]{0,9}$/, describe: '1-10 letters, digits, "." or "-"' },
  cik: { pattern: /^(?!0+$)\d{1,10}$/, describe: '1-10 digits, not all zeros' },
  // DEF 14A, 8-K/A, SC 13G/A, 10-K405, N-PORT: the form types of the filing index.
  form: { pattern: /^[A-Z0-9][A-Z0-9 ./-]{0,24}$/, describe: '1-25 letters, digits, spaces, ".", "/" or "-"' },
};

/** Monitors one account may hold: matching cost grows with them, and no real watch list needs more. */
export const MAX_MONITORS_PER_ACCOUNT = 1000;

/** Why a (trimmed, upper-cased where it applies) target value is refused, or null when it fits its type. */
export function targetSyntaxError(type: TargetType, value: string): string | null {
  if (type === 'event_type') return null;
  const rule = TARGET_SYNTAX[type];
  return rule.pattern.test(value) ? null : `a ${type} is ${rule.describe}`;
}
