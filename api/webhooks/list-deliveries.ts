import { DELIVERY_STATUSES, deliveryRecord } from '../../schemas/records/webhooks.ts';
import { defineRoute } from '../core/endpoint.ts';
import { p, pagingParams } from '../core/params.ts';
import { listDeliveries } from './delivery-service.ts';
import { MONITORING_COST, MONITORING_SOURCE } from './envelope.ts';
import { pageOf, readCursor } from './paging.ts';
import { WEBHOOKS_TAG } from './route-params.ts';

export default defineRoute({
  method: 'get',
  path: '/v1/webhooks/deliveries',
  summary: 'Recent deliveries to your endpoints',
  description: 'Newest first. Filters: `status`, `endpoint_id`, `monitor_id`.',
  tag: WEBHOOKS_TAG,
  source: MONITORING_SOURCE,
  params: {
    status: p.enum(DELIVERY_STATUSES, { description: 'pending | success | failed' }),
    endpoint_id: p.str({ description: 'Only deliveries to this endpoint.' }),
    monitor_id: p.str({ description: 'Only deliveries of this monitor.' }),
    ...pagingParams(),
  },
  record: deliveryRecord,
  cost: MONITORING_COST,
  async handler({ account, query, services }) {
    const filters = { status: query.status, endpoint_id: query.endpoint_id, monitor_id: query.monitor_id };
    const after = readCursor(services, '/v1/webhooks/deliveries', filters, query.cursor);
    const r = await listDeliveries(services.state, account!.accountId, filters, query.limit!, after);
    return pageOf(services, '/v1/webhooks/deliveries', filters, query.limit!, r);
  },
});
