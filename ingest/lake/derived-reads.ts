import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';

/**
 * What a file derived from a partition's data file (a key summary, a key index, a serving copy) was read or attached
 * as: the data file's fingerprint (summary.ts `fileFingerprint`) and the file's own identity (a commit renames a new
 * file in: a new inode).
 */
export function derivedStamp(fp: string, s: Stats): string {
  return `${fp}|${s.ino}:${s.size}:${s.mtimeMs}`;
}

/**
 * Reads of files derived from a partition's data file, each read again only when it or the data file changed since
 * it was last read (a stat otherwise): a reader looks at every partition of a table at each listing, and the live lane
 * lists tables again after every batch.
 */
export interface DerivedReads<T> {
  /** What `read` made of the file at `path`, read now or before from the same files; null when the file is absent. */
  get(path: string, fp: string, read: () => Promise<T>): Promise<T | null>;
  /** Forgets the files under folder `dir` other than `keep` (partitions gone from a listing). */
  forget(dir: string, keep: ReadonlySet<string>): void;
}

export function derivedReads<T>(): DerivedReads<T> {
  const seen = new Map<string, { stamp: string; value: T }>();
  return {
    async get(path, fp, read) {
      let stamp: string;
      try {
        stamp = derivedStamp(fp, await stat(path));
      } catch {
        seen.delete(path);
        return null;
      }
      const prior = seen.get(path);
      if (prior?.stamp === stamp) return prior.value;
      const value = await read();
      seen.set(path, { stamp, value });
      return value;
    },
    forget(dir, keep) {
      for (const path of seen.keys()) if (path.startsWith(dir) && !keep.has(path)) seen.delete(path);
    },
  };
}
