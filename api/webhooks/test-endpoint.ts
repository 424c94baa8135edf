import { deliveryRecord } from '../../schemas/records/webhooks.ts';
import { defineRoute } from '../core/endpoint.ts';
import { getDelivery } from './delivery-service.ts';
import { queueTestDelivery } from './endpoint-service.ts';
import { MONITORING_COST, MONITORING_SOURCE, single } from './envelope.ts';
import { endpointIdParam, WEBHOOKS_TAG } from './route-params.ts';

export default defineRoute({
  method: 'post',
  path: '/v1/webhooks/endpoints/{endpoint_id}/test',
  summary: 'Send a signed test delivery',
  description: 'Queues a delivery of type `webhook.test` (monitor_id null, synthetic event) that follows the normal schedule; returns it.',
  tag: WEBHOOKS_TAG,
  source: MONITORING_SOURCE,
  pathParams: endpointIdParam,
  record: deliveryRecord,
  cost: MONITORING_COST,
  errors: ['conflict'],
  successStatus: 202,
  async handler({ account, path, services }) {
    const id = await queueTestDelivery(services.state, account!.accountId, path.endpoint_id!, services.now());
    services.monitoring.kick();
    return single(await getDelivery(services.state, account!.accountId, id));
  },
});
