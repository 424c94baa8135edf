import type { StateStore, StateTx } from '../core/state.ts';

/** The slice of the state store (api/core/state.ts) this area uses; tests may pass any store of that shape. */
export type StateDb = StateTx & Pick<StateStore, 'transaction'>;

/** Typed rows: the store returns plain JSON-ready objects; the SQL beside each call fixes their shape. */
export async function rowsOf<T>(db: StateTx, sql: string, params: unknown[] = []): Promise<T[]> {
  return (await db.all(sql, params)) as unknown as T[];
}
