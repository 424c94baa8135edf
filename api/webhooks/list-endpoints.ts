import { endpointRecord } from '../../schemas/records/webhooks.ts';
import { defineRoute } from '../core/endpoint.ts';
import { pagingParams } from '../core/params.ts';
import { listEndpoints } from './endpoint-service.ts';
import { MONITORING_COST, MONITORING_SOURCE } from './envelope.ts';
import { pageOf, readCursor } from './paging.ts';
import { WEBHOOKS_TAG } from './route-params.ts';

export default defineRoute({
  method: 'get',
  path: '/v1/webhooks/endpoints',
  summary: 'List your webhook endpoints',
  description: 'Newest first; secrets are never listed.',
  tag: WEBHOOKS_TAG,
  source: MONITORING_SOURCE,
  params: pagingParams(),
  record: endpointRecord,
  cost: MONITORING_COST,
  async handler({ account, query, services }) {
    const after = readCursor(services, '/v1/webhooks/endpoints', {}, query.cursor);
    const r = await listEndpoints(services.state, account!.accountId, query.limit!, after, services.now());
    return pageOf(services, '/v1/webhooks/endpoints', {}, query.limit!, r);
  },
});
