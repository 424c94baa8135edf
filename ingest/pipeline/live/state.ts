import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { FeedFiling } from '../../sources/edgar/bulk/current-feed.ts';

/**
 * The live lane's durable high-water mark, one small JSON file (`DATA_DIR/live/state.json`) written under a temp
 * name and renamed, so a crash leaves the old state or the new one. A filing enters `pending` (and the file)
 * before it is fetched and leaves it only once its rows are in the lake: a restart at any point loses nothing,
 * and retrying is safe because the lake merges by primary key and events are deduplicated by `dedup_key`.
 */
export interface PendingFiling extends FeedFiling {
  attempts: number;
  last_error: string | null;
}

export interface LiveState {
  version: 1;
  /** Feed `<updated>` (UTC) of the newest filing ingested; paging stops at entries older than it. */
  newest_ingested: string | null;
  /** Accessions ingested, newest last, capped (SEEN_CAP): paging also stops at the first one met. */
  seen: string[];
  pending: PendingFiling[];
}

/** The feed holds about a day of filings at the real rate; a day is ~6,000 accessions. */
const SEEN_CAP = 20_000;

export function emptyState(): LiveState {
  return { version: 1, newest_ingested: null, seen: [], pending: [] };
}

export async function readLiveState(path: string): Promise<LiveState | null> {
  if (!existsSync(path)) return null;
  const s = JSON.parse(await readFile(path, 'utf8')) as LiveState;
  return { ...emptyState(), ...s };
}

export async function writeLiveState(path: string, s: LiveState): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}`;
  await writeFile(tmp, JSON.stringify({ ...s, seen: s.seen.slice(-SEEN_CAP) }));
  await rename(tmp, path);
}
