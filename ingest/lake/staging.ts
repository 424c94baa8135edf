import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { z } from 'zod';
import { queryRows, sqlIdent, sqlString } from './duck.ts';
import { rowSchema } from '../../schemas/row-schema.ts';
import { allColumns, ddlColumns, type TableSpec } from '../../schemas/table.ts';

/** A source line that could not become a row, reported with its place (never aborts a run). */
export interface BadRow {
  file: string;
  line: number | null;
  reason: string;
}

/**
 * Rows handed over by a parser are validated (zod, generated from the table's columns) and streamed to a
 * newline-delimited JSON file; DuckDB then loads the file into `staging_<table>` in one pass. Memory stays
 * bounded whatever the source size: nothing accumulates in JS.
 */
export class StagingTable {
  private stream: WriteStream;
  private readonly schema: z.ZodObject;
  private readonly jsonCols: string[];
  readonly file: string;
  count = 0;

  constructor(
    readonly spec: TableSpec,
    workDir: string,
    private readonly parserVersion: number,
    private readonly onBad: (b: BadRow) => void,
  ) {
    this.file = join(workDir, `staging_${spec.name}.ndjson`);
    this.stream = createWriteStream(this.file);
    this.schema = rowSchema(spec);
    this.jsonCols = Object.entries(spec.columns)
      .filter(([, c]) => c.type === 'JSON')
      .map(([n]) => n);
  }

  /** Validates and stages one row; false when it was reported as a bad row instead. */
  async append(row: Record<string, unknown>, where: { file?: string; line?: number } = {}): Promise<boolean> {
    const r = this.schema.safeParse(row);
    if (!r.success) {
      this.onBad({ file: where.file ?? this.spec.name, line: where.line ?? null, reason: this.reasonOf(r.error.issues[0]) });
      return false;
    }
    const out = r.data as Record<string, unknown>;
    for (const c of this.jsonCols) {
      const v = out[c];
      if (v !== undefined && v !== null && typeof v !== 'string') out[c] = JSON.stringify(v);
    }
    out.parser_version = this.parserVersion;
    const line = JSON.stringify(out, (_k, v) => (typeof v === 'bigint' ? Number(v) : v));
    this.count++;
    if (!this.stream.write(`${line}\n`)) await once(this.stream, 'drain');
    return true;
  }

  private reasonOf(issue: z.core.$ZodIssue): string {
    // A key the table lacks is almost always a misspelt column: name it and the table, not zod's generic wording.
    if (issue.code === 'unrecognized_keys') {
      return `unknown column${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')} (not in table ${this.spec.name})`;
    }
    return `${issue.path.join('.') || 'row'}: ${issue.message}`;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve, reject) => this.stream.end((err?: Error | null) => (err ? reject(err) : resolve())));
  }

  /**
   * Loads the NDJSON file into the staging table (created beforehand by createStagingTable). DuckDB's reader allocates
   * each buffer at twice its `maximum_object_size` (32 MiB at least), whatever the file's size, and reads a longer line
   * whole all the same (a 20 MB row loads at its default of 16 MiB): at the 100 MB set here before, each load took a
   * 200 MiB block of the work database's memory limit, and no ingest of JS-staged rows could run under 250MB.
   */
  async load(conn: DuckDBConnection): Promise<void> {
    if (this.count === 0) return;
    await conn.run(`INSERT INTO ${sqlIdent(`staging_${this.spec.name}`)} BY NAME SELECT * FROM ${this.relation()}`);
  }

  /** The staged rows as DuckDB reads them from the NDJSON file, once it is closed. */
  relation(): string {
    const cols = Object.entries(allColumns(this.spec))
      .map(([n, c]) => `${sqlString(n)}: ${sqlString(c.type === 'JSON' ? 'VARCHAR' : c.type)}`)
      .join(', ');
    return `read_json(${sqlString(this.file)}, format = 'newline_delimited', columns = {${cols}})`;
  }
}

/**
 * TEMP, not persisted: a persisted table writes every inserted row through the scratch database's storage
 * (a 3.1M-line 13F window ran in 39.5 s instead of 19.8 s); a TEMP table lives in memory and spills to the run's
 * temp_directory past the memory limit, so memory stays bounded. The run uses one connection, which TEMP needs.
 */
export async function createStagingTable(conn: DuckDBConnection, spec: TableSpec): Promise<void> {
  await conn.run(`CREATE TEMP TABLE ${sqlIdent(`staging_${spec.name}`)} (${ddlColumns(spec)})`);
}

/** Rows an `INSERT` statement added, from the one-row result DuckDB returns for it (for SQL-path progress counts). */
export function insertedRows(result: Record<string, unknown>[]): number {
  return Number(result[0]?.Count ?? 0);
}

/** A staged table whose primary key is null or repeated: the run stops before anything is written. */
class StagedKeyError extends Error {}

/**
 * Checks the primary key of `staging_<table>` before any partition is written: no key column null, and no key
 * twice within a partition (the writer merges and replaces rows by that key, per partition). Appended rows were
 * validated one at a time, which cannot see duplicates, and rows a loader inserts with SQL were not validated at
 * all; either would otherwise reach the lake as rows no request can tell apart. The message names the table, the
 * key columns and one offending key (the smallest, so the same input always reports the same key).
 */
export async function assertStagedKeys(conn: DuckDBConnection, spec: TableSpec): Promise<void> {
  const staging = sqlIdent(`staging_${spec.name}`);
  const key = spec.primaryKey;
  const scope = key.includes(spec.partitionBy) ? key : [spec.partitionBy, ...key];
  const cols = scope.map(sqlIdent).join(', ');
  const keyText = `primary key (${key.join(', ')})`;
  const describe = (r: Record<string, unknown>) => scope.map((c) => `${c}=${r[c] === null ? 'null' : JSON.stringify(r[c])}`).join(', ');

  // One pass over the staged rows (a full quarter is millions), grouped by a hash of the key: a 64-bit number groups
  // in less memory than the key's text (a 10M-line N-PORT data set: 4.0-4.3 s CPU against 6.6-6.8 s). Only when a
  // hash is repeated or holds a null key does the exact pass run, over the rows of those hashes: a null key forms its
  // own group, so grouping by the key finds both faults, and null keys sort first, so they are the ones reported.
  const hasNull = key.map((c) => `${sqlIdent(c)} IS NULL`).join(' OR ');
  const suspect = `SELECT hash(${cols}) FROM ${staging} GROUP BY 1 HAVING count(*) > 1 OR bool_or(${hasNull})`;
  if (!(await queryRows(conn, `${suspect} LIMIT 1`)).length) return;
  const bad = await queryRows(
    conn,
    `SELECT ${cols}, count(*) AS copies, (${hasNull}) AS has_null FROM ${staging} WHERE hash(${cols}) IN (${suspect}) ` +
      `GROUP BY ${cols} HAVING count(*) > 1 OR (${hasNull}) ORDER BY has_null DESC, ${cols} LIMIT 1`,
  );
  if (!bad.length) return;
  if (bad[0].has_null) throw new StagedKeyError(`${spec.name}: a staged row has a null in its ${keyText}: ${describe(bad[0])}`);
  throw new StagedKeyError(`${spec.name}: ${keyText} is not unique in this run: ${describe(bad[0])} is staged ${Number(bad[0].copies)} times`);
}
