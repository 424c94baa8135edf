import { randomUUID } from 'node:crypto';
import type { DuckDBConnection } from '@duckdb/node-api';
import { queryRows, sqlIdent, sqlString } from './duck.ts';
import type { TableSpec } from '../../schemas/table.ts';

/**
 * The ENUM codes a batch's sorted writes sort `sortAsCodes` columns by (docs/engine-notes.md §4), and the staged
 * columns a loader declared the values of (`LoadContext.codeValues`), which are staged as codes from the start.
 */
export interface SortCodes {
  /**
   * One ENUM type per `sortAsCodes` column of `spec` that is staged as text, of the values staged for the partition,
   * for the write to cast it to. A column staged as codes (declared) needs none: it is left out.
   */
  of(spec: TableSpec, staging: string, inPartition: string): Promise<{ column: string; type: string }[]>;
  /**
   * Types `spec`'s staged column as an ENUM of every value declared for it so far (`select`: one column, `v`). The
   * values of rows already staged must be among them, as must those of every row the loader stages with SQL later:
   * one that is not fails its statement (DuckDB's cast to the ENUM), so no value is ever written wrong.
   */
  declare(spec: TableSpec, column: string, select: string): Promise<void>;
  /**
   * Before rows that passed through no declaration enter `spec`'s staging table (the rows `append` staged, the rows
   * a merge carries over from the lake), `relation`'s values of each declared column are added to its codes.
   */
  admit(spec: TableSpec, relation: string): Promise<void>;
  /** Drops every type made for the writes (those of staged columns stay with their table, the run's work database). */
  release(): Promise<void>;
}

/**
 * Staged as codes, a 10M-line N-PORT data set's eight filing columns are 1–2 bytes a line instead of their text: its
 * sorted write took 48.2–49.4 s of CPU against 64.6–72.5 s, and no type is made from the staged lines (reading them
 * back cost 7.4 s once they spilled); the whole ingest 131.7–146.0 s against 164.7–168.3 s, the Parquet file byte for
 * byte the same (docs/13f-funds.md).
 *
 * A column staged as text gets its type at the write, of the values staged for the partition (carried-over rows
 * included: the merge has inserted them by now), one per staging table, partition and column, so a sorted copy
 * (`copyOf`), written from its source's staging once the source is written, casts with the source's types instead of
 * reading the partition's distinct values again (13F: seven columns, ≈ 0.2 s of CPU a 1M-line quarter). An ENUM
 * column is written to Parquet as the same UTF8 strings a VARCHAR gives, and its codes follow the values' order (the
 * type is made from `SELECT DISTINCT … ORDER BY 1`), so it sorts as its text would.
 */
export function createSortCodes(conn: DuckDBConnection): SortCodes {
  const prefix = `codes_${randomUUID().slice(0, 8)}_`;
  let count = 0;
  const newType = () => sqlIdent(`${prefix}${count++}`);
  const declared = sqlIdent(`${prefix}declared`);
  /** Write types by staging table, partition and column. */
  const made = new Map<string, string>();
  /** Staged columns typed as codes, by staging table and column: their current type. */
  const staged = new Map<string, string>();
  const key = (...parts: string[]) => JSON.stringify(parts);
  const stagingOf = (spec: TableSpec) => sqlIdent(`staging_${spec.name}`);

  /** (Re)types a staged column as an ENUM of every value declared for it: DuckDB converts the rows staged so far. */
  const retype = async (staging: string, column: string) => {
    const type = newType();
    await conn.run(
      `CREATE TYPE ${type} AS ENUM (SELECT DISTINCT v FROM ${declared} WHERE staging = ${sqlString(staging)} AND col = ${sqlString(column)} ` +
        'AND v IS NOT NULL ORDER BY 1)',
    );
    await conn.run(`ALTER TABLE ${staging} ALTER ${sqlIdent(column)} TYPE ${type}`);
    staged.set(key(staging, column), type);
  };

  return {
    async of(spec, staging, inPartition) {
      const out: { column: string; type: string }[] = [];
      for (const column of spec.sortAsCodes ?? []) {
        if (staged.has(key(staging, column))) continue;
        const k = key(staging, inPartition, column);
        let type = made.get(k);
        if (!type) {
          type = newType();
          const col = sqlIdent(column);
          await conn.run(`CREATE TYPE ${type} AS ENUM (SELECT DISTINCT ${col} FROM ${staging} WHERE ${inPartition} AND ${col} IS NOT NULL ORDER BY 1)`);
          made.set(k, type);
        }
        out.push({ column, type });
      }
      return out;
    },
    async declare(spec, column, select) {
      if (!spec.sortAsCodes?.includes(column)) throw new Error(`${spec.name}.${column} is not one of the table's sortAsCodes columns`);
      const staging = stagingOf(spec);
      if (!staged.size) await conn.run(`CREATE TEMP TABLE IF NOT EXISTS ${declared} (staging VARCHAR NOT NULL, col VARCHAR NOT NULL, v VARCHAR)`);
      await conn.run(`INSERT INTO ${declared} SELECT ${sqlString(staging)}, ${sqlString(column)}, CAST(v AS VARCHAR) FROM (${select})`);
      await retype(staging, column);
    },
    async admit(spec, relation) {
      const staging = stagingOf(spec);
      const coded = (spec.sortAsCodes ?? []).filter((c) => staged.has(key(staging, c)));
      if (!coded.length) return;
      // A file written before a column was added lacks it: its rows bring no value of it.
      const present = new Set((await queryRows(conn, `DESCRIBE SELECT * FROM ${relation}`)).map((r) => String(r.column_name)));
      const columns = coded.filter((c) => present.has(c));
      if (!columns.length) return;
      // The rows are read once for every coded column, as distinct tuples (about one a filing) before UNPIVOT, which
      // drops the nulls (9M carried N-PORT lines: 5.3 s of CPU, against 13.7 s unpivoting every line); each column then
      // takes only the values its codes lack: most often none (a quarter merged again holds the same filings), and its
      // staged rows stay as they are.
      const candidates = sqlIdent(`${prefix}admitted`);
      const names = columns.map(sqlIdent).join(', ');
      await conn.run(
        `CREATE OR REPLACE TEMP TABLE ${candidates} AS SELECT DISTINCT col, v FROM ` +
          `(SELECT DISTINCT ${columns.map((c) => `CAST(${sqlIdent(c)} AS VARCHAR) AS ${sqlIdent(c)}`).join(', ')} FROM ${relation}) ` +
          `UNPIVOT (v FOR col IN (${names}))`,
      );
      try {
        for (const column of columns) {
          const added = await conn.run(
            `INSERT INTO ${declared} SELECT ${sqlString(staging)}, col, v FROM ${candidates} ` +
              `WHERE col = ${sqlString(column)} AND v NOT IN (SELECT unnest(enum_range(NULL::${staged.get(key(staging, column))})))`,
          );
          if (added.rowsChanged > 0) await retype(staging, column);
        }
      } finally {
        await conn.run(`DROP TABLE IF EXISTS ${candidates}`);
      }
    },
    async release() {
      for (const type of made.values()) await conn.run(`DROP TYPE IF EXISTS ${type}`);
      made.clear();
    },
  };
}
