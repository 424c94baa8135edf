import type { Logger } from '../../ingest/lake/index.ts';
import type { Settings } from '../../schemas/settings.ts';
import type { Lake } from '../core/lake.ts';
import { json } from '../core/records.ts';
import { eventsTable } from '../../schemas/tables/events.ts';
import { DeliveryWorker } from '../webhooks/delivery-worker.ts';
import type { EventSnapshot } from '../webhooks/payload.ts';
import type { StateDb } from '../webhooks/state-port.ts';
import { MonitorScanner, type EventReader } from './scanner.ts';

/**
 * Events after a (seq, id) position, read from the day folders that can hold them (`daysAfter`); none while the table
 * has no files yet.
 */
export function lakeEventReader(lake: Pick<Lake, 'query' | 'partitions' | 'relation'>): EventReader {
  return async (after, limit) => {
    const days = await daysAfter(lake, after.seq);
    if (!days.length) return [];
    const rows = await lake.query(
      `SELECT id, event_type, importance, confidence, entity_cik, entity_ticker, entity_name, accession, summary,
              details, evidence, dedup_key, detected_at, seq
       FROM ${lake.relation(eventsTable.name, days).sql} WHERE seq >= $1 AND (seq > $1 OR id > $2) ORDER BY seq, id LIMIT $3`,
      [after.seq, after.id, limit],
      // The text names the folders' files, new with each append: not a statement worth keeping prepared.
      { cache: false },
    );
    return rows.map((r) => ({
      id: String(r.id),
      event_type: String(r.event_type),
      importance: String(r.importance),
      confidence: r.confidence == null ? null : Number(r.confidence),
      entity_cik: r.entity_cik == null ? null : String(r.entity_cik),
      entity_ticker: r.entity_ticker == null ? null : String(r.entity_ticker),
      entity_name: r.entity_name == null ? null : String(r.entity_name),
      accession: r.accession == null ? null : String(r.accession),
      summary: String(r.summary ?? ''),
      details: json<Record<string, unknown>>(r.details, {}),
      evidence: json<unknown[]>(r.evidence, []),
      dedup_key: r.dedup_key == null ? null : String(r.dedup_key),
      detected_at: r.detected_at == null ? null : String(r.detected_at),
      seq: Number(r.seq),
    })) as (EventSnapshot & { seq: number })[];
  };
}

/**
 * The day folders of the events table that can hold events after `seq`, oldest first: from the last one whose smallest
 * `seq` is at most `seq` on, since a later day never holds a smaller `seq` (ingest/events/writer.ts). Every folder for a
 * scanner that has read nothing. The newest folder is tried first (a scanner that keeps up finds its position there),
 * then the others by halving, one folder's smallest `seq` a step: 12 steps at 3,650 folders, where a walk back one folder
 * at a time would take thousands for a scanner days behind. Reading the whole feed each poll cost 230-300 ms of CPU on
 * 18M events in 3,650 day folders.
 */
async function daysAfter(lake: Pick<Lake, 'query' | 'partitions' | 'relation'>, seq: number): Promise<string[]> {
  const days = (await lake.partitions(eventsTable.name)).sort();
  if (seq < 0 || !days.length) return days;
  const startsBy = async (i: number) => {
    const [{ first }] = await lake.query(`SELECT min(seq) AS first FROM ${lake.relation(eventsTable.name, [days[i]]).sql}`, [], { cache: false });
    return first != null && Number(first) <= seq;
  };
  if (await startsBy(days.length - 1)) return days.slice(-1);
  if (!(await startsBy(0))) return days;
  // days[lo] starts at or before `seq`, days[hi] after it.
  let [lo, hi] = [0, days.length - 1];
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (await startsBy(mid)) lo = mid;
    else hi = mid;
  }
  return days.slice(lo);
}

export interface MonitoringRuntime {
  scanner: MonitorScanner;
  worker: DeliveryWorker;
  /** One cycle now (match new events, send what is due); resolves when the sends are recorded (tests). */
  runOnce(): Promise<void>;
  /** Starts the background loop (the server's mode): a scan and a claim every `pollMs`; sends never hold a cycle. */
  start(opts?: { pollMs?: number }): void;
  /** Starts a cycle soon without waiting (after a test delivery or a manual retry); nothing until started. */
  kick(): void;
  stop(): Promise<void>;
}

/** What the runtime reads and writes: the services' state store, lake, settings, clock and logger. */
export interface MonitoringDeps {
  state: StateDb;
  lake: Pick<Lake, 'query' | 'partitions' | 'relation'>;
  settings: Pick<Settings, 'WEBHOOK_ALLOW_HOSTS' | 'WEBHOOK_TIMEOUT_MS'>;
  now(): Date;
  log: Logger;
}

export interface MonitoringOptions {
  /** Extra trusted CA certificates for the receivers (tests' self-signed receiver). */
  ca?: string | string[];
  concurrency?: number;
  readEvents?: EventReader;
}

/**
 * The monitor matcher and webhook delivery scheduler of the server: once started, every `pollMs` it matches new
 * events against the monitors and sends the deliveries that are due. Everything it owes lives in the state store,
 * so stopping it at any moment loses nothing (see DeliveryWorker). Created with the services, idle until started.
 */
export function createMonitoring(deps: MonitoringDeps, opts: MonitoringOptions = {}): MonitoringRuntime {
  const log = deps.log.child({ component: 'monitoring' });
  const warn = (m: string) => log.warn(m);
  const scanner = new MonitorScanner({ state: deps.state, readEvents: opts.readEvents ?? lakeEventReader(deps.lake), now: () => deps.now() });
  const worker = new DeliveryWorker({
    state: deps.state,
    now: () => deps.now(),
    allowHosts: deps.settings.WEBHOOK_ALLOW_HOSTS,
    timeoutMs: deps.settings.WEBHOOK_TIMEOUT_MS,
    concurrency: opts.concurrency,
    ca: opts.ca,
    log: warn,
  });
  let cycle: Promise<void> | null = null;
  const runOnce = (): Promise<void> => {
    cycle ??= (async () => {
      await scanner.scan();
      await worker.runDue();
    })().finally(() => {
      cycle = null;
    });
    return cycle;
  };
  // The server's cycle scans and claims what is due, then returns: sends run on the worker's slots and a hanging
  // receiver holds only its own slots until its time-out, never the next cycle (it used to wait for every send).
  const backgroundCycle = (): Promise<void> => {
    cycle ??= (async () => {
      await scanner.scan();
      await worker.tick();
    })().finally(() => {
      cycle = null;
    });
    return cycle;
  };
  const runInBackground = () => void backgroundCycle().catch((err) => warn((err as Error).message));
  let timer: NodeJS.Timeout | null = null;
  return {
    scanner,
    worker,
    runOnce,
    start({ pollMs = 2000 } = {}) {
      if (timer) return;
      worker.start();
      timer = setInterval(() => {
        if (!cycle) runInBackground();
      }, pollMs);
      timer.unref();
    },
    kick() {
      if (timer) setImmediate(runInBackground);
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await cycle?.catch(() => undefined);
      await worker.stop();
    },
  };
}
