import { PLANS } from '../../schemas/plans.ts';
import { balanceRecord } from '../../schemas/records/service.ts';
import { defineRoute } from '../core/endpoint.ts';
import { SOURCE } from '../../schemas/sources.ts';

export default defineRoute({
  method: 'get',
  path: '/v1/account',
  summary: 'Plan and remaining credits of the calling key',
  description: 'Costs nothing. With METERING=off, credits read "unlimited".',
  tag: 'Service',
  source: SOURCE.svc_account,
  cost: 0,
  record: balanceRecord,
  async handler({ services, account, balance }) {
    const a = account!;
    // Through the call's charge: the X-Credits-Remaining header reports this same reading.
    const b = await balance();
    const plan = PLANS[a.plan];
    return {
      data: [
        {
          account_id: a.accountId,
          key_id: a.keyId,
          key_name: a.keyName,
          plan: a.plan,
          plan_name: plan.name,
          monthly_price_usd: plan.monthly_price_usd,
          billing_period: b.period,
          metering: services.settings.METERING,
          credits_included: b.included,
          credits_used: b.used,
          credits_remaining: b.remaining,
          overage_credits: b.overage,
          overage_per_1000_usd: plan.overage_per_1000_usd,
          overage_cost_usd: b.overage_cost_usd,
        },
      ],
      as_of: services.now().toISOString(),
      source: SOURCE.svc_account,
      query_echo: {},
      warnings: [],
    };
  },
});
