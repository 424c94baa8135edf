import { dirname } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { sqlIdent } from './duck.ts';
import { isAppendFile, newestAppended, tableDir } from './layout.ts';
import type { TableListing } from './listing.ts';
import type { AttachedCopy } from './preload.ts';
import { type AttachedLookup, attachServing, type LookupCache, servingIdentity } from './serving.ts';
import { allColumns, type TableSpec } from '../../schemas/table.ts';

/**
 * A partition read from its serving copy: the alias it is attached under, the order its rows are stored in, and the
 * lookup its rows leave out (null: they hold every column).
 */
export interface ServedCopy {
  alias: string;
  orderedBy: readonly string[];
  lookup: AttachedLookup | null;
  /** The copy holds its keys' top rows (a table with a key summary). */
  top: boolean;
  /** The fingerprint of the data file the copy was built from (summary.ts `fileFingerprint`), as its meta records. */
  fingerprint: string;
  /**
   * Beside the copy's data file, live append files: the in-memory table holding each key's newest row of them (null:
   * none). The partition then reads the copy merged with it (ingest/lake/layout.ts `withAppends`), in no stored order
   * and outside the top index, until the fold.
   */
  appended: string | null;
}

/** What a refresh retires, one refresh later: attached aliases to detach, in-memory tables to drop. */
export interface Superseded {
  aliases: string[];
  tables: string[];
}

/**
 * The serving copies a reader has attached (ingest/lake/serving.ts), per partition folder, and the in-memory tables of
 * their partitions' live append files' newest rows.
 */
export interface ServedCopies {
  /**
   * The copies of a listing's partitions, attaching those not attached yet (`fps`: each partition's base data
   * fingerprint). What this table's folders no longer hold goes to `superseded`; each copy attached now to `fresh`.
   */
  of(
    spec: TableSpec,
    listing: TableListing,
    fps: ReadonlyMap<string, string | null>,
    superseded: Superseded,
    fresh: AttachedCopy[],
  ): Promise<ReadonlyMap<string, ServedCopy>>;
}

/**
 * An alias is a fresh name per attached file, never reused, so a query planned over one always reads the file it was
 * planned on. Superseded aliases and tables are the caller's to detach and drop one refresh later: a page may hold a
 * relation naming one between two queries (a running query keeps its file open through DETACH).
 */
export function createServedCopies(conn: DuckDBConnection, lakeDir: string): ServedCopies {
  const attached = new Map<string, Omit<ServedCopy, 'appended'> & { key: string }>();
  let attachCount = 0;
  // Per partition folder with a served copy and live append files, the table of the appends' newest rows: built once
  // per set of append files (a few thousand rows a poll), read by every page of the partition.
  const appendedTables = new Map<string, { key: string; table: string }>();
  let appendedCount = 0;
  // The lookups read so far, by content: a quarter's two copies (one per sort order) share one.
  const lookups: LookupCache = new Map();

  /** Sends the appended-rows table of a partition folder (if any) to be dropped one refresh later. */
  function retireAppended(dir: string, superseded: string[]): void {
    const prior = appendedTables.get(dir);
    if (!prior) return;
    superseded.push(prior.table);
    appendedTables.delete(dir);
  }

  /**
   * The table of the newest rows of a served partition's live append files (null: it has none), built when its
   * append files changed; undefined when it cannot be built (an append file folded away meanwhile): the partition
   * is then read from Parquet until the next refresh.
   */
  async function appendedOf(spec: TableSpec, dir: string, alias: string, files: readonly string[], superseded: string[]): Promise<string | null | undefined> {
    const appended = files.filter(isAppendFile);
    const key = JSON.stringify([alias, appended]);
    const prior = appendedTables.get(dir);
    if (prior?.key === key) return prior.table;
    retireAppended(dir, superseded);
    if (!appended.length) return null;
    const table = `appended_${++appendedCount}`;
    try {
      await conn.run(`CREATE TABLE ${sqlIdent(table)} AS ${newestAppended(spec, appended, false)}`);
    } catch {
      return undefined;
    }
    appendedTables.set(dir, { key, table });
    return table;
  }

  return {
    async of(spec, listing, fps, superseded, fresh) {
      const out = new Map<string, ServedCopy>();
      const dirs = new Set<string>();
      const names = Object.keys(allColumns(spec));
      for (const [value, files] of listing.byPartition) {
        const dir = dirname(files[0]);
        dirs.add(dir);
        const id = await servingIdentity(dir, fps.get(value) ?? null);
        const prior = attached.get(dir);
        if (prior && prior.key === id?.key) {
          const appended = await appendedOf(spec, dir, prior.alias, files, superseded.tables);
          if (appended !== undefined) out.set(value, { ...prior, appended });
          continue;
        }
        if (prior) {
          superseded.aliases.push(prior.alias);
          attached.delete(dir);
        }
        if (!id) {
          retireAppended(dir, superseded.tables);
          continue;
        }
        const alias = `serving_${++attachCount}`;
        const copy = await attachServing(conn, alias, id.path, id.fingerprint, names, lookups);
        if (!copy) {
          retireAppended(dir, superseded.tables);
          continue;
        }
        const entry = { key: id.key, alias, orderedBy: copy.orderedBy, lookup: copy.lookup, top: copy.top, fingerprint: id.fingerprint };
        attached.set(dir, entry);
        fresh.push({ alias, table: spec.name, partition: value, bytes: id.bytes });
        const appended = await appendedOf(spec, dir, alias, files, superseded.tables);
        if (appended !== undefined) out.set(value, { ...entry, appended });
      }
      const own = `${tableDir(lakeDir, spec.name)}/`;
      for (const [dir, a] of attached) {
        if (dir.startsWith(own) && !dirs.has(dir)) {
          superseded.aliases.push(a.alias);
          attached.delete(dir);
        }
      }
      for (const dir of [...appendedTables.keys()]) {
        if (dir.startsWith(own) && !dirs.has(dir)) retireAppended(dir, superseded.tables);
      }
      return out;
    },
  };
}
