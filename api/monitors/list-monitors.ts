import { monitorRecord } from '../../schemas/records/monitors.ts';
import { defineRoute } from '../core/endpoint.ts';
import { pagingParams } from '../core/params.ts';
import { MONITORING_COST, MONITORING_SOURCE } from '../webhooks/envelope.ts';
import { pageOf, readCursor } from '../webhooks/paging.ts';
import { listMonitors } from './monitor-service.ts';
import { MONITORS_TAG } from './route-params.ts';

export default defineRoute({
  method: 'get',
  path: '/v1/monitors',
  summary: 'List your monitors',
  description: 'Newest first, cursor-paginated.',
  tag: MONITORS_TAG,
  source: MONITORING_SOURCE,
  params: pagingParams(),
  record: monitorRecord,
  cost: MONITORING_COST,
  async handler({ account, query, services }) {
    const after = readCursor(services, '/v1/monitors', {}, query.cursor);
    const r = await listMonitors(services.state, account!.accountId, query.limit!, after);
    return pageOf(services, '/v1/monitors', {}, query.limit!, r);
  },
});
