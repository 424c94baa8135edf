import { endpointRecord } from '../../schemas/records/webhooks.ts';
import { defineRoute } from '../core/endpoint.ts';
import { rotateSecret } from './endpoint-service.ts';
import { MONITORING_COST, MONITORING_SOURCE, single } from './envelope.ts';
import { endpointIdParam, WEBHOOKS_TAG } from './route-params.ts';

export default defineRoute({
  method: 'post',
  path: '/v1/webhooks/endpoints/{endpoint_id}/rotate-secret',
  summary: 'Rotate the signing secret',
  description: 'Returns the new secret once. For 24 hours the previous secret signs alongside (a second `sha256=` entry in Svc-Signature).',
  tag: WEBHOOKS_TAG,
  source: MONITORING_SOURCE,
  pathParams: endpointIdParam,
  record: endpointRecord,
  cost: MONITORING_COST,
  async handler({ account, path, services }) {
    return single(await rotateSecret(services.state, account!.accountId, path.endpoint_id!, services.now()));
  },
});
