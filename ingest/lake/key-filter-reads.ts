import { tableDir } from './layout.ts';
import type { TableListing } from './listing.ts';
import { type FileKeyFilters, keyFiltersStampMtime, readKeyFilters } from './key-filter.ts';

/** A reader's key filters (ingest/lake/key-filter.ts), read once per file. */
export interface KeyFilterReads {
  /** Each partition's files' key filters (a table that declares some); null for a partition with a file without. */
  of(table: string, listing: TableListing): Promise<ReadonlyMap<string, readonly FileKeyFilters[] | null>>;
}

/**
 * Every file's filters read so far (files never change under their name), or null for a file seen without filters at
 * two listings: one is renamed in just after its file, so a first miss is looked for again, and a second means none is
 * coming (an older file, a crash between the renames), not looked for at every listing after (3,650 failed reads).
 */
export function createKeyFilterReads(lakeDir: string): KeyFilterReads {
  const filtersRead = new Map<string, FileKeyFilters | null>();
  const missedOnce = new Set<string>();
  // Per table, the key filters' backfill stamp as last seen (`writeMissingKeyFilters`).
  const filtersStamp = new Map<string, number | null>();
  return {
    async of(table, listing) {
      const out = new Map<string, readonly FileKeyFilters[] | null>();
      // The filters of this table's files that are gone (a test's rewrite, an operator's clean-up) are forgotten.
      const listed = new Set(listing.files);
      const dir = `${tableDir(lakeDir, table)}/`;
      for (const f of filtersRead.keys()) if (f.startsWith(dir) && !listed.has(f)) filtersRead.delete(f);
      for (const f of missedOnce) if (f.startsWith(dir) && !listed.has(f)) missedOnce.delete(f);
      // A backfill wrote filters for files taken for filterless: those are read again, once.
      const stamp = await keyFiltersStampMtime(lakeDir, table);
      if (filtersStamp.has(table) && filtersStamp.get(table) !== stamp) {
        for (const [f, read] of filtersRead) if (read === null && f.startsWith(dir)) filtersRead.delete(f);
      }
      filtersStamp.set(table, stamp);
      for (const [value, files] of listing.byPartition) {
        const filters: FileKeyFilters[] = [];
        for (const f of files) {
          const read = filtersRead.has(f) ? filtersRead.get(f)! : await readKeyFilters(f);
          if (read || missedOnce.has(f)) {
            filtersRead.set(f, read);
            missedOnce.delete(f);
          } else missedOnce.add(f);
          if (!read) break;
          filters.push(read);
        }
        out.set(value, filters.length === files.length ? filters : null);
      }
      return out;
    },
  };
}
