import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Account } from '../../api/core/auth.ts';
import { createMeter, openCharge } from '../../api/core/credits.ts';
import { openStateStore, type StateStore } from '../../api/core/state.ts';

/**
 * Debits on the embedded store are group-committed (api/core/group-commit.ts): the debits waiting while the store is
 * busy share one transaction. The outcome must be what one transaction per debit decided.
 */
let state: StateStore;
const now = () => new Date('2026-03-02T10:00:00Z');
const account = (id: string, plan: Account['plan']): Account => ({ accountId: id, keyId: `k-${id}`, keyName: null, plan });

/** The store, counting the transactions begun and failing the next `failNext` of them at COMMIT. */
function counting(inner: StateStore) {
  const seen = { transactions: 0, failNext: 0 };
  const store: StateStore = {
    ...inner,
    dialect: inner.dialect,
    all: (sql, params, opts) => inner.all(sql, params, opts),
    run: (sql, params) => inner.run(sql, params),
    transaction(fn) {
      seen.transactions++;
      const fail = seen.failNext > 0;
      if (fail) seen.failNext--;
      return inner.transaction(async (tx) => {
        const out = await fn(tx);
        if (fail) throw new Error('commit failed');
        return out;
      });
    },
  };
  return { store, seen };
}

beforeEach(async () => {
  state = await openStateStore(':memory:');
});
afterEach(async () => {
  await state.close();
});

describe('group-committed debits', () => {
  it('200 concurrent debits on a paid key and on a second account: every credit counted, in far fewer transactions', async () => {
    const { store, seen } = counting(state);
    const meter = createMeter(store, { metering: true, now });
    const a = account('acct-a', 'pro');
    const b = account('acct-b', 'starter');
    const calls = Array.from({ length: 200 }, (_, i) => meter.debit(i % 4 ? a : b, 5));
    const done = await Promise.all(calls);
    expect(done.every((d) => d.debited === 5)).toBe(true);
    expect((await meter.balance(a)).used).toBe(150 * 5);
    expect((await meter.balance(b)).used).toBe(50 * 5);
    const rows = await state.all('SELECT account_id, used, requests FROM credit_usage ORDER BY account_id');
    expect(rows.map((r) => [r.account_id, Number(r.used), Number(r.requests)])).toEqual([
      ['acct-a', 750, 150],
      ['acct-b', 250, 50],
    ]);
    // Each debit's balance is the use after it, as if debited one by one: all distinct, the last one the total.
    const afterA = done.filter((_, i) => i % 4).map((d) => d.balance.used);
    expect(new Set(afterA).size).toBe(150);
    expect(Math.max(...afterA)).toBe(750);
    // The first debit goes alone (nothing was waiting); the 199 that arrived while it ran share one transaction.
    expect(seen.transactions).toBe(1);
  });

  it('a paid debit that finds no group waiting is one statement, no transaction; a free one keeps its transaction', async () => {
    const { store, seen } = counting(state);
    const statements: string[] = [];
    const all = store.all;
    store.all = (sql, params, opts) => {
      statements.push(sql);
      return all(sql, params, opts);
    };
    const meter = createMeter(store, { metering: true, now });
    const a = account('acct-alone', 'builder');
    // One after another: the first adds the period's row, each later one is a single UPDATE.
    const after: number[] = [];
    for (let i = 0; i < 5; i++) after.push((await meter.debit(a, 3)).balance.used);
    expect(after).toEqual([3, 6, 9, 12, 15]);
    expect(seen.transactions).toBe(0);
    expect(statements.filter((s) => s.startsWith('UPDATE credit_usage'))).toHaveLength(5);
    expect(statements.filter((s) => s.startsWith('INSERT INTO credit_usage'))).toHaveLength(1);
    expect(await state.all(`SELECT used, requests FROM credit_usage WHERE account_id = 'acct-alone'`)).toEqual([{ used: 15, requests: 5 }]);
    await meter.debit(account('acct-free-alone', 'free'), 3);
    expect(seen.transactions).toBe(1);
  });

  it('a free key inside one group: exactly its 100 credits granted, the last call given the credits left', async () => {
    const meter = createMeter(state, { metering: true, now });
    const f = account('acct-free', 'free');
    await state.run(`INSERT INTO credit_usage VALUES ('acct-free', 'lifetime', 90, 18)`);
    // 3 calls of 1-5 credits at once: 5 + 5 granted, the third waits for the holds, then is refused (0 left).
    const charges = Array.from({ length: 3 }, () => openCharge(meter, f, { min: 1, max: 5 }, true));
    const reserved = await Promise.allSettled(
      charges.map(async (c) => {
        await c.reserve();
        return c.settle(5);
      }),
    );
    expect(reserved.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
    expect(reserved.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason.status)).toEqual([402]);
    expect(await meter.balance(f)).toMatchObject({ used: 100, remaining: 0 });
  });

  it('a group whose commit fails: every debit in it fails, nothing is counted or held', async () => {
    const { store, seen } = counting(state);
    const meter = createMeter(store, { metering: true, now });
    const f = account('acct-fail', 'free');
    // The five debits are submitted before the store begins the first transaction: they share it, and it fails.
    seen.failNext = 1;
    const results = await Promise.allSettled([1, 2, 3, 4, 5].map(() => meter.debit(f, 5)));
    expect(seen.transactions).toBe(1);
    expect(results.map((r) => (r.status === 'rejected' ? String(r.reason.message) : 'granted'))).toEqual(Array(5).fill('commit failed'));
    expect((await meter.balance(f)).used).toBe(0);
    // No hold was left behind: a free call that fits only with nobody holding is granted its last credits at once.
    await state.run(`INSERT INTO credit_usage VALUES ('acct-fail', 'lifetime', 97, 1)`);
    expect((await meter.debit(f, 5, 1)).debited).toBe(3);
  });

  it('with metering off a call settles without touching the store: "unlimited" remain', async () => {
    let statements = 0;
    const counted = <T>(r: T): T => {
      statements++;
      return r;
    };
    const store: StateStore = {
      ...state,
      all: (sql, params, opts) => counted(state.all(sql, params, opts)),
      run: (sql, params) => counted(state.run(sql, params)),
      transaction: (fn) => counted(state.transaction(fn)),
    };
    const meter = createMeter(store, { metering: false, now });
    const charge = openCharge(meter, account('acct-off', 'free'), { min: 5, max: 5 }, false);
    await charge.reserve();
    expect(await charge.settle(5)).toEqual({ charged: 0, remaining: 'unlimited' });
    expect(statements).toBe(0);
  });
});
