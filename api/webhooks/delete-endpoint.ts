import { endpointRecord } from '../../schemas/records/webhooks.ts';
import { defineRoute } from '../core/endpoint.ts';
import { deleteEndpoint } from './endpoint-service.ts';
import { DELETE_COST, MONITORING_SOURCE, single } from './envelope.ts';
import { endpointIdParam, WEBHOOKS_TAG } from './route-params.ts';

export default defineRoute({
  method: 'delete',
  path: '/v1/webhooks/endpoints/{endpoint_id}',
  summary: 'Delete a webhook endpoint',
  description: 'Pending deliveries to it are closed as `failed`; monitors pointing at it keep matching, without deliveries.',
  tag: WEBHOOKS_TAG,
  source: MONITORING_SOURCE,
  pathParams: endpointIdParam,
  record: endpointRecord,
  cost: DELETE_COST,
  async handler({ account, path, services }) {
    return single(await deleteEndpoint(services.state, account!.accountId, path.endpoint_id!, services.now()));
  },
});
