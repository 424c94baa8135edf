import { randomUUID } from 'node:crypto';
import type { DuckDBConnection } from '@duckdb/node-api';
import { sqlIdent, sqlString } from './duck.ts';
import type { TableSpec } from '../../schemas/table.ts';

/** The ENUM types sorted writes cast `sortAsCodes` columns to (`createSortCodes`). */
export interface SortCodes {
  /**
   * One ENUM type per `sortAsCodes` column of `spec`, of the values staged for the partition. `carriedOver`: the
   * write's merge put rows of the lake into the staging table, so no declaration covers the partition (below).
   */
  of(spec: TableSpec, staging: string, inPartition: string, carriedOver?: boolean): Promise<{ column: string; type: string }[]>;
  /** Drops every type made. */
  release(): Promise<void>;
}

/**
 * The values a loader promises a staged column holds (`LoadContext.codeValues`), kept in one TEMP table of the run's
 * work database, so an ENUM type is made from a few thousand per-filing values instead of the staged lines.
 * A declaration holds only for rows the loader inserted with SQL: `covers` is false for a column of a table that also
 * got rows through `append` (those never passed through the declared relation).
 */
export interface DeclaredCodes {
  declare(spec: TableSpec, column: string, select: string): Promise<void>;
  covers(staging: string, column: string): boolean;
  /** The SQL selecting a declared column's values (`v`) for `CREATE TYPE … AS ENUM`. */
  valuesSql(staging: string, column: string): string;
}

export async function createDeclaredCodes(conn: DuckDBConnection, appendedRows: (table: string) => number): Promise<DeclaredCodes> {
  const table = sqlIdent(`declared_codes_${randomUUID().slice(0, 8)}`);
  await conn.run(`CREATE TEMP TABLE ${table} (staging VARCHAR NOT NULL, col VARCHAR NOT NULL, v VARCHAR)`);
  const declared = new Map<string, string>();
  const key = (staging: string, column: string) => JSON.stringify([staging, column]);
  return {
    async declare(spec, column, select) {
      if (!spec.sortAsCodes?.includes(column)) throw new Error(`${spec.name}.${column} is not one of the table's sortAsCodes columns`);
      const staging = sqlIdent(`staging_${spec.name}`);
      await conn.run(`INSERT INTO ${table} SELECT ${sqlString(staging)}, ${sqlString(column)}, CAST(v AS VARCHAR) FROM (${select})`);
      declared.set(key(staging, column), spec.name);
    },
    covers(staging, column) {
      const name = declared.get(key(staging, column));
      return name !== undefined && appendedRows(name) === 0;
    },
    valuesSql(staging, column) {
      return `SELECT DISTINCT v FROM ${table} WHERE staging = ${sqlString(staging)} AND col = ${sqlString(column)} AND v IS NOT NULL ORDER BY 1`;
    },
  };
}

/**
 * ENUM types of the values staged for a partition (carried-over rows included: the merge has inserted them by now),
 * one per staging table, partition and column, so a sorted copy (`copyOf`), written from its source's staging once the
 * source is written, casts with the source's types instead of reading the partition's distinct values again (13F:
 * seven columns, ≈ 0.2 s of CPU a 1M-line quarter). The runner holds one for a batch's writes; a caller that passes
 * none gets one for its call. An ENUM column is written to Parquet as the same UTF8 strings a VARCHAR gives.
 *
 * A column `declared` covers takes its values from the loader's declaration instead of the staged column: reading
 * the staged column back is what costs, once the staged lines spill (a 10M-line N-PORT data set: eight columns,
 * 8.2–8.9 s of CPU; docs/13f-funds.md). A superset serves as well: codes follow the values' order either way. A
 * declaration that misses a staged value fails the write loudly (DuckDB's cast to the ENUM rejects it), never
 * writes a wrong value.
 */
export function createSortCodes(conn: DuckDBConnection, declared?: DeclaredCodes): SortCodes {
  const prefix = `codes_${randomUUID().slice(0, 8)}_`;
  const made = new Map<string, string>();
  return {
    async of(spec, staging, inPartition, carriedOver = false) {
      const out: { column: string; type: string }[] = [];
      for (const column of spec.sortAsCodes ?? []) {
        const key = JSON.stringify([staging, inPartition, column]);
        let type = made.get(key);
        if (!type) {
          type = sqlIdent(`${prefix}${made.size}`);
          const col = sqlIdent(column);
          // In value order: an ENUM sorts by code, so a sort column cast to it sorts as its text would.
          const values =
            !carriedOver && declared?.covers(staging, column)
              ? declared.valuesSql(staging, column)
              : `SELECT DISTINCT ${col} FROM ${staging} WHERE ${inPartition} AND ${col} IS NOT NULL ORDER BY 1`;
          await conn.run(`CREATE TYPE ${type} AS ENUM (${values})`);
          made.set(key, type);
        }
        out.push({ column, type });
      }
      return out;
    },
    async release() {
      for (const type of made.values()) await conn.run(`DROP TYPE IF EXISTS ${type}`);
      made.clear();
    },
  };
}
