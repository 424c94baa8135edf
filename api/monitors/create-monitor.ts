import { createMonitorBody, monitorRecord } from '../../schemas/records/monitors.ts';
import { defineRoute } from '../core/endpoint.ts';
import { MONITORING_COST, MONITORING_SOURCE, single } from '../webhooks/envelope.ts';
import { createMonitor } from './monitor-service.ts';
import { MONITORS_TAG } from './route-params.ts';

export default defineRoute({
  method: 'post',
  path: '/v1/monitors',
  summary: 'Create a monitor',
  description:
    'Creates an `active` monitor. `target_type` is `ticker`, `cik`, `form` or `event_type`; `signals` are ' +
    'event types of the taxonomy ([] = all); `materiality` `low`/`medium`/`high` (default `low`). 400 for ' +
    'an invalid target_type or target_value (ticker: 1-10 of A-Z 0-9 . -; cik: 1-10 digits; form: 1-25 of A-Z 0-9 space . / -), ' +
    'a name with control characters, an unknown signal, or a webhook_endpoint_id that is not one of your endpoints.',
  tag: MONITORS_TAG,
  source: MONITORING_SOURCE,
  body: createMonitorBody,
  bodyErrorStatus: 400,
  record: monitorRecord,
  cost: MONITORING_COST,
  successStatus: 201,
  // 409 `conflict`: the account already holds the most monitors it may (1,000).
  errors: ['conflict'],
  async handler({ account, body, services }) {
    return single(await createMonitor(services.state, account!.accountId, body, services.now()));
  },
});
