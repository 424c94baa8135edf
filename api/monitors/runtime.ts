import type { Lake } from '../core/lake.ts';
import { json } from '../core/records.ts';
import type { Services } from '../core/services.ts';
import type { EventSnapshot } from '../webhooks/payload.ts';
import { DeliveryWorker } from '../webhooks/delivery-worker.ts';
import { MonitorScanner, type EventReader } from './scanner.ts';

/** Events after a (seq, id) position from the lake's `events` view; none while the table does not exist yet. */
export function lakeEventReader(lake: Pick<Lake, 'query'>): EventReader {
  return async (after, limit) => {
    let rows: Record<string, unknown>[];
    try {
      rows = await lake.query(
        `SELECT id, event_type, importance, confidence, entity_cik, entity_ticker, entity_name, accession, summary,
                details, evidence, dedup_key, detected_at, seq
         FROM events WHERE seq >= $1 AND (seq > $1 OR id > $2) ORDER BY seq, id LIMIT $3`,
        [after.seq, after.id, limit],
      );
    } catch (err) {
      if (/events.*does not exist|Table with name events/i.test((err as Error).message)) return [];
      throw err;
    }
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

export interface MonitoringRuntime {
  scanner: MonitorScanner;
  worker: DeliveryWorker;
  /** One cycle now (match new events, send what is due); resolves when the sends are recorded. */
  runOnce(): Promise<void>;
  /** Starts a cycle soon without waiting (after a test delivery or a manual retry). */
  kick(): void;
  stop(): Promise<void>;
}

const runtimes = new WeakMap<Services, MonitoringRuntime>();

export function monitoringRuntime(services: Services): MonitoringRuntime | undefined {
  return runtimes.get(services);
}

/**
 * The worker inside the server: every `pollMs` it matches new events against the monitors and sends the
 * deliveries that are due. Everything it owes lives in the state store, so stopping it at any moment
 * loses nothing (see DeliveryWorker).
 */
export function startMonitoring(
  services: Services,
  opts: { pollMs?: number; background?: boolean; ca?: string | string[]; concurrency?: number; readEvents?: EventReader } = {},
): MonitoringRuntime {
  const existing = runtimes.get(services);
  if (existing) return existing;
  const log = (m: string) => {
    if (services.settings.LOG_LEVEL !== 'silent') console.error(`[monitoring] ${m}`);
  };
  const scanner = new MonitorScanner({ state: services.state, readEvents: opts.readEvents ?? lakeEventReader(services.lake), now: () => services.now() });
  const worker = new DeliveryWorker({
    state: services.state,
    now: () => services.now(),
    allowHosts: services.settings.WEBHOOK_ALLOW_HOSTS,
    timeoutMs: services.settings.WEBHOOK_TIMEOUT_MS,
    concurrency: opts.concurrency,
    ca: opts.ca,
    log,
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
  const background = opts.background ?? true;
  const timer = background
    ? setInterval(() => {
        if (!cycle) runOnce().catch((err) => log((err as Error).message));
      }, opts.pollMs ?? 2000)
    : null;
  timer?.unref();
  const rt: MonitoringRuntime = {
    scanner,
    worker,
    runOnce,
    kick() {
      if (background) setImmediate(() => void runOnce().catch((err) => log((err as Error).message)));
    },
    async stop() {
      if (timer) clearInterval(timer);
      runtimes.delete(services);
      await cycle?.catch(() => undefined);
      await worker.stop();
    },
  };
  runtimes.set(services, rt);
  return rt;
}
