import { randomUUID } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { processAlive } from './process-alive.ts';

/**
 * The files of the top indexes (ingest/lake/top-index.ts) in one folder, shared by every reader on the host that uses
 * it (LAKE_TOP_INDEX_DIR; the system's temp folder by default). An index is named by what it is built from (`id`), so
 * the API processes serving the same lake build it once and attach the one file read-only:
 *
 * - `filings-top-<id>.duckdb`: the index, complete (it only ever appears by a rename);
 * - `filings-top-<id>.<owner>.use`: reader `<owner>` (`<pid>-<random>`, its content) uses it; the last user to let go
 *   removes it;
 * - `filings-top-<id>.lock`: a second name of the use mark of the owner building it; the others wait; a lock whose
 *   process died is taken over;
 * - `filings-top-<id>.<owner>.tmp`: the build in progress, renamed to the index when complete.
 *
 * No step needs two files to change together: a reader marks its use before it looks for the index, and a reader that
 * finds the index gone after all (removed by its last other user at the same moment) builds it again. An index
 * attached when it is removed stays readable through the open file.
 */
export interface TopIndexFiles {
  /** This reader's name in the folder's files. */
  readonly owner: string;
  /** The index's path (it may not exist). */
  index(id: string): string;
  /** The path a build by this reader writes before renaming it to `index(id)`. */
  scratch(id: string): string;
  /** Marks this reader as a user of index `id`. */
  use(id: string): void;
  /** Unmarks this reader; the index goes when no other living user remains. */
  release(id: string): void;
  /**
   * Takes the build lock of index `id` (after `use(id)`): `taken` (build it, then `unlock`), or `held` by a living
   * owner (wait for the index). The lock of an owner that died is taken over.
   */
  lock(id: string): 'taken' | 'held';
  /** Gives up the build lock of index `id` (taken by this reader), with its scratch file. */
  unlock(id: string): void;
  /** Moves a complete build into place. */
  publish(id: string): void;
}

const PREFIX = 'filings-top-';
/** `<id>.duckdb`, `<id>.<owner>.use`, `<id>.<owner>.tmp` (and its `.wal`), `<id>.lock`. */
const NAME = /^filings-top-([0-9a-f]+)\.(?:(duckdb)|(\d+)-[0-9a-f]+\.(use|tmp|tmp\.wal)|(lock))$/;
/** The per-process scratch files of the code before the sharing: `<pid>-<random>.duckdb`. */
const OLD_NAME = /^filings-top-(\d+)-[0-9a-f]{8}\.duckdb(\.wal)?$/;

function ownerAlive(owner: string): boolean {
  const pid = Number(owner.split('-')[0]);
  return Number.isInteger(pid) && pid > 0 && processAlive(pid);
}

/**
 * Removes a file unless it is gone, and leaves it when it cannot (a file of another user in a shared temp folder): a
 * file left over costs disk, never a reader its index. Whether it is gone.
 */
function remove(path: string): boolean {
  try {
    rmSync(path, { force: true });
    return true;
  } catch {
    return false;
  }
}

function readOwner(path: string): string | null {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return null;
  }
}

/**
 * The folder's files of this reader. Opening removes what dead readers left (their marks, locks and scratch files)
 * and every index no living reader uses.
 */
export function openTopIndexFiles(dir: string): TopIndexFiles {
  mkdirSync(dir, { recursive: true });
  const owner = `${process.pid}-${randomUUID().slice(0, 8)}`;
  const base = (id: string) => join(dir, `${PREFIX}${id}`);
  const lockPath = (id: string) => `${base(id)}.lock`;
  const mark = (id: string) => `${base(id)}.${owner}.use`;

  /** The owners marking index `id` as used. */
  function users(id: string): string[] {
    const prefix = `${PREFIX}${id}.`;
    return readdirSync(dir)
      .filter((n) => n.startsWith(prefix) && n.endsWith('.use'))
      .map((n) => n.slice(prefix.length, -'.use'.length));
  }

  function sweep(): void {
    const names = readdirSync(dir);
    const ids = new Set<string>();
    for (const name of names) {
      const old = OLD_NAME.exec(name);
      if (old) {
        if (!processAlive(Number(old[1]))) remove(join(dir, name));
        continue;
      }
      const m = NAME.exec(name);
      if (!m) continue;
      ids.add(m[1]);
      if (m[3] && !processAlive(Number(m[3]))) remove(join(dir, name));
      if (m[5]) {
        const holder = readOwner(join(dir, name));
        if (holder !== null && !ownerAlive(holder)) remove(join(dir, name));
      }
    }
    for (const id of ids) {
      if (!users(id).length && !existsSync(lockPath(id))) remove(`${base(id)}.duckdb`);
    }
  }
  sweep();

  return {
    owner,
    index: (id) => `${base(id)}.duckdb`,
    scratch: (id) => `${base(id)}.${owner}.tmp`,
    use(id) {
      writeFileSync(mark(id), owner);
    },
    release(id) {
      remove(mark(id));
      if (!users(id).some(ownerAlive)) remove(`${base(id)}.duckdb`);
    },
    lock(id) {
      for (;;) {
        // The lock is a second name of this reader's use mark, which holds its name: it appears with its content.
        try {
          linkSync(mark(id), lockPath(id));
          return 'taken';
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        }
        const holder = readOwner(lockPath(id));
        // Gone meanwhile: try again.
        if (holder === null) continue;
        if (ownerAlive(holder)) return 'held';
        // Two readers taking over the same dead lock may both build: the same file, renamed twice, no harm. A dead lock
        // this reader may not remove (another user's) stays held: its pages read the copies, as before any build.
        if (!remove(lockPath(id))) return 'held';
      }
    },
    unlock(id) {
      remove(`${base(id)}.${owner}.tmp`);
      remove(`${base(id)}.${owner}.tmp.wal`);
      if (readOwner(lockPath(id)) === owner) remove(lockPath(id));
    },
    publish(id) {
      renameSync(`${base(id)}.${owner}.tmp`, `${base(id)}.duckdb`);
    },
  };
}
