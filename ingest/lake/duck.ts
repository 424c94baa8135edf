import { DOUBLE, DuckDBInstance, type DuckDBConnection, type DuckDBResultReader, type DuckDBType, DuckDBTypeId } from '@duckdb/node-api';

/**
 * SQL literal and identifier quoting for values that are ours (file paths, partition values, table and column
 * names), never user input: user input is always a bound parameter. The quoting itself is the DuckDB client's;
 * the names stay ours, so the ~60 call sites across the layers need no change.
 */
export { quotedString as sqlString, quotedIdentifier as sqlIdent } from '@duckdb/node-api';

const NUMERIC_BIG = new Set([DuckDBTypeId.BIGINT, DuckDBTypeId.HUGEINT, DuckDBTypeId.UBIGINT, DuckDBTypeId.DECIMAL]);

/**
 * Runs SQL and returns plain JSON-ready rows: BIGINT/DECIMAL as numbers (strings only past 2^53),
 * DATE as `YYYY-MM-DD`, TIMESTAMP as ISO 8601 with `Z` (the lake stores UTC).
 */
export async function queryRows(conn: DuckDBConnection, sql: string, params: unknown[] = []): Promise<Record<string, unknown>[]> {
  const reader = await conn.runAndReadAll(sql, params.length ? (params as never) : undefined, bindTypes(params));
  return readerRows(reader);
}

/**
 * The client binds an integral JS number as INTEGER or BIGINT and throws "bigint out of int64 range" past 2^63
 * (`min_value=1e20` was a 500): a number past 2^53 is no exact integer anyway, so it is bound as the DOUBLE it is.
 */
export function bindTypes(params: unknown[]): DuckDBType[] | undefined {
  if (!params.some((v) => typeof v === 'number' && Number.isInteger(v) && !Number.isSafeInteger(v))) return undefined;
  return params.map((v) => (typeof v === 'number' && Number.isInteger(v) && !Number.isSafeInteger(v) ? DOUBLE : (undefined as never)));
}

/** The rows a read result holds, converted as `queryRows` describes. */
export function readerRows(reader: DuckDBResultReader): Record<string, unknown>[] {
  return jsonReadyRows(reader.getRowObjectsJson() as Record<string, unknown>[], reader.columnNames(), reader.columnTypes());
}

/** Converts rows in place (see `queryRows`) given their column names and types: shared by whole and streamed reads. */
function jsonReadyRows(rows: Record<string, unknown>[], names: string[], types: DuckDBType[]): Record<string, unknown>[] {
  const fix: { name: string; kind: 'num' | 'ts' }[] = [];
  names.forEach((name, i) => {
    const id = types[i].typeId;
    if (NUMERIC_BIG.has(id)) fix.push({ name, kind: 'num' });
    else if (id === DuckDBTypeId.TIMESTAMP || id === DuckDBTypeId.TIMESTAMP_TZ || id === DuckDBTypeId.TIMESTAMP_MS || id === DuckDBTypeId.TIMESTAMP_S)
      fix.push({ name, kind: 'ts' });
  });
  if (fix.length) {
    for (const row of rows) {
      for (const { name, kind } of fix) {
        const v = row[name];
        if (v == null) continue;
        if (kind === 'num') {
          const n = Number(v);
          if (Number.isSafeInteger(n) || !Number.isInteger(n)) row[name] = n;
        } else {
          const s = String(v);
          row[name] = s.includes('T') ? s : `${s.replace(' ', 'T')}${/[Z+]/.test(s.slice(10)) ? '' : 'Z'}`;
        }
      }
    }
  }
  return rows;
}

export async function openDuck(path = ':memory:', options: Record<string, string> = {}): Promise<{ instance: DuckDBInstance; conn: DuckDBConnection }> {
  const instance = await DuckDBInstance.create(path, options);
  const conn = await instance.connect();
  return { instance, conn };
}

/**
 * Streams a query's rows chunk by chunk (DuckDB's vector size, 2,048 rows), converted as `queryRows` describes: a
 * caller that writes each chunk out holds one chunk at a time, never the whole result.
 */
export async function* streamRows(conn: DuckDBConnection, sql: string, params: unknown[] = []): AsyncGenerator<Record<string, unknown>[]> {
  const result = await conn.stream(sql, params.length ? (params as never) : undefined, bindTypes(params));
  const names = result.columnNames();
  const types = result.columnTypes();
  for await (const chunk of result.yieldRowObjectJson()) yield jsonReadyRows(chunk as Record<string, unknown>[], names, types);
}
