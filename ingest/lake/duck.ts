import {
  DOUBLE,
  DuckDBInstance,
  type DuckDBConnection,
  type DuckDBMaterializedResult,
  type DuckDBType,
  DuckDBTypeId,
  JsonDuckDBValueConverter,
  quotedIdentifier,
  quotedString,
} from '@duckdb/node-api';
import type { OrderColumn } from '../../schemas/table.ts';

/**
 * SQL literal and identifier quoting for values that are ours (file paths, partition values, table and column
 * names), never user input: user input is always a bound parameter. The quoting itself is the DuckDB client's;
 * the names stay ours, so the ~60 call sites across the layers need no change.
 */
export { quotedString as sqlString, quotedIdentifier as sqlIdent } from '@duckdb/node-api';

/**
 * `"a" ASC, "b" DESC`: an ORDER BY list (NULLs last either way: DuckDB's default). One spelling for a list's pages
 * (api/core/page-query.ts) and the heads built in their order (ingest/lake/heads.ts).
 */
export function orderSql(order: readonly OrderColumn[]): string {
  return order.map((o) => `${quotedIdentifier(o.column)} ${o.dir.toUpperCase()}`).join(', ');
}

const NUMERIC_BIG = new Set([DuckDBTypeId.BIGINT, DuckDBTypeId.HUGEINT, DuckDBTypeId.UBIGINT, DuckDBTypeId.DECIMAL]);

/**
 * Runs SQL and returns plain JSON-ready rows: BIGINT/DECIMAL as numbers (strings only past 2^53),
 * DATE as `YYYY-MM-DD`, TIMESTAMP as ISO 8601 with `Z` (the lake stores UTC).
 */
export async function queryRows(conn: DuckDBConnection, sql: string, params: unknown[] = []): Promise<Record<string, unknown>[]> {
  return resultRows(await conn.run(sql, params.length ? (params as never) : undefined, bindTypes(params)));
}

/**
 * The client binds an integral JS number as INTEGER or BIGINT and throws "bigint out of int64 range" past 2^63
 * (`min_value=1e20` was a 500): a number past 2^53 is no exact integer anyway, so it is bound as the DOUBLE it is.
 */
export function bindTypes(params: unknown[]): DuckDBType[] | undefined {
  if (!params.some((v) => typeof v === 'number' && Number.isInteger(v) && !Number.isSafeInteger(v))) return undefined;
  return params.map((v) => (typeof v === 'number' && Number.isInteger(v) && !Number.isSafeInteger(v) ? DOUBLE : (undefined as never)));
}

/**
 * The rows of a materialized result (what `run` returns), converted as `queryRows` describes. The chunks are taken
 * from the result itself, synchronously: the client's `runAndReadAll` fetches each chunk, and the empty one that ends
 * them, through a worker call of its own, so a 26-row page made three trips through libuv's pool instead of one.
 * Measured with 16 callers on 4 connections: a state-store-sized point read 1.04 ms of CPU and 1,704 a second against
 * 1.17 ms and 1,400; a served `?cusip=` page the same CPU, 213 against 199 a second (docs/read-path.md, "One trip per
 * query").
 */
export function resultRows(result: DuckDBMaterializedResult): Record<string, unknown>[] {
  const names = result.deduplicatedColumnNames();
  const rows: Record<string, unknown>[] = [];
  for (let i = 0, chunks = result.chunkCount; i < chunks; i++) {
    const chunk = result.getChunk(i);
    for (let r = 0, n = chunk.rowCount; r < n; r++) {
      const row: Record<string, unknown> = {};
      chunk.visitRowValues(r, (value, _row, column, type) => {
        row[names[column]] = JsonDuckDBValueConverter(value, type, JsonDuckDBValueConverter);
      });
      rows.push(row);
    }
  }
  return jsonReadyRows(rows, names, result.columnTypes());
}

/**
 * Column types whose JSON text (DuckDB's `to_json`) parses to exactly what `queryRows` returns for them; BIGINT-like
 * columns travel as text and are converted as `queryRows` converts them (numbers up to 2^53, text past it).
 */
const JSON_EXACT = new Set([
  DuckDBTypeId.BOOLEAN,
  DuckDBTypeId.TINYINT,
  DuckDBTypeId.SMALLINT,
  DuckDBTypeId.INTEGER,
  DuckDBTypeId.DOUBLE,
  DuckDBTypeId.DATE,
  DuckDBTypeId.VARCHAR,
  ...NUMERIC_BIG,
]);

/**
 * The rows of a query, converted as `queryRows` converts them: for a whole table read into memory at once (a serving
 * copy's lookup, a partition's key summary). DuckDB writes the result as one JSON text, a list of values per column,
 * which V8 parses, instead of each value crossing the client one at a time: 8 summaries of 20,000 keys cost 804 ms of
 * CPU through `queryRows` against 274 ms as column lists (and 632 ms as one JSON object per row: parsing many small
 * objects is what costs); a 7,938-filing lookup 103–133 ms against 48 (docs/read-path.md, "Opening the lake"). A query
 * with a column of another type, duplicate column names, or a value JSON cannot hold (NaN) is read through `queryRows`.
 */
export async function rowSet(conn: DuckDBConnection, sql: string): Promise<Record<string, unknown>[]> {
  // Prepared, not run: its columns as the query itself names them (a subquery would rename a duplicate).
  const prepared = await conn.prepare(sql);
  const names = Array.from({ length: prepared.columnCount }, (_, i) => prepared.columnName(i));
  const types = names.map((_, i) => prepared.columnType(i));
  prepared.destroySync();
  if (new Set(names).size !== names.length || !types.every((t) => JSON_EXACT.has(t.typeId))) return queryRows(conn, sql);
  const cols = names.map((n, i) =>
    NUMERIC_BIG.has(types[i].typeId) ? `CAST(${quotedIdentifier(n)} AS VARCHAR) AS ${quotedIdentifier(n)}` : quotedIdentifier(n),
  );
  // One list of the rows, split into a list per column by comprehension over it: the columns stay aligned row by row.
  const fields = names.map((n) => `${quotedString(n)}: [x.${quotedIdentifier(n)} FOR x IN l]`);
  const [row] = await queryRows(
    conn,
    `SELECT to_json({${fields.join(', ')}})::VARCHAR AS j FROM (SELECT list(q) AS l FROM (SELECT ${cols.join(', ')} FROM (${sql})) q)`,
  );
  let columns: Record<string, unknown[] | null>;
  try {
    columns = JSON.parse(String(row.j));
  } catch {
    return queryRows(conn, sql);
  }
  const values = names.map((n) => columns[n] ?? []);
  const rows: Record<string, unknown>[] = [];
  for (let r = 0, count = values[0]?.length ?? 0; r < count; r++) {
    const out: Record<string, unknown> = {};
    for (let c = 0; c < names.length; c++) out[names[c]] = values[c][r];
    rows.push(out);
  }
  return jsonReadyRows(rows, names, types);
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
