import { z } from 'zod';
import { defineRoute } from '../core/endpoint.ts';
import { PLANS } from '../../schemas/plans.ts';

/** Service and account endpoints (docs/api-contract.md: Service endpoints). */

const Health = z.object({
  status: z.enum(['ok', 'degraded']),
  lake: z.object({ reachable: z.boolean(), tables: z.number().int() }),
  state_store: z.object({ reachable: z.boolean() }),
  version: z.string(),
  time: z.string(),
});

const healthz = defineRoute({
  method: 'get',
  path: '/healthz',
  summary: 'Liveness and reachability of the lake and the state store',
  description: 'Public. HTTP 200 when both are reachable, 503 otherwise.',
  tag: 'Service',
  source: 'svc',
  auth: false,
  shape: 'raw',
  record: Health,
  async handler({ services, res }) {
    const [lakeOk, stateOk] = await Promise.all([services.lake.ping(), services.state.ping()]);
    const catalog = lakeOk ? await services.lake.catalog() : [];
    const body = {
      status: lakeOk && stateOk ? 'ok' : 'degraded',
      lake: { reachable: lakeOk, tables: catalog.length },
      state_store: { reachable: stateOk },
      version: '0.1.0',
      time: services.now().toISOString(),
    };
    if (!(lakeOk && stateOk)) {
      res.status(503).json(body);
    }
    return body;
  },
});

const Balance = z.object({
  account_id: z.string(),
  key_id: z.string(),
  key_name: z.string().nullable(),
  plan: z.string().describe('free | starter | builder | pro | scale | business | enterprise'),
  plan_name: z.string(),
  monthly_price_usd: z.number().nullable(),
  billing_period: z.string().describe('YYYY-MM for paid plans; "lifetime" for the one-time free allowance'),
  metering: z.enum(['on', 'off']),
  credits_included: z.union([z.number().int(), z.literal('unlimited')]),
  credits_used: z.number().int(),
  credits_remaining: z.union([z.number().int(), z.literal('unlimited')]),
  overage_credits: z.number().int(),
  overage_per_1000_usd: z.number().nullable(),
  overage_cost_usd: z.number().nullable(),
});

const account = defineRoute({
  method: 'get',
  path: '/v1/account',
  summary: 'Plan and remaining credits of the calling key',
  description: 'Costs nothing. With METERING=off, credits read "unlimited".',
  tag: 'Service',
  source: 'svc_account',
  cost: 0,
  record: Balance,
  async handler({ services, account }) {
    const a = account!;
    const b = await services.meter.balance(a);
    const plan = PLANS[a.plan];
    return {
      data: [{
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
      }],
      as_of: services.now().toISOString(),
      source: 'svc_account',
      query_echo: {},
      warnings: [],
    };
  },
});

const Source = z.object({
  table: z.string().describe('Lake table and SQL view name'),
  dataset: z.string().describe('Ingester that writes it (`npm run ingest -- <dataset>`)'),
  description: z.string(),
  source: z.string(),
  source_urls: z.array(z.string()),
  record_count: z.number().int(),
  last_refresh: z.string().nullable(),
  partition_key: z.string(),
  partitions: z.array(z.object({ value: z.string(), rows: z.number().int(), refreshed_at: z.string(), parser_version: z.number().int() })),
});

const sources = defineRoute({
  method: 'get',
  path: '/v1/sources',
  summary: 'The dataset catalog: record counts, last refresh times, sources',
  description: 'Public.',
  tag: 'Service',
  source: 'svc_catalog',
  auth: false,
  record: Source,
  async handler({ services }) {
    const catalog = await services.lake.catalog();
    const data = catalog.map((e) => ({
      table: e.table,
      dataset: e.dataset,
      description: e.description,
      source: e.source,
      source_urls: e.source_urls,
      record_count: e.record_count,
      last_refresh: e.last_refresh,
      partition_key: e.partition_key,
      partitions: e.partitions.map((p) => ({ value: p.value, rows: p.rows, refreshed_at: p.refreshed_at, parser_version: p.parser_version })),
    }));
    const newest = data.map((d) => d.last_refresh).filter((x): x is string => !!x).sort().pop() ?? null;
    return { data, page: { limit: Math.max(1, data.length), next_cursor: null, has_more: false }, as_of: newest, source: 'svc_catalog', query_echo: {}, warnings: [] };
  },
});

export default [healthz, account, sources];
