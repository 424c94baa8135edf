/**
 * State-store tables of monitors and alerts. Times are ISO-8601 UTC strings (`Date#toISOString`, fixed width)
 * so they compare correctly as text and come back from DuckDB as plain strings.
 */
export default [
  {
    id: '0200_monitors',
    sql: `
CREATE TABLE IF NOT EXISTS monitors (
  id VARCHAR PRIMARY KEY,
  account_id VARCHAR NOT NULL,
  name VARCHAR NOT NULL,
  target_type VARCHAR NOT NULL,
  target_value VARCHAR NOT NULL,
  signals VARCHAR NOT NULL,            -- JSON array of event types; [] = every type
  materiality VARCHAR NOT NULL,
  status VARCHAR NOT NULL,
  webhook_endpoint_id VARCHAR,
  created_at VARCHAR NOT NULL,
  updated_at VARCHAR NOT NULL
);
CREATE INDEX IF NOT EXISTS monitors_account ON monitors (account_id);

-- One alert per (monitor, event): the id is derived from the pair (alertId), so the primary key alone makes
-- a re-run of the matcher a no-op. A separate UNIQUE (monitor_id, event_id) index costs 5x on inserts here.
CREATE TABLE IF NOT EXISTS alerts (
  id VARCHAR PRIMARY KEY,
  account_id VARCHAR NOT NULL,
  monitor_id VARCHAR NOT NULL,
  event_id VARCHAR NOT NULL,
  event_json VARCHAR NOT NULL,         -- snapshot of the event: alerts and deliveries never re-read the lake
  delivery_id VARCHAR,
  created_at VARCHAR NOT NULL
);

-- The matcher's high-water mark in the events feed, as the (seq, id) keyset of the last event processed.
CREATE TABLE IF NOT EXISTS monitor_scan_state (
  id INTEGER PRIMARY KEY,
  last_seq BIGINT NOT NULL,
  last_event_id VARCHAR NOT NULL,
  updated_at VARCHAR NOT NULL
);
`,
  },
];
