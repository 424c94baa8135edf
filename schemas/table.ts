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

/** A table's columns by name. Tables keep the literal map (see defineTable), which is what RowOf reads. */
export type ColumnMap = Record<string, ColumnSpec>;

export type WriteMode =
  /** A run replaces every partition it writes, wholesale (snapshots, quarterly data sets). */
  | 'replace'
  /** A run merges its rows into the partitions it touches; rows with the same primary key are replaced. */
  | 'merge';

/**
 * One lake table. Generic over its column map so the row type can be derived (`RowOf`); plain `TableSpec` (any
 * columns) is what storage and the API take. The key lists are typed `string` here so that every table stays
 * assignable to `TableSpec` (`keyof C` would make the type invariant); defineTable checks them against the columns.
 */
export interface TableSpec<C extends ColumnMap = ColumnMap> {
  /** Lake folder and SQL view name, snake_case. */
  name: string;
  description: string;
  columns: C;
  /** Column whose value names the Hive partition (`<name>=<value>`); must be in `columns`, non-null. */
  partitionBy: string;
  /**
   * Sort order inside each partition file. Choose the columns of the selective filters and of the page
   * order: row-group min/max statistics then prune almost everything (docs/engine-notes.md §1).
   */
  sortBy: string[];
  /** Unique per row within a partition; the merge key and the keyset tie-breaker. */
  primaryKey: string[];
  writeMode?: WriteMode;
  /**
   * Parquet row-group size (default `DEFAULT_ROW_GROUP_SIZE`). Wide tables paged by a selective filter read less with
   * smaller groups: a page decompresses every column of each matching group (docs/layouts.md, "Row groups").
   */
  rowGroupSize?: number;
  /**
   * Pages of this table let DuckDB sort on the order columns first and read the page's other columns for its rows
   * only (late materialization, off for every other table: on big row groups it reads a selective page's groups
   * twice). For wide rows in small row groups: an unfiltered page sorts a quarter's keys, not its rows (docs/layouts.md,
   * "Late materialization").
   */
  lateMaterialization?: boolean;
  /**
   * Name of a table of the same dataset holding the same rows (same columns and key) in another sort order: the
   * run stages the rows once, in that table, and writes this one from its staging (no second staged copy, no second
   * key check). List it after that table in the dataset's tables.
   */
  copyOf?: string;
  /**
   * VARCHAR columns holding few distinct values per partition (a filing's text repeated on each of its lines). The
   * writer sorts them as ENUM codes built from the staged values (or from the values a loader declares for them:
   * `LoadContext.codeValues`) and writes the same strings (same Parquet type): the sort then moves 4 bytes instead of
   * the text (docs/engine-notes.md §4). The codes follow the values' order, so a column of `sortBy` may be one: the
   * sort then compares codes, and the rows come out as its text orders them.
   */
  sortAsCodes?: string[];
  /**
   * A per-partition key summary written beside each partition file by the same commit (ingest/lake/summary.ts): per
   * value of `key`, its row count and the largest `max`. Page reads skip partitions that cannot match an equality on
   * `key` or a minimum on `max`, and answer a key in no partition without opening a file (docs/read-path.md).
   */
  summary?: { key: string; max: string };
  /**
   * Per-partition key indexes written beside each partition file by the same commit (ingest/lake/key-index.ts), one
   * file per entry. A page filtering on one of their keys (an equality bound) reads that index of the partitions it
   * walks first: it skips those without the key and adds the first sort column's values on the key's rows as an `IN`
   * filter, which the file's row-group statistics prune, where the filter alone scans every row of the column
   * (docs/layouts.md).
   */
  keyIndexes?: readonly KeyIndexSpec[];
  /**
   * Columns of which each appended data file gets a Bloom filter beside it (ingest/lake/key-filter.ts). A page whose
   * filters bind one of them skips, without opening them, the partitions whose files all lack the value: for tables of
   * many small partitions (the events' days), where opening each file is the cost (docs/read-path.md).
   */
  keyFilters?: readonly string[];
  /**
   * A serving copy beside each partition file (ingest/lake/serving.ts): the same rows, columns and order in a native
   * DuckDB database file, renamed in by the same commit. Pages read it instead of the Parquet file when it describes
   * the file there now (docs/read-path.md). The Parquet file stays the lake's interface and source of truth.
   */
  serving?: boolean;
  /**
   * Columns that hold one value per `key` (a filing's text, repeated on each of its lines). A serving copy stores them
   * once per key in a table of their own instead of on every row, and a page fills them in after its top-N: the copy
   * of a 1M-line 13F quarter is written in 1.5 s of CPU instead of 2.6 s, and a page costs a fifth less
   * (docs/read-path.md). Never a column a page filters or orders by; the Parquet file keeps every column on every row.
   */
  servingLookup?: { key: string; columns: readonly string[] };
  /**
   * The order a list pages this table in within a partition (after its newest-first partition column), which
   * completes to a total order: the API's reader keeps the first rows of the newest partitions in that order in memory
   * (ingest/lake/heads.ts), and a page they fill reads them instead of the partition's file, whose top-N decodes the
   * whole quarter (a first page of the filing index: 2–5 ms of CPU against 100–130 ms; docs/layouts.md, "Heads").
   */
  head?: { order: readonly OrderColumn[] };
}

/** A column of an order: a list's page order (api/core/endpoint.ts), a head's (`TableSpec.head`). */
export interface OrderColumn<C extends string = string> {
  column: C;
  dir: 'asc' | 'desc';
}

/** A JSON column takes JSON text or any value that serialises to it (the stager stringifies non-strings). */
export type JsonValue = string | number | boolean | object;

/** What a row holds for a column of type `T`. */
export type ValueOf<T extends ColType> = T extends 'VARCHAR' | 'DATE' | 'TIMESTAMP'
  ? string
  : T extends 'JSON'
    ? JsonValue
    : T extends 'BIGINT'
      ? number | bigint
      : T extends 'INTEGER' | 'DOUBLE'
        ? number
        : T extends 'BOOLEAN'
          ? boolean
          : never;

type RequiredKeys<C extends ColumnMap> = { [K in keyof C]: C[K] extends { nullable: false } ? K : never }[keyof C];
type OptionalKeys<C extends ColumnMap> = Exclude<keyof C, RequiredKeys<C>>;

/** The row of a column map: non-null columns required, the others optional and nullable. */
export type RowOfColumns<C extends ColumnMap> = { -readonly [K in RequiredKeys<C>]: ValueOf<C[K]['type']> } & {
  -readonly [K in OptionalKeys<C>]?: ValueOf<C[K]['type']> | null;
};

/**
 * The row type of a table, inferred from its columns: `RowOf<typeof holdings13f>`. The intersection is flattened
 * so editor hovers and error messages show plain column names.
 */
export type RowOf<T extends { columns: ColumnMap }> = { [K in keyof RowOfColumns<T['columns']>]: RowOfColumns<T['columns']>[K] };

/** The key lists of a table, each name checked against its columns at compile time. */
export interface TableKeys<C extends ColumnMap> {
  partitionBy: keyof C & string;
  sortBy: (keyof C & string)[];
  primaryKey: (keyof C & string)[];
}

/**
 * Defines a table. `const C` keeps the literal column map (types and `nullable: false` as written), so RowOf is
 * exact and a key column missing from the columns is a compile error as well as a start-up error.
 */
/** Rows per Parquet row group when a table does not choose (DuckDB's own default). */
export const DEFAULT_ROW_GROUP_SIZE = 122_880;

export function defineTable<const C extends ColumnMap>(spec: TableSpec<C> & TableKeys<C>): TableSpec<C> & TableKeys<C> {
  if (!spec.columns[spec.partitionBy]) throw new Error(`table ${spec.name}: partition column ${spec.partitionBy} not in columns`);
  // The writer names a folder after each value; a row with no value would have no partition to go to.
  if (spec.columns[spec.partitionBy].nullable !== false) throw new Error(`table ${spec.name}: partition column ${spec.partitionBy} must be nullable: false`);
  for (const c of [...spec.sortBy, ...spec.primaryKey]) {
    if (!spec.columns[c]) throw new Error(`table ${spec.name}: key column ${c} not in columns`);
  }
  for (const c of spec.summary ? [spec.summary.key, spec.summary.max] : []) {
    if (!spec.columns[c]) throw new Error(`table ${spec.name}: summary column ${c} not in columns`);
  }
  for (const [i, { key }] of (spec.keyIndexes ?? []).entries()) {
    if (!spec.columns[key] || !spec.sortBy.length || spec.keyIndexes!.findIndex((x) => x.key === key) !== i) {
      throw new Error(`table ${spec.name}: key index column ${key} not in columns, indexed twice, or no sort column to locate it by`);
    }
  }
  for (const c of spec.keyFilters ?? []) if (!spec.columns[c]) throw new Error(`table ${spec.name}: key filter column ${c} not in columns`);
  if (spec.servingLookup) checkServingLookup(spec);
  if (spec.head) checkHead(spec);
  return spec;
}

/**
 * A head's order holds no partition column (constant within a partition) and every primary key column: without them
 * rows could tie, and a page's keyset could not tell which tied rows the head holds.
 */
function checkHead(spec: TableSpec): void {
  const order = spec.head!.order.map((o) => o.column);
  for (const c of order)
    if (!spec.columns[c] || c === spec.partitionBy) throw new Error(`table ${spec.name}: head column ${c} not in columns, or the partition`);
  for (const c of spec.primaryKey) if (!order.includes(c)) throw new Error(`table ${spec.name}: head order lacks primary key column ${c}`);
}

/** A lookup column is one no page filters, orders or partitions by, so a page may leave it empty until its rows are chosen. */
function checkServingLookup(spec: TableSpec): void {
  const { key, columns } = spec.servingLookup!;
  const all = allColumns(spec);
  const keyed = new Set([spec.partitionBy, ...spec.sortBy, ...spec.primaryKey, ...(spec.summary ? [spec.summary.key, spec.summary.max] : [])]);
  if (!all[key]) throw new Error(`table ${spec.name}: serving lookup key ${key} not in columns`);
  for (const c of columns) {
    if (!all[c] || c === key) throw new Error(`table ${spec.name}: serving lookup column ${c} not in columns, or the key`);
    if (keyed.has(c)) throw new Error(`table ${spec.name}: serving lookup column ${c} is a partition, sort, key or summary column`);
  }
}

/** One key index of a table (`TableSpec.keyIndexes`): per value of `key`, the first sort column's values on its rows and their count. */
export interface KeyIndexSpec {
  key: string;
  /** The column holds comma-separated keys (an insider row's owners): each item is indexed. */
  list?: boolean;
  /** A coarse value each key spells out (an accession's year), which lets a page skip partitions without a lookup. */
  bucket?: KeyBucket;
}

/**
 * A coarse value a key carries in its own spelling, in SQL (over the key's SQL) and in JS, which must agree: the reader
 * keeps the set of them that each partition's index holds, and a page skips, without reading its index, a partition
 * whose set lacks its key's (an accession of 2021 is looked up in the quarters that hold any 2021 accession, whatever
 * their dates). `of` answers null for a key it cannot place: that page looks up every partition.
 */
export interface KeyBucket {
  sql: (key: string) => string;
  of: (key: string) => string | null;
}

/** Columns the framework adds to every table. */
const FRAMEWORK_COLUMNS: Record<string, ColumnSpec> = {
  parser_version: { type: 'INTEGER', nullable: false, description: 'Version of the parser that produced the row.' },
};

export function allColumns(spec: TableSpec): Record<string, ColumnSpec> {
  return { ...spec.columns, ...FRAMEWORK_COLUMNS };
}

/** DuckDB column definitions of a staging table: non-null columns carry NOT NULL, so SQL-path loads are held to them too. */
export function ddlColumns(spec: TableSpec): string {
  return Object.entries(allColumns(spec))
    .map(([name, col]) => `"${name}" ${col.type === 'JSON' ? 'VARCHAR' : col.type}${col.nullable === false ? ' NOT NULL' : ''}`)
    .join(', ');
}
