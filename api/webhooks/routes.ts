import { defineRoute } from '../core/endpoint.ts';
import { p, pagingParams } from '../core/params.ts';
import { monitoringRuntime } from '../monitors/runtime.ts';
import { deliveryRecord, DELIVERY_STATUSES, getDelivery, listDeliveries, retryDelivery } from './delivery-service.ts';
import { createEndpoint, createEndpointBody, deleteEndpoint, endpointRecord, listEndpoints, queueTestDelivery, rotateSecret } from './endpoint-service.ts';
import { pageOf, readCursor } from './paging.ts';

const SOURCE = 'svc_monitoring';
const TAG = 'Webhooks';
const COST = 1;
const endpointId = { endpoint_id: p.str({ required: true, description: 'Webhook endpoint id (UUID).' }) };
const one = <T>(r: T) => ({ data: [r], source: SOURCE, warnings: [] });

export default [
  defineRoute({
    method: 'post',
    path: '/v1/webhooks/endpoints',
    summary: 'Register a webhook endpoint',
    description: '`url` must be https (400 otherwise). The response carries the signing `secret`, shown only this once.',
    tag: TAG,
    source: SOURCE,
    body: createEndpointBody,
    bodyErrorStatus: 400,
    record: endpointRecord,
    cost: COST,
    successStatus: 201,
    async handler({ account, body, services }) {
      return one(await createEndpoint(services.state, account!.accountId, body, services.now()));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/webhooks/endpoints',
    summary: 'List your webhook endpoints',
    description: 'Newest first; secrets are never listed.',
    tag: TAG,
    source: SOURCE,
    params: pagingParams(),
    record: endpointRecord,
    cost: COST,
    async handler({ account, query, services }) {
      const after = readCursor(services, '/v1/webhooks/endpoints', {}, query.cursor);
      const r = await listEndpoints(services.state, account!.accountId, query.limit!, after, services.now());
      return pageOf(services, '/v1/webhooks/endpoints', {}, query.limit!, r);
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/v1/webhooks/endpoints/{endpoint_id}',
    summary: 'Delete a webhook endpoint',
    description: 'Pending deliveries to it are closed as `failed`; monitors pointing at it keep matching, without deliveries.',
    tag: TAG,
    source: SOURCE,
    pathParams: endpointId,
    record: endpointRecord,
    cost: COST,
    async handler({ account, path, services }) {
      return one(await deleteEndpoint(services.state, account!.accountId, path.endpoint_id!, services.now()));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/webhooks/endpoints/{endpoint_id}/rotate-secret',
    summary: 'Rotate the signing secret',
    description: 'Returns the new secret once. For 24 hours the previous secret signs alongside (a second `sha256=` entry in Svc-Signature).',
    tag: TAG,
    source: SOURCE,
    pathParams: endpointId,
    record: endpointRecord,
    cost: COST,
    async handler({ account, path, services }) {
      return one(await rotateSecret(services.state, account!.accountId, path.endpoint_id!, services.now()));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/webhooks/endpoints/{endpoint_id}/test',
    summary: 'Send a signed test delivery',
    description: 'Queues a delivery of type `webhook.test` (monitor_id null, synthetic event) that follows the normal schedule; returns it.',
    tag: TAG,
    source: SOURCE,
    pathParams: endpointId,
    record: deliveryRecord,
    cost: COST,
    successStatus: 202,
    async handler({ account, path, services }) {
      const id = await queueTestDelivery(services.state, account!.accountId, path.endpoint_id!, services.now());
      monitoringRuntime(services)?.kick();
      return one(await getDelivery(services.state, account!.accountId, id));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/webhooks/deliveries',
    summary: 'Recent deliveries to your endpoints',
    description: 'Newest first. Filters: `status`, `endpoint_id`, `monitor_id`.',
    tag: TAG,
    source: SOURCE,
    params: {
      status: p.enum(DELIVERY_STATUSES, { description: 'pending | success | failed' }),
      endpoint_id: p.str({ description: 'Only deliveries to this endpoint.' }),
      monitor_id: p.str({ description: 'Only deliveries of this monitor.' }),
      ...pagingParams(),
    },
    record: deliveryRecord,
    cost: COST,
    async handler({ account, query, services }) {
      const filters = { status: query.status, endpoint_id: query.endpoint_id, monitor_id: query.monitor_id };
      const after = readCursor(services, '/v1/webhooks/deliveries', filters, query.cursor);
      const r = await listDeliveries(services.state, account!.accountId, filters, query.limit!, after);
      return pageOf(services, '/v1/webhooks/deliveries', filters, query.limit!, r);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/webhooks/deliveries/{delivery_id}/retry',
    summary: 'Redeliver',
    description: 'A finished delivery (success or failed) is queued again at once with a fresh retry schedule. 409 while it is pending or when its endpoint is disabled or deleted.',
    tag: TAG,
    source: SOURCE,
    pathParams: { delivery_id: p.str({ required: true, description: 'Delivery id.' }) },
    record: deliveryRecord,
    cost: COST,
    successStatus: 202,
    async handler({ account, path, services }) {
      const d = await retryDelivery(services.state, account!.accountId, path.delivery_id!, services.now());
      monitoringRuntime(services)?.kick();
      return one(d);
    },
  }),
];
