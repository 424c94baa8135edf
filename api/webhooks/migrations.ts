/**
 * State-store tables of webhook endpoints, deliveries and their attempts. Every attempt is written before its
 * request leaves, so a restart knows which attempts may have reached the receiver (never re-sent under the
 * same Svc-Delivery-Id) and which deliveries are still owed.
 */
export default [
  {
    id: '0210_webhooks',
    sql: `
CREATE TABLE IF NOT EXISTS webhook_endpoints (
  id VARCHAR PRIMARY KEY,
  account_id VARCHAR NOT NULL,
  url VARCHAR NOT NULL,
  description VARCHAR NOT NULL,
  status VARCHAR NOT NULL,             -- active | disabled (a receiver answered 410 Gone)
  secret VARCHAR NOT NULL,
  previous_secret VARCHAR,             -- still signs alongside until previous_secret_expires_at (rotation overlap)
  previous_secret_expires_at VARCHAR,
  disabled_reason VARCHAR,
  created_at VARCHAR NOT NULL,
  updated_at VARCHAR NOT NULL
);
CREATE INDEX IF NOT EXISTS webhook_endpoints_account ON webhook_endpoints (account_id);

CREATE TABLE IF NOT EXISTS webhook_deliveries (
  id VARCHAR PRIMARY KEY,
  account_id VARCHAR NOT NULL,
  endpoint_id VARCHAR NOT NULL,
  monitor_id VARCHAR,                  -- null for test deliveries
  alert_id VARCHAR,
  event_id VARCHAR NOT NULL,
  type VARCHAR NOT NULL,
  event_json VARCHAR NOT NULL,
  status VARCHAR NOT NULL,             -- pending | success | failed
  attempts INTEGER NOT NULL,
  schedule_step INTEGER NOT NULL,      -- failures since the last (re)queue: index into the retry schedule
  next_attempt_at VARCHAR,             -- null while an attempt is in flight or once final
  response_status INTEGER,
  last_error VARCHAR,
  created_at VARCHAR NOT NULL,
  updated_at VARCHAR NOT NULL
);
CREATE INDEX IF NOT EXISTS webhook_deliveries_account ON webhook_deliveries (account_id, created_at);
-- No index on status/next_attempt_at: DuckDB rewrites index entries on every update of an indexed column,
-- and a scan of the (small) pending set is cheap.

CREATE TABLE IF NOT EXISTS webhook_attempts (
  id VARCHAR PRIMARY KEY,              -- the Svc-Delivery-Id header: unique per attempt
  delivery_id VARCHAR NOT NULL,
  attempt_no INTEGER NOT NULL,
  outcome VARCHAR NOT NULL,            -- sending | success | error | interrupted
  response_status INTEGER,
  error VARCHAR,
  started_at VARCHAR NOT NULL,
  finished_at VARCHAR
);
CREATE INDEX IF NOT EXISTS webhook_attempts_delivery ON webhook_attempts (delivery_id);
`,
  },
  {
    // Several processes may run delivery workers on one PostgreSQL store: each attempt names the worker that claimed
    // it, and workers beat a heartbeat, so a worker recovers only the attempts of workers that stopped beating.
    id: '0220_webhook_workers',
    sql: `
ALTER TABLE webhook_attempts ADD COLUMN IF NOT EXISTS worker_id VARCHAR;   -- null: claimed before 0220
CREATE TABLE IF NOT EXISTS webhook_workers (
  id VARCHAR PRIMARY KEY,
  heartbeat_at VARCHAR NOT NULL
);
`,
  },
];
