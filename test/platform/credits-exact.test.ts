import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Account } from '../../api/core/auth.ts';
import { createMeter, openCharge, type Meter } from '../../api/core/credits.ts';
import { openStateStore, type StateStore } from '../../api/core/state.ts';

let state: StateStore;
let meter: Meter;
const now = () => new Date('2026-03-02T10:00:00Z');
const free = (id: string): Account => ({ accountId: id, keyId: `k-${id}`, keyName: null, plan: 'free' });

beforeEach(async () => {
  state = await openStateStore(':memory:');
  meter = createMeter(state, { metering: true, now });
});
afterEach(async () => {
  await state.close();
});

/** One call: reserves its range, lets the others interleave, settles at `cost`; returns its status and 402 text. */
async function call(account: Account, range: { min: number; max: number }, cost: number): Promise<{ ok: boolean; message?: string }> {
  const charge = openCharge(meter, account, range, true);
  try {
    await charge.reserve();
  } catch (err) {
    return { ok: false, message: (err as Error).message };
  }
  await new Promise((r) => setImmediate(r)); // the handler's work: other calls reserve meanwhile
  await charge.settle(cost);
  return { ok: true };
}

describe('credits are exact to the last one under concurrency (free plan, 100 credits)', () => {
  it('300 concurrent calls of a 1-5 credit range that each cost 1: exactly 100 served, none overdrawn', async () => {
    const a = free('acct-range');
    const results = await Promise.all(Array.from({ length: 300 }, () => call(a, { min: 1, max: 5 }, 1)));
    expect(results.filter((r) => r.ok)).toHaveLength(100);
    const b = await meter.balance(a);
    expect(b).toMatchObject({ used: 100, remaining: 0 });
    // Every refusal came once nothing was held any more: its "remain" figure is the settled balance.
    for (const r of results.filter((x) => !x.ok)) expect(r.message).toMatch(/ and 0 of the free plan's 100 remain; /);
  });

  it('a fixed cost of 3 serves 33 calls and the 402 says truthfully that 1 remains', async () => {
    const a = free('acct-fixed');
    const results = await Promise.all(Array.from({ length: 60 }, () => call(a, { min: 3, max: 3 }, 3)));
    expect(results.filter((r) => r.ok)).toHaveLength(33);
    expect(await meter.balance(a)).toMatchObject({ used: 99, remaining: 1 });
    for (const r of results.filter((x) => !x.ok)) expect(r.message).toMatch(/costs up to 3 credit\(s\) and 1 of the free plan's 100 remain; /);
  });

  it('the last credits cover a call whose minimum fits; it is charged no more than it reserved', async () => {
    const a = free('acct-last');
    await state.run(`INSERT INTO credit_usage VALUES ('acct-last', 'lifetime', 97, 1)`);
    const charge = openCharge(meter, a, { min: 1, max: 5 }, true);
    await charge.reserve();
    expect((await charge.settle(5)).charged).toBe(3);
    expect(await meter.balance(a)).toMatchObject({ used: 100, remaining: 0 });
    await expect(openCharge(meter, a, { min: 1, max: 5 }, true).reserve()).rejects.toMatchObject({ status: 402 });
  });

  it('a call settled below its reservation reports the balance after its refund', async () => {
    const a = free('acct-refund');
    await state.run(`INSERT INTO credit_usage VALUES ('acct-refund', 'lifetime', 90, 3)`);
    const charge = openCharge(meter, a, { min: 1, max: 5 }, true);
    await charge.reserve();
    // 95 used while it holds 5; it costs 2, so 3 come back and 8 remain.
    expect(await charge.settle(2)).toEqual({ charged: 2, remaining: 8 });
    expect(await meter.balance(a)).toMatchObject({ used: 92, remaining: 8 });
  });
});
