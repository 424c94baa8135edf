import { performance } from 'node:perf_hooks';
import { openStateStore } from '../../api/core/state.ts';
import { MonitorIndex, type MatchableEvent, type MonitorRule } from '../../api/monitors/matcher.ts';
import { MonitorScanner } from '../../api/monitors/scanner.ts';
import { EVENT_TYPES } from '../../api/monitors/taxonomy.ts';
import type { EventSnapshot } from '../../api/webhooks/payload.ts';
import type { BenchResult } from './support.ts';
import { deliveryThroughput, healthyLatencyUnderBacklog } from './webhook-delivery.ts';

const SCALE = Number(process.env.BENCH_SCALE ?? 1);
const MONITORS = 10_000;

/** A deterministic population: 2,000 tickers/companies, every target type, mixed signals and materiality. */
function population(seed = 7) {
  let s = seed;
  const rnd = (n: number) => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s % n;
  };
  const tickers = Array.from({ length: 2000 }, (_, i) => `T${i}`);
  const ciks = Array.from({ length: 2000 }, (_, i) => String(100000 + i).padStart(10, '0'));
  const forms = ['8-K', '10-K', '10-Q', '4', '13F-HR', 'D', 'S-1', 'DEF 14A'];
  const imp = ['low', 'medium', 'high'];
  const monitors: MonitorRule[] = Array.from({ length: MONITORS }, (_, i) => {
    // Mostly company watches; broad form/event-type watches are rare (each matches a large share of the feed).
    const r = rnd(100);
    const t = r < 60 ? 'ticker' : r < 96 ? 'cik' : r < 98 ? 'form' : 'event_type';
    const v = t === 'ticker' ? tickers[rnd(2000)] : t === 'cik' ? ciks[rnd(2000)] : t === 'form' ? forms[rnd(8)] : EVENT_TYPES[rnd(EVENT_TYPES.length)];
    return {
      id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      account_id: `acct-${i % 50}`,
      target_type: t,
      target_value: v,
      signals: rnd(2) ? [] : [EVENT_TYPES[rnd(EVENT_TYPES.length)]],
      materiality: imp[rnd(3)],
      status: 'active',
      webhook_endpoint_id: null,
    };
  });
  const event = (j: number): EventSnapshot & { seq: number } & MatchableEvent => {
    const k = rnd(2000);
    return {
      id: `e-${String(j).padStart(9, '0')}`,
      event_type: EVENT_TYPES[rnd(EVENT_TYPES.length)],
      importance: imp[rnd(3)],
      confidence: 1,
      entity_cik: ciks[k],
      entity_ticker: tickers[k],
      entity_name: `Company ${k}`,
      accession: null,
      summary: 's',
      details: { form: forms[rnd(8)] },
      evidence: [],
      dedup_key: null,
      detected_at: null,
      seq: Math.floor(j / 1000) + 1,
    };
  };
  return { monitors, event };
}

async function matcherThroughput(): Promise<BenchResult> {
  const { monitors, event } = population();
  const index = new MonitorIndex(monitors);
  const n = 100_000 * SCALE;
  const events = Array.from({ length: n }, (_, j) => event(j));
  let matches = 0;
  const t = performance.now();
  for (const e of events) matches += index.match(e).length;
  const s = (performance.now() - t) / 1000;
  return {
    name: `monitors-webhooks: matcher, ${MONITORS.toLocaleString('en-US')} active monitors`,
    figures: { events: n, events_per_s: Math.round(n / s), event_x_monitor_per_s: Math.round((n * MONITORS) / s), matches },
  };
}

async function scannerThroughput(): Promise<BenchResult> {
  const { monitors, event } = population(11);
  const state = await openStateStore(':memory:');
  try {
    for (let i = 0; i < monitors.length; i += 500) {
      const chunk = monitors.slice(i, i + 500);
      const params: unknown[] = [];
      const values = chunk.map((m) => {
        const o = params.length;
        params.push(m.id, m.account_id, m.target_type, m.target_value, JSON.stringify(m.signals), m.materiality);
        return (
          `($${o + 1}, $${o + 2}, 'bench', $${o + 3}, $${o + 4}, $${o + 5}, $${o + 6}, 'active', NULL, ` +
          `'2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z')`
        );
      });
      await state.run(`INSERT INTO monitors VALUES ${values.join(', ')}`, params);
    }
    const n = 10_000 * SCALE;
    const events = Array.from({ length: n }, (_, j) => event(j));
    const scanner = new MonitorScanner({
      state,
      now: () => new Date(),
      readEvents: async (after, limit) => {
        const start = events.findIndex((e) => e.seq > after.seq || (e.seq === after.seq && e.id > after.id));
        return start < 0 ? [] : events.slice(start, start + limit);
      },
    });
    const t = performance.now();
    const r = await scanner.scan();
    const s = (performance.now() - t) / 1000;
    return {
      name: 'monitors-webhooks: scanner (match + alert writes, state store)',
      figures: { events: r.events, alerts: r.alerts, events_per_s: Math.round(r.events / s), alerts_per_s: Math.round(r.alerts / s) },
    };
  } finally {
    await state.close();
  }
}

export default async function (): Promise<BenchResult[]> {
  return [await matcherThroughput(), await scannerThroughput(), await deliveryThroughput(), await healthyLatencyUnderBacklog()];
}
