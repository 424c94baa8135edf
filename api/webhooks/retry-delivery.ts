import { deliveryRecord } from '../../schemas/records/webhooks.ts';
import { defineRoute } from '../core/endpoint.ts';
import { p } from '../core/params.ts';
import { retryDelivery } from './delivery-service.ts';
import { MONITORING_COST, MONITORING_SOURCE, single } from './envelope.ts';
import { WEBHOOKS_TAG } from './route-params.ts';

export default defineRoute({
  method: 'post',
  path: '/v1/webhooks/deliveries/{delivery_id}/retry',
  summary: 'Redeliver',
  description:
    'A finished delivery (success or failed) is queued again at once with a fresh retry schedule. 409 ' +
    'while it is pending or when its endpoint is disabled or deleted.',
  tag: WEBHOOKS_TAG,
  source: MONITORING_SOURCE,
  pathParams: { delivery_id: p.str({ required: true, description: 'Delivery id.' }) },
  record: deliveryRecord,
  cost: MONITORING_COST,
  errors: ['conflict'],
  successStatus: 202,
  async handler({ account, path, services }) {
    const d = await retryDelivery(services.state, account!.accountId, path.delivery_id!, services.now());
    services.monitoring.kick();
    return single(d);
  },
});
