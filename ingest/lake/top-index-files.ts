import { randomUUID } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { processAlive } from './process-alive.ts';

/**
 * The files of the top indexes (ingest/lake/top-index.ts) in one folder, shared by every reader on the host that uses
 * it (LAKE_TOP_INDEX_DIR; the system's temp folder by default). An index is named by what it is built from (`id`: its
 * scope, the lake's table, in its first `SCOPE_LENGTH` characters, then its data), so the API processes serving the
 * same lake build it once and attach the one file read-only:
 *
 * - `filings-top-<id>.duckdb`: the index, complete (it only ever appears by a rename);
 * - `filings-top-<id>.<owner>.use`: reader `<owner>` (`<pid>-<random>`, its content) uses it;
 * - `filings-top-<id>.lock`: a second name of the use mark of the owner building it; the others wait; a lock whose
 *   process died is taken over;
 * - `filings-top-<id>.<owner>.tmp`: the build in progress, renamed to the index when complete;
 * - `filings-top-<scope>.lake`: the lake folder the scope's indexes are built from.
 *
 * The last user to let go of an index removes it when the lake has moved on (a build replaced it), and keeps it when
 * it lets go because it closes, so a server restarted alone attaches it instead of building it again. A kept index
 * goes when a reader attaches another of its scope (the data changed meanwhile), or at any reader's opening once its
 * lake folder is gone.
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
  /** Marks this reader as a user of index `id`, built from the lake folder `lake`. */
  use(id: string, lake: string): void;
  /**
   * Unmarks this reader. When no other living user remains, the index goes, unless `keep` (the reader closes) and its
   * lake folder is still there.
   */
  release(id: string, keep?: boolean): void;
  /** Removes the indexes of `id`'s scope other than `id` that no living reader uses or builds: older data. */
  prune(id: string): void;
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
/** How many of an id's first characters name its scope (ingest/lake/top-index.ts makes them so). */
export const SCOPE_LENGTH = 16;
/** `<id>.duckdb`, `<id>.<owner>.use`, `<id>.<owner>.tmp` (and its `.wal`), `<id>.lock`; `<scope>.lake`. */
const NAME = /^filings-top-([0-9a-f]+)\.(?:(duckdb)|(\d+)-[0-9a-f]+\.(use|tmp|tmp\.wal)|(lock)|(lake))$/;
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

/** A small file's content, trimmed; null when it cannot be read. */
function readOwner(path: string): string | null {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return null;
  }
}

/**
 * The folder's files of this reader. Opening removes what dead readers left (their marks, locks and scratch files)
 * and every index no living reader uses whose lake folder is gone.
 */
export function openTopIndexFiles(dir: string): TopIndexFiles {
  mkdirSync(dir, { recursive: true });
  const owner = `${process.pid}-${randomUUID().slice(0, 8)}`;
  const base = (id: string) => join(dir, `${PREFIX}${id}`);
  const lockPath = (id: string) => `${base(id)}.lock`;
  const mark = (id: string) => `${base(id)}.${owner}.use`;
  const lakeNote = (id: string) => `${base(id.slice(0, SCOPE_LENGTH))}.lake`;

  /** Whether index `id`'s lake folder is still there (as its scope's note names it). */
  function lakeExists(id: string): boolean {
    const lake = readOwner(lakeNote(id));
    return lake !== null && lake !== '' && existsSync(lake);
  }

  /** Whether index `id` is free to remove: no living user marks it, nobody builds it. */
  const unused = (id: string) => !users(id).some(ownerAlive) && !existsSync(lockPath(id));

  /** The owners marking index `id` as used, among `names` (the folder's files; listed now when not given). */
  function users(id: string, names: readonly string[] = readdirSync(dir)): string[] {
    const prefix = `${PREFIX}${id}.`;
    return names.filter((n) => n.startsWith(prefix) && n.endsWith('.use')).map((n) => n.slice(prefix.length, -'.use'.length));
  }

  function sweep(): void {
    const names = readdirSync(dir);
    const ids = new Set<string>();
    const scopes = new Set<string>();
    for (const name of names) {
      const old = OLD_NAME.exec(name);
      if (old) {
        if (!processAlive(Number(old[1]))) remove(join(dir, name));
        continue;
      }
      const m = NAME.exec(name);
      if (!m) continue;
      if (m[6]) scopes.add(m[1]);
      else ids.add(m[1]);
      if (m[3] && !processAlive(Number(m[3]))) remove(join(dir, name));
      if (m[5]) {
        const holder = readOwner(join(dir, name));
        if (holder !== null && !ownerAlive(holder)) remove(join(dir, name));
      }
    }
    // One listing for all: the folder is the system's temp folder by default, thousands of other files.
    const left = readdirSync(dir);
    for (const id of ids) {
      if (!users(id, left).length && !existsSync(lockPath(id)) && !lakeExists(id)) remove(`${base(id)}.duckdb`);
    }
    for (const scope of scopes) dropNote(scope);
  }

  /** Removes a scope's lake note once none of its indexes' files is left. */
  function dropNote(scope: string): void {
    const note = `${PREFIX}${scope}.lake`;
    if (!readdirSync(dir).some((n) => n !== note && n.startsWith(`${PREFIX}${scope}`))) remove(join(dir, note));
  }
  sweep();

  return {
    owner,
    index: (id) => `${base(id)}.duckdb`,
    scratch: (id) => `${base(id)}.${owner}.tmp`,
    use(id, lake) {
      // The mark first: a reader letting go of the scope's last other index then leaves the note in place. (Should it
      // remove the note all the same, between this reader's look and its mark, the index is only not kept at close.)
      writeFileSync(mark(id), owner);
      const note = lakeNote(id);
      if (readOwner(note) !== lake) {
        // By a rename: a sweep reading it meanwhile sees the whole path or none.
        const scratch = `${base(id.slice(0, SCOPE_LENGTH))}.${owner}.tmp`;
        writeFileSync(scratch, lake);
        renameSync(scratch, note);
      }
    },
    release(id, keep = false) {
      remove(mark(id));
      if (!users(id).some(ownerAlive) && !(keep && lakeExists(id))) remove(`${base(id)}.duckdb`);
      dropNote(id.slice(0, SCOPE_LENGTH));
    },
    prune(id) {
      const scope = `${PREFIX}${id.slice(0, SCOPE_LENGTH)}`;
      for (const name of readdirSync(dir)) {
        const m = NAME.exec(name);
        if (m?.[2] && name.startsWith(scope) && m[1] !== id && unused(m[1])) remove(join(dir, name));
      }
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
