import { z } from 'zod';

/**
 * Column types of lake tables. `JSON` is stored as VARCHAR holding JSON text (lists of owners, addresses…):
 * plain Parquet strings stay readable from any SQL client, and DuckDB's `->>` operators query them.
 */
export type ColType = 'VARCHAR' | 'BIGINT' | 'INTEGER' | 'DOUBLE' | 'BOOLEAN' | 'DATE' | 'TIMESTAMP' | 'JSON';

export interface ColumnSpec {
  type: ColType;
  /** Default true. A non-null column rejects the row (counted as a bad row) when the value is missing. */
  nullable?: boolean;
  description?: string;
}

export type WriteMode =
  /** A run replaces every partition it writes, wholesale (snapshots, quarterly data sets). */
  | 'replace'
  /** A run merges its rows into the partitions it touches; rows with the same primary key are replaced. */
  | 'merge';

export interface TableSpec {
  /** Lake folder and SQL view name, snake_case. */
  name: string;
  description: string;
  columns: Record<string, ColumnSpec>;
  /** Column whose value names the Hive partition (`<name>=<value>`); must be in `columns`, non-null. */
  partitionBy: string;
  /**
   * Sort order inside each partition file. Choose the columns of the selective filters and of the page
   * order: row-group min/max statistics then prune almost everything (docs/engine-notes.md §1).
   */
  sortBy: string[];
  /** Unique per row within the table; the merge key and the keyset tie-breaker. */
  primaryKey: string[];
  writeMode?: WriteMode;
  /**
   * Parquet row-group size (default 122,880). Wide tables paged by a selective filter read less with smaller
   * groups: a page decompresses every column of each matching group.
   */
  rowGroupSize?: number;
}

export function defineTable(spec: TableSpec): TableSpec {
  if (!spec.columns[spec.partitionBy]) throw new Error(`table ${spec.name}: partition column ${spec.partitionBy} not in columns`);
  for (const c of [...spec.sortBy, ...spec.primaryKey]) {
    if (!spec.columns[c]) throw new Error(`table ${spec.name}: key column ${c} not in columns`);
  }
  return spec;
}

/** Columns the framework adds to every table. */
export const FRAMEWORK_COLUMNS: Record<string, ColumnSpec> = {
  parser_version: { type: 'INTEGER', nullable: false, description: 'Version of the parser that produced the row.' },
};

export function allColumns(spec: TableSpec): Record<string, ColumnSpec> {
  return { ...spec.columns, ...FRAMEWORK_COLUMNS };
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

function zodFor(col: ColumnSpec): z.ZodType {
  let t: z.ZodType;
  switch (col.type) {
    case 'VARCHAR': t = z.string(); break;
    case 'JSON': t = z.any(); break;
    case 'BIGINT': t = z.number().int().or(z.bigint()); break;
    case 'INTEGER': t = z.number().int(); break;
    case 'DOUBLE': t = z.number(); break;
    case 'BOOLEAN': t = z.boolean(); break;
    case 'DATE': t = z.string().regex(ISO_DATE, 'expected YYYY-MM-DD'); break;
    case 'TIMESTAMP': t = z.string().regex(/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/, 'expected an ISO timestamp'); break;
  }
  return col.nullable === false ? t : t.nullable().optional();
}

/** The row validator of a table, generated from its column list (one source of truth). */
export function rowSchema(spec: TableSpec): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, col] of Object.entries(spec.columns)) shape[name] = zodFor(col);
  return z.object(shape);
}

/** DuckDB column definitions, e.g. for an empty view or a staging table. */
export function ddlColumns(spec: TableSpec): string {
  return Object.entries(allColumns(spec))
    .map(([name, col]) => `"${name}" ${col.type === 'JSON' ? 'VARCHAR' : col.type}`)
    .join(', ');
}
