import { createEndpointBody, endpointRecord } from '../../schemas/records/webhooks.ts';
import { defineRoute } from '../core/endpoint.ts';
import { parseAllowHosts } from './address-guard.ts';
import { createEndpoint } from './endpoint-service.ts';
import { systemLookup } from './sender.ts';
import { MONITORING_COST, MONITORING_SOURCE, single } from './envelope.ts';
import { WEBHOOKS_TAG } from './route-params.ts';

export default defineRoute({
  method: 'post',
  path: '/v1/webhooks/endpoints',
  summary: 'Register a webhook endpoint',
  description:
    '`url` must be https, with no credentials, and its host must not be (or resolve to) an internal address ' +
    '(400 otherwise). The response carries the signing `secret`, shown only this once.',
  tag: WEBHOOKS_TAG,
  source: MONITORING_SOURCE,
  body: createEndpointBody,
  bodyErrorStatus: 400,
  record: endpointRecord,
  cost: MONITORING_COST,
  successStatus: 201,
  async handler({ account, body, services }) {
    const hostCheck = { allowHosts: parseAllowHosts(services.settings.WEBHOOK_ALLOW_HOSTS), lookup: systemLookup };
    return single(await createEndpoint(services.state, account!.accountId, body, services.now(), hostCheck));
  },
});
