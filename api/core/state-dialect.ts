/**
 * The few places where the state store's two engines need different SQL. Every other statement is written once
 * in the subset both accept (`$n` placeholders, `ON CONFLICT`, `RETURNING`, `UPDATE … FROM`, `greatest`, `now()`).
 */
export interface StateDialect {
  name: 'duckdb' | 'postgres';
  /**
   * Whether other processes may use the same store at once (PostgreSQL). The embedded DuckDB file has one owner,
   * so there every `sending` attempt not in this process's hands belongs to a dead process.
   */
  shared: boolean;
  /** A row source `r` over the JSON array bound as parameter `$param` (one bound string instead of thousands). */
  jsonRows(columns: Record<string, 'VARCHAR' | 'INTEGER'>, param?: number): string;
  /** A one-column subquery of the strings of the JSON array bound as parameter `$param`. */
  jsonList(param: number): string;
  /** The first `n` values of `value` by `order` within a group, as a list (`n` is our own integer, never input). */
  firstN(value: string, order: string, n: number): string;
  /** Appended to a SELECT that claims rows: skips rows another process holds (PostgreSQL), nothing on DuckDB. */
  skipLocked: string;
  /** Appended to a SELECT whose rows the transaction then updates: a row lock (PostgreSQL), nothing on DuckDB. */
  forUpdate: string;
}

const intN = (n: number) => Math.max(1, Math.floor(n));

/** DuckDB: one process, one connection, one queue; the statements are serial already, so no locking clauses. */
export const duckDialect: StateDialect = {
  name: 'duckdb',
  shared: false,
  jsonRows: (columns, param = 1) => `(SELECT unnest(from_json($${param}::JSON, '${JSON.stringify([columns])}')) AS r)`,
  jsonList: (param) => `SELECT unnest(from_json($${param}::JSON, '["VARCHAR"]'))`,
  // A grouped min_by, not array_agg(… ORDER BY): no sort of a large backlog.
  firstN: (value, order, n) => `min_by(${value}, ${order}, ${intN(n)})`,
  skipLocked: '',
  forUpdate: '',
};

/** PostgreSQL: many processes; row locks make a debit or a claim exclusive across all of them. */
export const postgresDialect: StateDialect = {
  name: 'postgres',
  shared: true,
  jsonRows: (columns, param = 1) => {
    const cols = Object.entries(columns)
      .map(([c, t]) => `"${c}" ${t}`)
      .join(', ');
    return `json_to_recordset($${param}::json) AS r(${cols})`;
  },
  jsonList: (param) => `SELECT json_array_elements_text($${param}::json)`,
  firstN: (value, order, n) => `(array_agg(${value} ORDER BY ${order}))[1:${intN(n)}]`,
  skipLocked: ' FOR UPDATE SKIP LOCKED',
  forUpdate: ' FOR UPDATE',
};
