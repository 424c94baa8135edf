import { alertRecord } from '../../schemas/records/alerts.ts';
import { defineRoute } from '../core/endpoint.ts';
import { p, pagingParams } from '../core/params.ts';
import { MONITORING_SOURCE } from '../webhooks/envelope.ts';
import { pageOf, readCursor } from '../webhooks/paging.ts';
import { listAlerts } from './alert-service.ts';

export default defineRoute({
  method: 'get',
  path: '/v1/alerts',
  summary: 'Alerts of your monitors',
  description: 'One alert per monitor and matching event, newest first, with the event embedded as it was when the alert fired.',
  tag: 'Monitors',
  source: MONITORING_SOURCE,
  params: { monitor_id: p.str({ description: 'Only alerts of this monitor.' }), ...pagingParams() },
  record: alertRecord,
  cost: 1,
  async handler({ account, query, services }) {
    const filters = { monitor_id: query.monitor_id };
    const after = readCursor(services, '/v1/alerts', filters, query.cursor);
    const r = await listAlerts(services.state, account!.accountId, query.monitor_id, query.limit!, after);
    return pageOf(services, '/v1/alerts', filters, query.limit!, r);
  },
});
