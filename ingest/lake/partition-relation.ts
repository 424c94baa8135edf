import { sqlIdent } from './duck.ts';
import type { HeadSource } from './heads.ts';
import { isAppendFile, selectOver, withAppends } from './layout.ts';
import type { TableListing } from './listing.ts';
import type { ServedCopy } from './served-copies.ts';
import { type AttachedLookup, servingRelation } from './serving.ts';
import { allColumns, type ColumnSpec, type TableSpec } from '../../schemas/table.ts';

/** Every table's listing as of one refresh: replaced whole, never edited, so a reader of it sees one moment. */
export type LakeListing = ReadonlyMap<string, TableListing>;

/**
 * A FROM item over some partitions of a table (`LakeReader.relation`). `complete` fills in, on rows it returned, the
 * columns a serving copy keeps in its lookup (TableSpec.servingLookup): the relation gives them as NULL, so a page
 * runs its top-N over the narrow rows and completes only the rows it keeps. Rows read from Parquet are left alone.
 */
export interface PartitionRelation {
  sql: string;
  complete(rows: Record<string, unknown>[]): Record<string, unknown>[];
}

/** What a partition read is over: a listing, the serving copies of its tables and the tables whose files share columns. */
export interface ReadState {
  listing: LakeListing;
  served: ReadonlyMap<string, ReadonlyMap<string, ServedCopy>>;
  uniform: ReadonlySet<string>;
}

/** The table's relation over the files of `partitions` only, as `state` reads them (`LakeReader.relation`). */
export function relationOver(spec: TableSpec, partitions: readonly string[], state: ReadState): PartitionRelation {
  const parts = state.listing.get(spec.name)?.byPartition;
  const aliases = state.served.get(spec.name);
  const uniform = state.uniform.has(spec.name);
  const files = partitions.filter((v) => !aliases?.has(v)).flatMap((v) => parts?.get(v) ?? []);
  const copies = partitions.flatMap((v) => aliases?.get(v) ?? []);
  if (!copies.length) return { sql: `(${selectOver(spec, files, uniform)})`, complete: (rows) => rows };
  // The same column list in the same order on both kinds of read: UNION ALL matches columns by position.
  const columns = allColumns(spec);
  const cols = Object.keys(columns).map(sqlIdent).join(', ');
  const selects = copies.flatMap((c) => {
    const base = { from: servingRelation(c.alias), columns: copyColumns(columns, c.lookup) };
    return c.appended ? withAppends(spec, base, sqlIdent(c.appended)) : [`SELECT ${base.columns} FROM ${base.from}`];
  });
  if (files.length) selects.push(`SELECT ${cols} FROM (${selectOver(spec, files, uniform)})`);
  return { sql: `(${selects.join(' UNION ALL ')})`, complete: completer(spec, aliases, partitions) };
}

/**
 * How `state` reads one partition (heads.ts): its files, its serving copy when it has one, and its live append files
 * apart (a copy's table of their newest rows is made from them alone).
 */
export function headSource(state: ReadState, table: string, partition: string): HeadSource {
  const files = state.listing.get(table)?.byPartition.get(partition) ?? [];
  const alias = state.served.get(table)?.get(partition)?.alias ?? null;
  return { base: JSON.stringify([files.filter((f) => !isAppendFile(f)), alias]), appends: files.filter(isAppendFile).sort() };
}

/** A copy's select list: every column of the table in order, those its lookup holds as typed NULLs. */
export function copyColumns(columns: Record<string, ColumnSpec>, lookup: AttachedLookup | null): string {
  const lifted = new Set(lookup?.columns ?? []);
  return Object.entries(columns)
    .map(([c, s]) => (lifted.has(c) ? `NULL::${s.type} AS ${sqlIdent(c)}` : sqlIdent(c)))
    .join(', ');
}

/**
 * What fills in the lookup columns of rows read from these partitions' copies (by the row's partition value). The
 * lookups are taken now: a refresh between the query and its completion swaps `served`, not these.
 */
export function completer(spec: TableSpec, aliases: ReadonlyMap<string, ServedCopy> | undefined, partitions: readonly string[]): PartitionRelation['complete'] {
  const lookups = new Map<string, AttachedLookup>();
  for (const v of partitions) {
    const lookup = aliases?.get(v)?.lookup;
    if (lookup) lookups.set(v, lookup);
  }
  return (rows) => {
    if (!lookups.size) return rows;
    for (const row of rows) {
      const lookup = lookups.get(String(row[spec.partitionBy]));
      // A row of the copy holds every lookup column as NULL; a row of an append file beside it holds its own values.
      if (!lookup || lookup.columns.some((c) => row[c] != null)) continue;
      const values = lookup.values.get(String(row[lookup.key]));
      if (values) Object.assign(row, values);
    }
    return rows;
  };
}
