import { monitorRecord, patchMonitorBody } from '../../schemas/records/monitors.ts';
import { defineRoute } from '../core/endpoint.ts';
import { MONITORING_COST, MONITORING_SOURCE, single } from '../webhooks/envelope.ts';
import { patchMonitor } from './monitor-service.ts';
import { monitorIdParam, MONITORS_TAG } from './route-params.ts';

export default defineRoute({
  method: 'patch',
  path: '/v1/monitors/{monitor_id}',
  summary: 'Update a monitor (pause/resume with `status`)',
  description:
    'Any of `name`, `status` (`active`/`paused`), `signals`, `materiality`, `webhook_endpoint_id` (null detaches). A paused monitor matches nothing.',
  tag: MONITORS_TAG,
  source: MONITORING_SOURCE,
  pathParams: monitorIdParam,
  body: patchMonitorBody,
  bodyErrorStatus: 400,
  record: monitorRecord,
  cost: MONITORING_COST,
  async handler({ account, path, body, services }) {
    return single(await patchMonitor(services.state, account!.accountId, path.monitor_id!, body, services.now()));
  },
});
