import { join } from 'node:path';
import type { z } from 'zod';
import type { liveLaneRecord } from '../../../schemas/records/service.ts';
import type { Settings } from '../../../schemas/settings.ts';
import { type HttpClient, UpstreamError } from '../../sources/common/http.ts';
import {
  currentFeedUrl,
  decodeFeed,
  type FeedEntry,
  type FeedFiling,
  groupFeedFilings,
  parseCurrentFeed,
  submissionTxtUrl,
} from '../../sources/edgar/bulk/current-feed.ts';
import { indexHeadersUrl, parseIndexHeadersPage } from '../../sources/edgar/archive/index-headers.ts';
import { runIngest } from '../runner.ts';
import { type BatchResult, type FetchedFiling, ingestLiveBatch, type LiveStage } from './ingest-batch.ts';
import { datasetForForm, isEightK, LIVE_DATASETS } from './route.ts';
import { emptyState, type LiveState, readLiveState, writeLiveState } from './state.ts';

/** What /healthz and /v1/sources show of the lane (the record in schemas/ is its one definition). */
export type LiveHealth = z.infer<typeof liveLaneRecord>;

export interface LiveLaneOptions {
  settings: Settings;
  /** The process's one HTTP client: the lane shares its SEC_MAX_RPS budget with every other caller. */
  http: HttpClient;
  now?: () => Date;
  /** Timer, injectable so tests drive polls by hand. */
  setTimer?: (fn: () => void, ms: number) => { cancel(): void };
  run?: typeof runIngest;
  log?: (m: string) => void;
  /** Called after a batch reached the lake and its events were appended (the server kicks the monitor worker). */
  onBatch?: (r: BatchResult) => void | Promise<void>;
  /** Called inside a batch as stages complete (benches measure publish → lake with it). */
  onStage?: (stage: LiveStage, accessions: string[]) => void;
}

export interface LiveLane {
  /** One poll: page the feed down to known entries, fetch what is new or pending, ingest it as one batch. */
  pollOnce(): Promise<BatchResult | null>;
  start(): void;
  stop(): Promise<void>;
  health(): LiveHealth;
}

const MAX_FAILING_SHOWN = 20;

/**
 * The live lane: polls the latest-filings feed every LIVE_INTERVAL_MS, keeps paging (LIVE_PAGE_SIZE a page,
 * at most LIVE_MAX_PAGES) until it meets a filing it already has, records the new ones as pending before fetching
 * anything, downloads only what a per-filing parser needs, and ingests the batch (lake merge + diff stage).
 * A throttled or failed poll doubles the interval (up to LIVE_MAX_INTERVAL_MS) and shows `degraded`; a clean poll
 * restores it.
 */
export function createLiveLane(opts: LiveLaneOptions): LiveLane {
  const { settings, http } = opts;
  const now = opts.now ?? (() => new Date());
  const run = opts.run ?? runIngest;
  const log = opts.log ?? (() => {});
  const setTimer =
    opts.setTimer ??
    ((fn, ms) => {
      const t = setTimeout(fn, ms);
      t.unref?.();
      return { cancel: () => clearTimeout(t) };
    });
  const statePath = join(settings.dataDir, 'live', 'state.json');
  const base = settings.LIVE_INTERVAL_MS;
  let state: LiveState | null = null;
  let bootstrap = false;
  let timer: { cancel(): void } | null = null;
  let running: Promise<unknown> | null = null;
  let stopped = true;
  const h: LiveHealth = {
    enabled: settings.LIVE,
    status: settings.LIVE ? 'idle' : 'off',
    interval_ms: base,
    base_interval_ms: base,
    datasets: LIVE_DATASETS,
    last_poll_at: null,
    last_success_at: null,
    newest_feed_entry_at: null,
    newest_ingested_at: null,
    lag_seconds: 0,
    backlog: 0,
    failing: [],
    errors: 0,
    last_error: null,
    polls: 0,
    requests: 0,
    filings_ingested: 0,
    events_appended: 0,
  };

  async function loadState(): Promise<LiveState> {
    if (!state) {
      const read = await readLiveState(statePath);
      bootstrap = !read;
      state = read ?? emptyState();
    }
    return state;
  }

  /** Pages the feed newest first until a known filing (or one older than the mark) appears. */
  async function newEntries(s: LiveState): Promise<{ entries: FeedEntry[]; gap: boolean }> {
    const known = new Set([...s.seen, ...s.pending.map((p) => p.accession)]);
    const count = settings.LIVE_PAGE_SIZE;
    const out: FeedEntry[] = [];
    for (let page = 0; page < settings.LIVE_MAX_PAGES; page++) {
      h.requests++;
      const res = await http.get(currentFeedUrl(settings.SEC_BASE_URL, page * count, count), { whenPaused: 'fail', retries: 1 });
      const entries = parseCurrentFeed(decodeFeed(res.body));
      if (page === 0 && entries[0]) h.newest_feed_entry_at = entries[0].updated;
      let reachedKnown = false;
      for (const e of entries) {
        if (known.has(e.accession)) {
          reachedKnown = true;
          continue;
        }
        // An unknown filing older than the mark is still taken (a filing the feed listed late is not skipped);
        // it only ends the paging, for when the seen list no longer holds the filings around the mark.
        out.push(e);
        if (s.newest_ingested && e.updated < s.newest_ingested) reachedKnown = true;
      }
      // A first start takes the current page only; history is the daily and nightly lanes' job.
      if (reachedKnown || entries.length < count || bootstrap) return { entries: out, gap: false };
    }
    return { entries: out, gap: true };
  }

  async function fetchOne(f: FeedFiling): Promise<FetchedFiling> {
    if (isEightK(f.form)) {
      // The header page alone carries the items the 8-K events need (a few KB instead of the whole submission).
      h.requests++;
      const res = await http.get(indexHeadersUrl(settings.SEC_BASE_URL, f.parties[0].cik, f.accession), { whenPaused: 'fail', retries: 1 });
      return { filing: f, path: null, header: parseIndexHeadersPage(res.body.toString('latin1'), f.filedDate) };
    }
    if (!datasetForForm(f.form)) return { filing: f, path: null };
    h.requests++;
    const path = await http.download(submissionTxtUrl(settings.SEC_BASE_URL, f.parties[0].cik, f.accession), { whenPaused: 'fail', retries: 1 });
    return { filing: f, path };
  }

  function refreshHealth(s: LiveState) {
    h.backlog = s.pending.length;
    h.newest_ingested_at = s.newest_ingested;
    h.failing = s.pending
      .filter((p) => p.attempts > 0)
      .slice(0, MAX_FAILING_SHOWN)
      .map((p) => ({ accession: p.accession, form: p.form, attempts: p.attempts, last_error: p.last_error }));
    const feed = h.newest_feed_entry_at ? Date.parse(h.newest_feed_entry_at) : null;
    const lake = s.newest_ingested ? Date.parse(s.newest_ingested) : null;
    h.lag_seconds = feed != null && lake != null && (s.pending.length || feed > lake) ? Math.max(0, Math.round((feed - lake) / 1000)) : 0;
    if (feed != null && lake == null && s.pending.length) h.lag_seconds = Math.round((feed - Date.parse(s.pending[0].updated)) / 1000);
  }

  function fail(message: string, throttled: boolean) {
    h.errors++;
    h.last_error = message;
    // Backing off on any failure keeps the lane from hammering a host that is refusing it; throttling is the
    // regulator telling us to slow down, so the interval doubles up to LIVE_MAX_INTERVAL_MS.
    h.interval_ms = Math.min(settings.LIVE_MAX_INTERVAL_MS, h.interval_ms * 2);
    h.status = 'degraded';
    log(`live: ${throttled ? 'throttled' : 'failed'}: ${message}; next poll in ${Math.round(h.interval_ms / 1000)} s`);
  }

  async function poll(): Promise<BatchResult | null> {
    const s = await loadState();
    h.polls++;
    h.last_poll_at = now().toISOString();
    h.status = h.status === 'degraded' ? 'degraded' : 'polling';
    let troubled = false;
    let result: BatchResult | null = null;
    try {
      const { entries, gap } = await newEntries(s);
      bootstrap = false;
      if (gap) {
        // Reported, not a reason to slow down: polling less often would only widen the next gap.
        h.errors++;
        h.last_error = `more than ${settings.LIVE_MAX_PAGES} feed pages of new filings since the last poll: older ones are left to the daily lane`;
        log(`live: ${h.last_error}`);
      }
      // Oldest first, so a batch cut short by throttling keeps the feed's order.
      const fresh = groupFeedFilings(entries).reverse();
      if (fresh.length) {
        s.pending.push(...fresh.map((f) => ({ ...f, attempts: 0, last_error: null })));
        await writeLiveState(statePath, s);
      }
      const fetched: FetchedFiling[] = [];
      for (const p of s.pending.slice(0, settings.LIVE_MAX_BATCH)) {
        try {
          fetched.push(await fetchOne(p));
        } catch (err) {
          p.attempts++;
          p.last_error = (err as Error).message;
          troubled = true;
          const throttled = err instanceof UpstreamError && err.kind === 'throttled';
          if (throttled) {
            fail(p.last_error, true);
            break;
          }
        }
      }
      if (fetched.length) {
        try {
          result = await ingestLiveBatch(fetched, { settings, http, run, onStage: opts.onStage });
        } catch (err) {
          for (const f of fetched) {
            const p = s.pending.find((x) => x.accession === f.filing.accession)!;
            p.attempts++;
            p.last_error = `ingest: ${(err as Error).message}`;
          }
          throw err;
        }
        const done = new Set(fetched.map((f) => f.filing.accession));
        s.pending = s.pending.filter((p) => !done.has(p.accession));
        s.seen.push(...done);
        for (const f of fetched) if (!s.newest_ingested || f.filing.updated > s.newest_ingested) s.newest_ingested = f.filing.updated;
        h.filings_ingested += result.filings;
        h.events_appended += result.events;
        await opts.onBatch?.(result);
      }
      if (fetched.length || fresh.length || troubled) await writeLiveState(statePath, s);
      h.last_success_at = now().toISOString();
      if (!troubled) h.interval_ms = base;
      h.status = h.interval_ms > base ? 'degraded' : 'idle';
    } catch (err) {
      const throttled = err instanceof UpstreamError && err.kind === 'throttled';
      if (s.pending.length) await writeLiveState(statePath, s);
      fail((err as Error).message, throttled);
    } finally {
      refreshHealth(s);
    }
    return result;
  }

  const lane: LiveLane = {
    pollOnce() {
      // One poll at a time: a manual poll while the timer's is running waits for it instead of overlapping.
      const p = (running ?? Promise.resolve()).catch(() => {}).then(poll);
      const tracked: Promise<unknown> = p.finally(() => {
        if (running === tracked) running = null;
      });
      running = tracked;
      return p;
    },
    start() {
      if (!settings.LIVE || !stopped) return;
      stopped = false;
      const loop = async () => {
        await lane.pollOnce().catch((err) => log(`live: ${(err as Error).message}`));
        if (!stopped) timer = setTimer(loop, h.interval_ms);
      };
      timer = setTimer(loop, 0);
    },
    async stop() {
      stopped = true;
      timer?.cancel();
      await running?.catch(() => {});
    },
    health: () => ({ ...h, datasets: [...h.datasets], failing: [...h.failing] }),
  };
  return lane;
}
