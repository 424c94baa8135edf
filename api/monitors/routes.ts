import { defineRoute } from '../core/endpoint.ts';
import { p, pagingParams } from '../core/params.ts';
import { pageOf, readCursor } from '../webhooks/paging.ts';
import { monitorRecord } from './monitor-record.ts';
import { createMonitor, createMonitorBody, deleteMonitor, getMonitor, listMonitors, patchMonitor, patchMonitorBody } from './monitor-service.ts';

const SOURCE = 'svc_monitoring';
const TAG = 'Monitors';
/** Managing monitors reads no data: one credit per call, so "each call consumes credits" holds cheaply. */
const COST = 1;
const idParam = { monitor_id: p.str({ required: true, description: 'Monitor id (UUID).' }) };

export default [
  defineRoute({
    method: 'post',
    path: '/v1/monitors',
    summary: 'Create a monitor',
    description:
      'Creates an `active` monitor. `target_type` is `ticker`, `cik`, `form` or `event_type`; `signals` are event types of the taxonomy ([] = all); `materiality` `low`/`medium`/`high` (default `low`). 400 for an invalid target_type, an unknown signal, or a webhook_endpoint_id that is not one of your endpoints.',
    tag: TAG,
    source: SOURCE,
    body: createMonitorBody,
    bodyErrorStatus: 400,
    record: monitorRecord,
    cost: COST,
    successStatus: 201,
    async handler({ account, body, services }) {
      const m = await createMonitor(services.state, account!.accountId, body, services.now());
      return { data: [m], source: SOURCE, warnings: [] };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/monitors',
    summary: 'List your monitors',
    description: 'Newest first, cursor-paginated.',
    tag: TAG,
    source: SOURCE,
    params: pagingParams(),
    record: monitorRecord,
    cost: COST,
    async handler({ account, query, services }) {
      const after = readCursor(services, '/v1/monitors', {}, query.cursor);
      const r = await listMonitors(services.state, account!.accountId, query.limit!, after);
      return pageOf(services, '/v1/monitors', {}, query.limit!, r);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/monitors/{monitor_id}',
    summary: 'One monitor',
    description: '404 when no monitor with that id belongs to your account.',
    tag: TAG,
    source: SOURCE,
    pathParams: idParam,
    record: monitorRecord,
    cost: COST,
    async handler({ account, path, services }) {
      return { data: [await getMonitor(services.state, account!.accountId, path.monitor_id!)], source: SOURCE, warnings: [] };
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/v1/monitors/{monitor_id}',
    summary: 'Update a monitor (pause/resume with `status`)',
    description: 'Any of `name`, `status` (`active`/`paused`), `signals`, `materiality`, `webhook_endpoint_id` (null detaches). A paused monitor matches nothing.',
    tag: TAG,
    source: SOURCE,
    pathParams: idParam,
    body: patchMonitorBody,
    bodyErrorStatus: 400,
    record: monitorRecord,
    cost: COST,
    async handler({ account, path, body, services }) {
      const m = await patchMonitor(services.state, account!.accountId, path.monitor_id!, body, services.now());
      return { data: [m], source: SOURCE, warnings: [] };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/v1/monitors/{monitor_id}',
    summary: 'Delete a monitor',
    description: 'Removes the monitor and its alerts and returns the removed record; its deliveries still pending are closed as `failed`.',
    tag: TAG,
    source: SOURCE,
    pathParams: idParam,
    record: monitorRecord,
    cost: COST,
    async handler({ account, path, services }) {
      const m = await deleteMonitor(services.state, account!.accountId, path.monitor_id!, services.now());
      return { data: [m], source: SOURCE, warnings: [] };
    },
  }),
];
