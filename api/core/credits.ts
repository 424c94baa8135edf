import { ApiError } from './errors.ts';
import { PLANS } from '../../schemas/plans.ts';
import type { Account } from './auth.ts';
import { createGroupCommit } from './group-commit.ts';
import type { StateStore, StateTx } from './state.ts';

export interface Balance {
  plan: string;
  period: string;
  included: number | 'unlimited';
  used: number;
  remaining: number | 'unlimited';
  overage: number;
  overage_cost_usd: number | null;
}

/** Free credits are one-time ("lifetime"); paid plans' included credits renew each calendar month (UTC). */
function billingPeriod(account: Account, now: Date): string {
  return PLANS[account.plan].one_time ? 'lifetime' : now.toISOString().slice(0, 7);
}

function balanceOf(account: Account, period: string, used: number, metering: boolean): Balance {
  const plan = PLANS[account.plan];
  if (!metering) return { plan: account.plan, period, included: 'unlimited', used, remaining: 'unlimited', overage: 0, overage_cost_usd: null };
  const overage = Math.max(0, used - plan.included_credits);
  return {
    plan: account.plan,
    period,
    included: plan.included_credits,
    used,
    remaining: Math.max(0, plan.included_credits - used),
    overage,
    overage_cost_usd: plan.overage_per_1000_usd == null ? null : Math.round(overage * plan.overage_per_1000_usd * 10) / 10000,
  };
}

/** One debit waiting for its group's transaction; `held` is what it was granted there (undone if the commit fails). */
interface DebitRequest {
  account: Account;
  period: string;
  max: number;
  min: number;
  held: number;
}

type DebitOutcome = { debited: number; balance: Balance } | { short: number };

/** How long a call that does not fit waits for the credits other calls in progress hold before its 402. */
const WAIT_FOR_HELD_MS = 10_000;

/**
 * Credits reserved by calls still in progress, per account, and a wake-up for the calls waiting on them. A call
 * reserves the top of its cost range and usually gives part back when it settles, so a refusal while others hold
 * reservations would be premature (measured before: a free key's last 26 credits went unused while 402s said
 * "4 remain"). With the embedded store one process owns it, so this in-memory count is the whole truth. On a shared
 * PostgreSQL store each process sees its own holds only: debits still never overdraw (the row lock), but a free key's
 * last credits may be refused while a call in another process holds a reservation it later partly gives back.
 */
class Holds {
  private readonly held = new Map<string, number>();
  private readonly waiters = new Map<string, (() => void)[]>();
  private readonly releases = new Map<string, number>();

  of(accountId: string): number {
    return this.held.get(accountId) ?? 0;
  }

  /** Counts releases, so a waiter can tell whether one happened since it last looked. */
  generation(accountId: string): number {
    return this.releases.get(accountId) ?? 0;
  }

  add(accountId: string, credits: number): void {
    this.held.set(accountId, this.of(accountId) + credits);
  }

  release(accountId: string, credits: number): void {
    const left = this.of(accountId) - credits;
    if (left > 0) this.held.set(accountId, left);
    else this.held.delete(accountId);
    this.releases.set(accountId, this.generation(accountId) + 1);
    this.wakeOne(accountId);
  }

  /**
   * Wakes the longest-waiting call. Only one: a woken call that gets its credits wakes the next (a baton), one
   * that does not waits again, so a release costs a few tries instead of one per waiting call.
   */
  wakeOne(accountId: string): void {
    const list = this.waiters.get(accountId);
    const wake = list?.shift();
    if (list && !list.length) this.waiters.delete(accountId);
    wake?.();
  }

  /** Resolves when woken (a release, or the call before it passing the baton), or after `ms`. */
  nextRelease(accountId: string, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const list = this.waiters.get(accountId) ?? [];
      const wake = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        // Timed out: leave the line, so a later wake-up is not spent on a call no longer waiting.
        const i = list.indexOf(wake);
        if (i >= 0) list.splice(i, 1);
        resolve();
      }, ms);
      list.push(wake);
      this.waiters.set(accountId, list);
    });
  }
}

/**
 * The meter. A debit is committed before its call runs: on the DuckDB store in a transaction shared by the debits
 * waiting at once (group commit, serialized by the store's single queue), on PostgreSQL one transaction each on the
 * account's row lock (every process), so 1,000 concurrent requests cannot overdraw: the free plan is refused at its
 * allowance (402), paid plans run into recorded overage. A call reserves the top of its cost range first; the handler's final cost and failures are refunded.
 * A free-plan call that does not fit while other calls of the account hold reservations waits for them to settle
 * before it is refused, so credits are used to the last one and the 402's "remain" figure is the settled balance.
 */
export function createMeter(state: StateStore, opts: { metering: boolean; now: () => Date }) {
  const holds = new Holds();

  async function usedIn(accountId: string, period: string): Promise<number> {
    const rows = await state.all('SELECT used FROM credit_usage WHERE account_id = $1 AND period = $2', [accountId, period]);
    return rows.length ? Number(rows[0].used) : 0;
  }

  /**
   * How many credits a debit of `max` takes when the account has used `used`: `max`, or on a free plan with no other
   * call of the account holding credits, what remains when that still covers `min` (the key's last credits); null
   * when nothing can be debited yet.
   */
  function creditsThatFit(account: Account, used: number, max: number, min: number): number | null {
    const plan = PLANS[account.plan];
    if (!opts.metering || !plan.one_time || used + max <= plan.included_credits) return max;
    if (holds.of(account.accountId) > 0 || plan.included_credits - used < min) return null;
    return plan.included_credits - used;
  }

  /** Paid debits running alone on the embedded store (at most one: see `tryDebit`). */
  let alone = 0;

  /**
   * One try: debits what `creditsThatFit` allows and returns the amount debited and the balance, or the settled use when
   * nothing can be debited yet. On the embedded store the debits waiting at once share one transaction
   * (`groupCommit`), but for a paid plan's debit that finds none waiting: one statement of its own costs less than a
   * transaction of its own (docs/read-path.md, "The state store's statement cache"). On a shared store each debit is
   * its own, on the account's row lock.
   */
  function tryDebit(account: Account, period: string, max: number, min: number): Promise<DebitOutcome> {
    if (state.dialect.shared) return lockedDebit(account, period, max, min);
    if (!PLANS[account.plan].one_time && alone === 0 && groupCommit.idle()) {
      // Counted while it runs: the debits that arrive meanwhile form the next group instead of each going alone.
      alone++;
      return paidDebit(account, period, max).finally(() => alone--);
    }
    return groupCommit.submit({ account, period, max, min, held: 0 });
  }

  async function lockedDebit(account: Account, period: string, max: number, min: number): Promise<DebitOutcome> {
    if (!PLANS[account.plan].one_time) return paidDebit(account, period, max);
    // An exhausted free key is refused on a plain read, without queueing on the row lock behind every other call of
    // the account (test/platform/scale-out.test.ts, 1,000 calls on one free key over two processes, one run each on
    // the shared 2-core machine: 19 s with every refusal taking the lock, 12 s without). Used credits only grow
    // between refunds, so the locked path would refuse it too.
    const used = await usedIn(account.accountId, period);
    if (creditsThatFit(account, used, max, min) === null) return { short: used };
    let added = 0;
    const debited = state.transaction(async (tx) => {
      // Other processes debit the same account: the row exists first, then is locked until COMMIT, so their
      // read-check-update sequences queue on it (READ COMMITTED alone would let two read the same balance).
      await tx.run('INSERT INTO credit_usage (account_id, period, used, requests) VALUES ($1, $2, 0, 0) ON CONFLICT DO NOTHING', [account.accountId, period]);
      const rows = await tx.all(`SELECT used FROM credit_usage WHERE account_id = $1 AND period = $2${tx.dialect.forUpdate}`, [account.accountId, period]);
      const used = rows.length ? Number(rows[0].used) : 0;
      const credits = creditsThatFit(account, used, max, min);
      if (credits === null) return { short: used };
      await tx.run('UPDATE credit_usage SET used = used + $3, requests = requests + 1 WHERE account_id = $1 AND period = $2', [
        account.accountId,
        period,
        credits,
      ]);
      // Counted as held inside the transaction, before any other call of this process can look.
      holds.add(account.accountId, credits);
      added = credits;
      return { debited: credits, balance: balanceOf(account, period, used + credits, opts.metering) };
    });
    // A failed commit debited nothing: its hold must not make later calls wait for credits nobody holds.
    return debited.catch((err) => {
      if (added) holds.release(account.accountId, added);
      throw err;
    });
  }

  /**
   * A paid plan's debit as one statement: such a plan is never refused (`creditsThatFit` gives `max` whatever was
   * used), so the debit needs no read before its write. An `UPDATE` adds it atomically (on PostgreSQL, on the
   * account's row lock) and returns the total after it: one round trip instead of five on PostgreSQL (BEGIN, the row's
   * insert, the locked read, the update, COMMIT; docs/scale-out.md), and on the embedded store 0.86 ms of CPU against
   * 1.25 ms for a transaction. The period's first debit finds no row: an upsert adds it, or adds to the row another
   * debit inserted meanwhile (DuckDB's upsert costs more than the `UPDATE`, so it only comes second).
   */
  async function paidDebit(account: Account, period: string, max: number): Promise<DebitOutcome> {
    const args = [account.accountId, period, max];
    let rows = await state.all('UPDATE credit_usage SET used = used + $3, requests = requests + 1 WHERE account_id = $1 AND period = $2 RETURNING used', args);
    if (!rows.length) {
      rows = await state.all(
        'INSERT INTO credit_usage (account_id, period, used, requests) VALUES ($1, $2, $3, 1) ON CONFLICT (account_id, period) ' +
          'DO UPDATE SET used = credit_usage.used + excluded.used, requests = credit_usage.requests + 1 RETURNING used',
        args,
      );
    }
    holds.add(account.accountId, max);
    return { debited: max, balance: balanceOf(account, period, Number(rows[0].used), opts.metering) };
  }

  const groupCommit = createGroupCommit<DebitRequest, DebitOutcome>(state, debitBatch, (batch) => {
    // A failed commit debited nothing: its holds must not make later calls wait for credits nobody holds.
    for (const d of batch) {
      if (d.held) holds.release(d.account.accountId, d.held);
      d.held = 0;
    }
  });

  /**
   * The debits of one group, in arrival order, in one transaction: each account's usage row is read once, each debit
   * decided by `creditsThatFit` on the use so far (its own earlier debits in the group included, and their holds), and the
   * row written once with the group's total. Exactly what the debits one after another would have decided.
   */
  async function debitBatch(tx: StateTx, batch: readonly DebitRequest[]): Promise<DebitOutcome[]> {
    const rows = new Map<string, { accountId: string; period: string; used: number; exists: boolean; added: number; requests: number }>();
    const outcomes: DebitOutcome[] = [];
    for (const d of batch) {
      const key = `${d.account.accountId}\u0000${d.period}`;
      let row = rows.get(key);
      if (!row) {
        const found = await tx.all('SELECT used FROM credit_usage WHERE account_id = $1 AND period = $2', [d.account.accountId, d.period]);
        row = {
          accountId: d.account.accountId,
          period: d.period,
          used: found.length ? Number(found[0].used) : 0,
          exists: found.length > 0,
          added: 0,
          requests: 0,
        };
        rows.set(key, row);
      }
      const used = row.used + row.added;
      const credits = creditsThatFit(d.account, used, d.max, d.min);
      if (credits === null) {
        outcomes.push({ short: used });
        continue;
      }
      row.added += credits;
      row.requests++;
      // Counted as held inside the store's queue, before any other statement can look.
      holds.add(d.account.accountId, credits);
      d.held = credits;
      outcomes.push({ debited: credits, balance: balanceOf(d.account, d.period, used + credits, opts.metering) });
    }
    for (const row of rows.values()) {
      if (!row.requests) continue;
      if (row.exists) {
        await tx.run('UPDATE credit_usage SET used = used + $3, requests = requests + $4 WHERE account_id = $1 AND period = $2', [
          row.accountId,
          row.period,
          row.added,
          row.requests,
        ]);
      } else {
        await tx.run('INSERT INTO credit_usage VALUES ($1, $2, $3, $4)', [row.accountId, row.period, row.added, row.requests]);
      }
    }
    return outcomes;
  }

  return {
    async balance(account: Account): Promise<Balance> {
      const period = billingPeriod(account, opts.now());
      return balanceOf(account, period, await usedIn(account.accountId, period), opts.metering);
    },

    /**
     * Reserves `credits` (held until release), or on a free plan its last credits when they cover `min`; throws
     * 402 insufficient_credits when a plan without overage cannot, once the calls in progress have settled.
     */
    async debit(account: Account, credits: number, min = credits): Promise<{ debited: number; balance: Balance }> {
      const period = billingPeriod(account, opts.now());
      const plan = PLANS[account.plan];
      const deadline = Date.now() + WAIT_FOR_HELD_MS;
      let woken = false;
      for (;;) {
        const seen = holds.generation(account.accountId);
        const r = await tryDebit(account, period, credits, min);
        if ('balance' in r) {
          if (woken) holds.wakeOne(account.accountId);
          return r;
        }
        // Credits came back since the try: look again before refusing.
        if (holds.generation(account.accountId) !== seen) continue;
        const held = holds.of(account.accountId);
        const wait = deadline - Date.now();
        if (held === 0 || wait <= 0) {
          if (woken) holds.wakeOne(account.accountId);
          const remain = Math.max(0, plan.included_credits - r.short);
          throw new ApiError(
            'insufficient_credits',
            `This call costs up to ${credits} credit(s) and ${remain} of the free plan's ${plan.included_credits} remain` +
              `${held ? ` (${held} more are held by calls still in progress)` : ''}; upgrade to a paid plan to continue.`,
          );
        }
        await holds.nextRelease(account.accountId, wait);
        woken = true;
      }
    },

    /** Ends a reservation of `held` credits, giving `refund` of them back; returns the balance after a refund. */
    async release(account: Account, held: number, refund: number): Promise<Balance | null> {
      const period = billingPeriod(account, opts.now());
      if (refund <= 0) {
        holds.release(account.accountId, held);
        return null;
      }
      let rows: Record<string, unknown>[];
      try {
        // The total after the refund comes back with it: no second statement to read it.
        rows = await state.all('UPDATE credit_usage SET used = greatest(0, used - $3) WHERE account_id = $1 AND period = $2 RETURNING used', [
          account.accountId,
          period,
          refund,
        ]);
      } finally {
        holds.release(account.accountId, held);
      }
      return balanceOf(account, period, rows.length ? Number(rows[0].used) : 0, opts.metering);
    },
  };
}

export type Meter = ReturnType<typeof createMeter>;

/**
 * The credits of one call: `reserve` debits the top of the endpoint's cost range once validation passed (so a 422
 * costs nothing), `settle` refunds down to the handler's final cost, `refund` returns everything on a failure.
 */
export function openCharge(meter: Meter, account: Account, range: { min: number; max: number }, metering: boolean) {
  let charged = 0;
  let afterDebit: Balance | null = null;
  return {
    async reserve(): Promise<void> {
      if (range.max > 0 && metering) {
        const r = await meter.debit(account, range.max, Math.max(1, range.min));
        afterDebit = r.balance;
        charged = r.debited;
      }
    },

    /**
     * The final charge (the handler's cost clamped to the range) and the credits remaining after it; ends the
     * reservation. With metering off nothing is read: the remaining credits are "unlimited" whatever was used (a
     * read of the store per call cost more than a group-committed debit: docs/read-path.md, "Per-request overhead").
     */
    async settle(finalCost: number | null): Promise<{ charged: number; remaining: Balance['remaining'] }> {
      // Never more than reserved: a free key's last call may have reserved only the credits left.
      const actual = charged ? Math.min(charged, Math.max(range.min, finalCost ?? range.max)) : 0;
      const held = charged;
      charged = 0;
      if (!held) return { charged: 0, remaining: metering ? (afterDebit ?? (await meter.balance(account))).remaining : 'unlimited' };
      if (actual === held) {
        // The debit already returned the balance: end the hold without another read.
        await meter.release(account, held, 0);
        return { charged: actual, remaining: (afterDebit ?? (await meter.balance(account))).remaining };
      }
      return { charged: actual, remaining: ((await meter.release(account, held, held - actual)) ?? (await meter.balance(account))).remaining };
    },

    /** The account's balance, read once per call: `settle` reports this reading when the call debited nothing. */
    async balance(): Promise<Balance> {
      afterDebit ??= await meter.balance(account);
      return afterDebit;
    },

    /** Gives back what the call holds; null when it holds nothing. A failed refund leaves the balance unknown. */
    async refund(): Promise<{ balance: Balance | null } | null> {
      if (!charged) return null;
      const held = charged;
      charged = 0;
      const balance = await meter.release(account, held, held).catch(() => null);
      return { balance };
    },
  };
}

export type Charge = ReturnType<typeof openCharge>;
