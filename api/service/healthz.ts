import { healthRecord } from '../../schemas/records/service.ts';
import { defineRoute } from '../core/endpoint.ts';
import { SOURCE } from '../../schemas/sources.ts';

export default defineRoute({
  method: 'get',
  path: '/healthz',
  summary: 'Liveness and reachability of the lake and the state store, and the live lane',
  description: 'Public. HTTP 200 when both are reachable, 503 otherwise.',
  tag: 'Service',
  source: SOURCE.svc,
  auth: false,
  shape: 'raw',
  record: healthRecord,
  otherStatuses: { 503: 'The lake or the state store is unreachable: the same body, with `status: "degraded"`.' },
  async handler({ services, res }) {
    const [lakeOk, stateOk] = await Promise.all([services.lake.ping(), services.state.ping()]);
    const catalog = lakeOk ? await services.lake.catalog() : [];
    const body = {
      status: lakeOk && stateOk ? 'ok' : 'degraded',
      lake: { reachable: lakeOk, tables: catalog.length },
      state_store: { reachable: stateOk },
      // The live lane's trouble is shown, not turned into a 503: the API still serves the lake.
      live: services.live.health(),
      version: '0.1.0',
      time: services.now().toISOString(),
    };
    if (!(lakeOk && stateOk)) {
      res.status(503).json(body);
    }
    return body;
  },
});
