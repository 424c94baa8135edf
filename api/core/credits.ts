import { ApiError } from './errors.ts';
import { PLANS } from '../../schemas/plans.ts';
import type { Account } from './auth.ts';
import type { StateStore } from './state.ts';

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

/**
 * The meter. A debit is one conditional UPDATE inside the state store's single queue, so 200 concurrent
 * requests cannot overdraw: the free plan is refused at its allowance (402), paid plans run into recorded
 * overage. A call reserves the top of its cost range first; the handler's final cost and failures are refunded.
 */
export function createMeter(state: StateStore, opts: { metering: boolean; now: () => Date }) {
  async function usedIn(accountId: string, period: string): Promise<number> {
    const rows = await state.all('SELECT used FROM credit_usage WHERE account_id = $1 AND period = $2', [accountId, period]);
    return rows.length ? Number(rows[0].used) : 0;
  }

  return {
    async balance(account: Account): Promise<Balance> {
      const period = billingPeriod(account, opts.now());
      return balanceOf(account, period, await usedIn(account.accountId, period), opts.metering);
    },

    /** Reserves `credits`; throws 402 insufficient_credits when a plan without overage cannot cover them. */
    async debit(account: Account, credits: number): Promise<Balance> {
      const period = billingPeriod(account, opts.now());
      const plan = PLANS[account.plan];
      return state.transaction(async (tx) => {
        const rows = await tx.all('SELECT used FROM credit_usage WHERE account_id = $1 AND period = $2', [account.accountId, period]);
        const used = rows.length ? Number(rows[0].used) : 0;
        if (opts.metering && plan.one_time && used + credits > plan.included_credits) {
          throw new ApiError(
            'insufficient_credits',
            `This call costs ${credits} credit(s) and ${Math.max(0, plan.included_credits - used)} of the ` +
              `free plan's ${plan.included_credits} remain; upgrade to a paid plan to continue.`,
          );
        }
        if (rows.length) {
          await tx.run('UPDATE credit_usage SET used = used + $3, requests = requests + 1 WHERE account_id = $1 AND period = $2', [
            account.accountId,
            period,
            credits,
          ]);
        } else {
          await tx.run('INSERT INTO credit_usage VALUES ($1, $2, $3, 1)', [account.accountId, period, credits]);
        }
        return balanceOf(account, period, used + credits, opts.metering);
      });
    },

    async refund(account: Account, credits: number): Promise<Balance> {
      const period = billingPeriod(account, opts.now());
      if (credits > 0) {
        await state.run('UPDATE credit_usage SET used = greatest(0, used - $3) WHERE account_id = $1 AND period = $2', [account.accountId, period, credits]);
      }
      return balanceOf(account, period, await usedIn(account.accountId, period), opts.metering);
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
        afterDebit = await meter.debit(account, range.max);
        charged = range.max;
      }
    },

    /** The final charge (the handler's cost clamped to the range) and the balance after it. */
    async settle(finalCost: number | null): Promise<{ charged: number; balance: Balance }> {
      const actual = charged ? Math.min(range.max, Math.max(range.min, finalCost ?? range.max)) : 0;
      // The debit already returned the balance; only a refund (or no debit at all) needs another read.
      const balance = charged && actual < charged ? await meter.refund(account, charged - actual) : (afterDebit ?? (await meter.balance(account)));
      charged = actual;
      return { charged: actual, balance };
    },

    /** Gives back what the call holds; null when it holds nothing. A failed refund leaves the balance unknown. */
    async refund(): Promise<{ balance: Balance | null } | null> {
      if (!charged) return null;
      const balance = await meter.refund(account, charged).catch(() => null);
      charged = 0;
      return { balance };
    },
  };
}

export type Charge = ReturnType<typeof openCharge>;
