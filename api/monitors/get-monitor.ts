import { monitorRecord } from '../../schemas/records/monitors.ts';
import { defineRoute } from '../core/endpoint.ts';
import { MONITORING_COST, MONITORING_SOURCE, single } from '../webhooks/envelope.ts';
import { getMonitor } from './monitor-service.ts';
import { monitorIdParam, MONITORS_TAG } from './route-params.ts';

export default defineRoute({
  method: 'get',
  path: '/v1/monitors/{monitor_id}',
  summary: 'One monitor',
  description: '404 when no monitor with that id belongs to your account.',
  tag: MONITORS_TAG,
  source: MONITORING_SOURCE,
  pathParams: monitorIdParam,
  record: monitorRecord,
  cost: MONITORING_COST,
  async handler({ account, path, services }) {
    return single(await getMonitor(services.state, account!.accountId, path.monitor_id!));
  },
});
