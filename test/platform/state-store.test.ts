import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Account } from '../../api/core/auth.ts';
import { createMeter, openCharge, type Meter } from '../../api/core/credits.ts';
import { createKey, findKeyByHash, hashKey, listKeys, revokeKey } from '../../api/core/keys.ts';
import { openStateStore, type StateStore, stateTarget } from '../../api/core/state.ts';
import { loadSettings } from '../../schemas/settings.ts';
import { createMonitor } from '../../api/monitors/monitor-service.ts';
import { MonitorScanner } from '../../api/monitors/scanner.ts';
import { getDelivery, listDeliveries } from '../../api/webhooks/delivery-service.ts';
import { DeliveryWorker } from '../../api/webhooks/delivery-worker.ts';
import { createEndpoint, queueTestDelivery } from '../../api/webhooks/endpoint-service.ts';
import type { EventSnapshot } from '../../api/webhooks/payload.ts';
import type { SendRequest } from '../../api/webhooks/sender.ts';
import { TestClock } from '../monitors-webhooks/support.ts';
import { startTestPostgres, type TestPostgres } from '../support/postgres.ts';

/**
 * The state-store suite, run against both engines: the embedded DuckDB file and PostgreSQL (a throw-away cluster
 * on a unix socket, test/support/postgres.ts). The same services, the same migrations, the same answers. On
 * PostgreSQL, "another process" is a second store on its own connection pool: what one pool does, the other sees
 * only through the database, as a second server process would.
 */
let cluster: TestPostgres | null = null;
let skipped = '';
let dbNo = 0;

beforeAll(async () => {
  const started = await startTestPostgres();
  if ('skipped' in started) {
    skipped = started.skipped;
    console.warn(`SKIPPED: the PostgreSQL half of the state-store suite: ${skipped}`);
  } else cluster = started;
});
afterAll(async () => {
  await cluster?.stop();
});

interface Engine {
  name: string;
  /** A fresh store, and a second handle on the same data (PostgreSQL: another pool, as another process has). */
  open(): Promise<{ a: StateStore; b: StateStore; close(): Promise<void> }>;
}

const engines: Engine[] = [
  {
    name: 'duckdb',
    async open() {
      const a = await openStateStore(':memory:');
      return { a, b: a, close: () => a.close() };
    },
  },
  {
    name: 'postgres',
    async open() {
      if (!cluster) throw new Error('no cluster');
      const url = await cluster.createDatabase(`state_${++dbNo}`);
      const a = await openStateStore(url);
      const b = await openStateStore(url);
      return {
        a,
        b,
        async close() {
          await a.close();
          await b.close();
        },
      };
    },
  },
];

const free = (id: string): Account => ({ accountId: id, keyId: `k-${id}`, keyName: null, plan: 'free' });
const clockAt = () => new Date('2026-03-02T10:00:00Z');

async function call(meter: Meter, account: Account, range: { min: number; max: number }, cost: number): Promise<boolean> {
  const charge = openCharge(meter, account, range, true);
  try {
    await charge.reserve();
  } catch {
    return false;
  }
  await new Promise((r) => setImmediate(r));
  await charge.settle(cost);
  return true;
}

describe('choosing the state store', () => {
  it('STATE_DATABASE_URL (postgres:// or postgresql://) selects PostgreSQL; unset, the embedded file in DATA_DIR', () => {
    expect(stateTarget(loadSettings({ DATA_DIR: '/srv/filings' }))).toBe('/srv/filings/state.duckdb');
    const url = 'postgresql://api:secret@db.internal:5432/filings';
    expect(stateTarget(loadSettings({ DATA_DIR: '/srv/filings', STATE_DATABASE_URL: url }))).toBe(url);
    expect(() => loadSettings({ STATE_DATABASE_URL: 'mysql://db/filings' })).toThrow(/STATE_DATABASE_URL/);
  });
});

for (const engine of engines) {
  describe(`state store on ${engine.name}`, () => {
    let s: Awaited<ReturnType<Engine['open']>>;
    const available = () => engine.name !== 'postgres' || cluster !== null;

    beforeAll(async () => {
      if (available()) s = await engine.open();
    });
    afterAll(async () => {
      if (available()) await s.close();
    });

    it('applies every migration once; a second open finds nothing to apply', async (ctx) => {
      if (!available()) return ctx.skip(skipped);
      const ids = (await s.a.all('SELECT id FROM schema_migrations ORDER BY id')).map((r) => r.id);
      expect(ids).toEqual(['0100_keys_usage', '0200_monitors', '0210_webhooks', '0220_webhook_workers']);
      expect(await s.b.ping()).toBe(true);
    });

    it('a statement run again after its tables changed sees the change (no plan kept from old statistics)', async (ctx) => {
      if (!available()) return ctx.skip(skipped);
      // The embedded store runs every text prepared once; DuckDB 1.5 froze a prepared plan on the statistics of the
      // moment it was prepared (duckdb/duckdb#23704, #24182): both reads below returned their first answer again.
      await s.a.run('CREATE TABLE probe_attempts (k BIGINT, outcome VARCHAR)');
      await s.a.run('CREATE TABLE probe_keys (k BIGINT)');
      try {
        const sending = `SELECT k FROM probe_attempts WHERE outcome = 'sending' ORDER BY k`;
        expect(await s.a.all(sending)).toEqual([]);
        await s.a.run(`INSERT INTO probe_attempts VALUES (7, 'sending')`);
        expect(await s.b.all(sending)).toEqual([{ k: 7 }]);
        // A join whose build side (probe_keys) lay at 3000–5000 when first run, then at 1–2.
        await s.a.run('INSERT INTO probe_attempts SELECT g.i, $1 FROM generate_series(0, 6143) AS g(i)', ['done']);
        await s.a.run('INSERT INTO probe_keys VALUES (3000), (5000)');
        const joined =
          'SELECT count(*)::INTEGER AS n, coalesce(sum(a.k), 0)::INTEGER AS s ' + `FROM probe_attempts a JOIN probe_keys USING (k) WHERE a.outcome = 'done'`;
        expect(await s.a.all(joined)).toEqual([{ n: 2, s: 8000 }]);
        await s.a.run('DELETE FROM probe_keys');
        await s.a.run('INSERT INTO probe_keys VALUES (1), (2)');
        expect(await s.b.all(joined)).toEqual([{ n: 2, s: 3 }]);
      } finally {
        await s.a.run('DROP TABLE probe_attempts');
        await s.a.run('DROP TABLE probe_keys');
      }
    });

    it('keys: create, find by hash, list and revoke, with timestamps as ISO strings', async (ctx) => {
      if (!available()) return ctx.skip(skipped);
      const k = await createKey(s.a, { plan: 'starter', name: 'suite' });
      const found = await findKeyByHash(s.b, hashKey(k.key));
      expect(found).toMatchObject({ id: k.id, plan: 'starter', name: 'suite', revoked_at: null });
      expect(found?.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
      expect((await listKeys(s.a)).some((r) => r.id === k.id)).toBe(true);
      expect(await revokeKey(s.b, k.key)).toBe(true);
      expect(await revokeKey(s.a, k.id)).toBe(false);
      expect((await findKeyByHash(s.a, hashKey(k.key)))?.revoked_at).toMatch(/Z$/);
    });

    it('credits: 300 concurrent 1-5 credit calls costing 1, split over both handles, serve exactly 100', async (ctx) => {
      if (!available()) return ctx.skip(skipped);
      const a = free('acct-range');
      const meters = [createMeter(s.a, { metering: true, now: clockAt }), createMeter(s.b, { metering: true, now: clockAt })];
      const results = await Promise.all(Array.from({ length: 300 }, (_, i) => call(meters[i % 2], a, { min: 1, max: 5 }, 1)));
      expect(results.filter(Boolean).length).toBeLessThanOrEqual(100);
      const b = await meters[0].balance(a);
      // Never overdrawn; every credit used is a call served (refunds settled).
      expect(b.used).toBe(results.filter(Boolean).length);
      if (s.a === s.b) expect(b).toMatchObject({ used: 100, remaining: 0 });
    });

    it('credits: 400 concurrent calls of a fixed 5 credits over both handles serve exactly 20 and use exactly 100', async (ctx) => {
      if (!available()) return ctx.skip(skipped);
      const a = free('acct-fixed');
      const meters = [createMeter(s.a, { metering: true, now: clockAt }), createMeter(s.b, { metering: true, now: clockAt })];
      const results = await Promise.all(Array.from({ length: 400 }, (_, i) => call(meters[i % 2], a, { min: 5, max: 5 }, 5)));
      expect(results.filter(Boolean)).toHaveLength(20);
      expect(await meters[1].balance(a)).toMatchObject({ used: 100, remaining: 0 });
      const [row] = await s.a.all(`SELECT used, requests FROM credit_usage WHERE account_id = 'acct-fixed'`);
      expect(row).toEqual({ used: 100, requests: 20 });
    });

    it('credits: 200 concurrent debits of a paid key over both handles each count once and see their own total', async (ctx) => {
      if (!available()) return ctx.skip(skipped);
      const a: Account = { accountId: 'acct-paid', keyId: 'k-paid', keyName: null, plan: 'pro' };
      const meters = [createMeter(s.a, { metering: true, now: clockAt }), createMeter(s.b, { metering: true, now: clockAt })];
      const debits = await Promise.all(Array.from({ length: 200 }, (_, i) => meters[i % 2].debit(a, 3)));
      expect(debits.every((d) => d.debited === 3)).toBe(true);
      // Each debit returns the total just after it: 3, 6, …, 600, each once (a lost or doubled update repeats one).
      expect(debits.map((d) => d.balance.used).sort((x, y) => x - y)).toEqual(Array.from({ length: 200 }, (_, i) => 3 * (i + 1)));
      expect(await s.b.all(`SELECT used, requests FROM credit_usage WHERE account_id = 'acct-paid'`)).toEqual([{ used: 600, requests: 200 }]);
    });

    it('credits: the last credits cover a call whose minimum fits, never more than reserved', async (ctx) => {
      if (!available()) return ctx.skip(skipped);
      const a = free('acct-last');
      await s.a.run(`INSERT INTO credit_usage VALUES ('acct-last', 'lifetime', 97, 1)`);
      const meter = createMeter(s.b, { metering: true, now: clockAt });
      const charge = openCharge(meter, a, { min: 1, max: 5 }, true);
      await charge.reserve();
      expect((await charge.settle(5)).charged).toBe(3);
      await expect(openCharge(meter, a, { min: 1, max: 5 }, true).reserve()).rejects.toMatchObject({ status: 402 });
    });

    it('monitors: the scanner writes each alert and delivery once, also when both handles scan the same events', async (ctx) => {
      if (!available()) return ctx.skip(skipped);
      const clock = new TestClock();
      const ep = await createEndpoint(s.a, 'acct-mon', { url: 'https://receiver.example/hook' }, clock.now());
      await createMonitor(
        s.a,
        'acct-mon',
        { name: 'cyber', target_type: 'event_type', target_value: 'sec.8k.cybersecurity_incident', webhook_endpoint_id: ep.id },
        clock.now(),
      );
      const events = Array.from({ length: 30 }, (_, i) => ({
        id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        event_type: 'sec.8k.cybersecurity_incident',
        importance: 'high',
        confidence: 0.9,
        entity_cik: '0000320193',
        entity_ticker: 'APE',
        entity_name: 'Ape Inc',
        accession: null,
        summary: `incident ${i}`,
        details: {},
        evidence: [],
        dedup_key: `k${i}`,
        detected_at: '2025-03-03T11:00:00.000Z',
        seq: i,
      })) as (EventSnapshot & { seq: number })[];
      const readEvents = async (after: { seq: number; id: string }, limit: number) => events.filter((e) => e.seq > after.seq).slice(0, limit);
      const scanners = [s.a, s.b].map((state) => new MonitorScanner({ state, readEvents, now: clock.now, batchSize: 10 }));
      await Promise.all(scanners.map((sc) => sc.scan()));
      const [{ n: alerts }] = await s.a.all(`SELECT count(*) AS n FROM alerts WHERE account_id = 'acct-mon'`);
      const [{ n: deliveries }] = await s.b.all(`SELECT count(*) AS n FROM webhook_deliveries WHERE account_id = 'acct-mon'`);
      expect({ alerts, deliveries }).toEqual({ alerts: 30, deliveries: 30 });
      expect(await scanners[0].position()).toEqual({ seq: 29, id: events[29].id });
      const page = await listDeliveries(s.b, 'acct-mon', { status: 'pending' }, 5, null);
      expect(page.records).toHaveLength(5);
      expect(page.records[0]).toMatchObject({ status: 'pending', attempts: 0, type: 'sec.8k.cybersecurity_incident' });
    });

    it('deliveries: two workers polling the same store send each delivery once, in one attempt each', async (ctx) => {
      if (!available()) return ctx.skip(skipped);
      const clock = new TestClock();
      const account = 'acct-workers';
      const endpoints = await Promise.all([0, 1, 2, 3].map((i) => createEndpoint(s.a, account, { url: `https://r${i}.example/hook` }, clock.now())));
      const ids: string[] = [];
      for (let i = 0; i < 120; i++) ids.push(await queueTestDelivery(s.a, account, endpoints[i % 4].id, clock.now()));
      const sent: string[] = [];
      const worker = (state: StateStore) =>
        new DeliveryWorker({
          state,
          now: clock.now,
          allowHosts: '',
          timeoutMs: 1000,
          concurrency: 4,
          perEndpoint: 8,
          send: async (req: SendRequest) => {
            sent.push(JSON.parse(req.body.toString('utf8')).delivery_id);
            await new Promise((r) => setImmediate(r));
            return { status: 200, error: null, responseExcerpt: '' };
          },
        });
      const workers = [worker(s.a), worker(s.b)];
      await Promise.all(workers.map((w) => w.runDue()));
      // The store also holds the monitors test's deliveries (another account): count this test's.
      const ours = new Set(ids);
      const sentOurs = sent.filter((id) => ours.has(id));
      expect(sentOurs).toHaveLength(120);
      expect(new Set(sentOurs).size).toBe(120);
      const attempts = await s.a.all(
        `SELECT delivery_id, count(*) AS n, min(outcome) AS outcome FROM webhook_attempts
         WHERE delivery_id IN (SELECT id FROM webhook_deliveries WHERE account_id = $1) GROUP BY delivery_id`,
        [account],
      );
      expect(attempts).toHaveLength(120);
      expect(attempts.every((r) => r.n === 1 && r.outcome === 'success')).toBe(true);
      expect(await getDelivery(s.b, account, ids[0])).toMatchObject({ status: 'success', attempts: 1 });
    });

    it("recovery: a live worker's attempt in flight is left alone on a shared store, a dead one's is retried", async (ctx) => {
      if (!available()) return ctx.skip(skipped);
      const clock = new TestClock(Date.parse('2025-04-01T00:00:00.000Z'));
      const account = 'acct-recover';
      const ep = await createEndpoint(s.a, account, { url: 'https://r.example/hook' }, clock.now());
      const id = await queueTestDelivery(s.a, account, ep.id, clock.now());
      // Worker A claims the delivery and "hangs" in its send: the attempt stays `sending`.
      let release: () => void = () => undefined;
      const hung = new Promise<void>((r) => {
        release = r;
      });
      const a = new DeliveryWorker({
        state: s.a,
        now: clock.now,
        allowHosts: '',
        timeoutMs: 1000,
        send: async () => {
          await hung;
          return { status: 200, error: null, responseExcerpt: '' };
        },
      });
      expect(await a.tick()).toBe(1);
      const sentByB: string[] = [];
      const b = new DeliveryWorker({
        state: s.b,
        now: clock.now,
        allowHosts: '',
        timeoutMs: 1000,
        send: async (req) => {
          sentByB.push(req.headers['svc-delivery-id']);
          return { status: 200, error: null, responseExcerpt: '' };
        },
      });
      if (s.a.dialect.shared) {
        // B starts while A beats: A's attempt is A's business.
        expect(await b.recover()).toBe(0);
        await b.runDue();
        expect(sentByB).toEqual([]);
        release();
        await a.drain();
        expect(await getDelivery(s.b, account, id)).toMatchObject({ status: 'success', attempts: 1 });
        // A second delivery claimed by a worker that then stops beating: after the stale window, B retries it.
        const id2 = await queueTestDelivery(s.a, account, ep.id, clock.now());
        const dead = new DeliveryWorker({ state: s.a, now: clock.now, allowHosts: '', timeoutMs: 1000, send: () => new Promise(() => undefined) });
        expect(await dead.tick()).toBe(1);
        clock.advance(31_000);
        expect(await b.recover()).toBe(1);
        await b.runDue();
        expect(sentByB).toHaveLength(0); // retried on the schedule (1 min), not at once
        clock.advance(60_000);
        await b.runDue();
        expect(sentByB).toHaveLength(1);
        expect(await getDelivery(s.b, account, id2)).toMatchObject({ status: 'success', attempts: 2 });
      } else {
        // One owner: a worker starting on the embedded store recovers every attempt left `sending`.
        expect(await b.recover()).toBe(1);
        release();
        await a.drain();
      }
    });
  });
}
