/**
 * One state-store schema step. Declared here rather than in state.ts, which imports this file: the type has
 * no other home that both can import without a cycle.
 */
export interface Migration {
  /** Applied once, in id order across all modules (`0100_keys`, `0200_monitors` …). */
  id: string;
  /** One or more statements separated by `;` (split by DuckDB's own parser, so `;` inside a string is safe). */
  sql: string;
}

/** Core state: API keys (hash only) and credit usage per billing period. Other modules add theirs (0200+). */
const migrations: Migration[] = [
  {
    id: '0100_keys_usage',
    sql: `
CREATE TABLE api_keys (
  id VARCHAR PRIMARY KEY,
  account_id VARCHAR NOT NULL,
  name VARCHAR,
  plan VARCHAR NOT NULL,
  prefix VARCHAR NOT NULL,
  key_hash VARCHAR NOT NULL UNIQUE,
  created_at TIMESTAMP NOT NULL,
  revoked_at TIMESTAMP
);
CREATE TABLE credit_usage (
  account_id VARCHAR NOT NULL,
  period VARCHAR NOT NULL,
  used BIGINT NOT NULL,
  requests BIGINT NOT NULL,
  PRIMARY KEY (account_id, period)
)`,
  },
];

export default migrations;
