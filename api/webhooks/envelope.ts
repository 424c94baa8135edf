import { SOURCE } from '../../schemas/sources.ts';

/**
 * The envelope of the monitoring endpoints (monitors, alerts, webhooks): source `svc_monitoring`, and no `as_of` or
 * `query_echo` (the app leaves them out for this source).
 */
export const MONITORING_SOURCE = SOURCE.svc_monitoring;

/** Managing monitors and webhooks reads no data: one credit per call, so "each call consumes credits" holds cheaply. */
export const MONITORING_COST = 1;

/** Deleting one's own monitor or webhook endpoint is free, so a key whose credits are exhausted can still stop them. */
export const DELETE_COST = 0;

/** A one-record answer (create, get, update, delete). */
export function single<R>(record: R) {
  return { data: [record], source: MONITORING_SOURCE, warnings: [] };
}
