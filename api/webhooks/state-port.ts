import type { StateStore, StateTx } from '../core/state.ts';

/** The slice of the state store (api/core/state.ts) this area uses; tests may pass any store of that shape. */
export type StateDb = StateTx & Pick<StateStore, 'transaction'>;

/** Typed rows: the store returns plain JSON-ready objects; the SQL beside each call fixes their shape. */
export async function rowsOf<T>(db: StateTx, sql: string, params: unknown[] = []): Promise<T[]> {
  return (await db.all(sql, params)) as unknown as T[];
}

/** A JSON list bound as ONE parameter and unnested in SQL: far faster than thousands of positional parameters. */
export function jsonRows(columns: Record<string, 'VARCHAR' | 'INTEGER'>): string {
  return `(SELECT unnest(from_json($1::JSON, '${JSON.stringify([columns])}')) AS r)`;
}
