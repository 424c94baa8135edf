import { monitorRecord } from '../../schemas/records/monitors.ts';
import { defineRoute } from '../core/endpoint.ts';
import { DELETE_COST, MONITORING_SOURCE, single } from '../webhooks/envelope.ts';
import { deleteMonitor } from './monitor-service.ts';
import { monitorIdParam, MONITORS_TAG } from './route-params.ts';

export default defineRoute({
  method: 'delete',
  path: '/v1/monitors/{monitor_id}',
  summary: 'Delete a monitor',
  description: 'Removes the monitor and its alerts and returns the removed record; its deliveries still pending are closed as `failed`.',
  tag: MONITORS_TAG,
  source: MONITORING_SOURCE,
  pathParams: monitorIdParam,
  record: monitorRecord,
  cost: DELETE_COST,
  async handler({ account, path, services }) {
    return single(await deleteMonitor(services.state, account!.accountId, path.monitor_id!, services.now()));
  },
});
