import { p } from '../core/params.ts';

/** Live upstream reads fail fast while the client is paused (no waiting out a throttle inside a request), one retry. */
export const LIVE_FETCH = { whenPaused: 'fail', retries: 1 } as const;

export const cikListParam = p.csv({
  item: /^(CIK)?\d{1,10}$/i,
  itemText: '^(CIK)?\\d{1,10}$',
  description: 'Comma-separated CIKs (with or without leading zeros).',
});
