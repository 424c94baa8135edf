import { p } from '../core/params.ts';

export const WEBHOOKS_TAG = 'Webhooks';
export const endpointIdParam = { endpoint_id: p.str({ required: true, description: 'Webhook endpoint id (UUID).' }) };
