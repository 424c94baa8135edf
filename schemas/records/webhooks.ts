import { z } from 'zod';

/** Webhook endpoints and deliveries (docs/api-contract.md: Webhooks). */

export const endpointRecord = z.object({
  id: z.string().describe('UUID'),
  url: z.string().describe('https URL deliveries are POSTed to'),
  secret: z.string().optional().describe('Signing secret; present only in the creation and rotation responses'),
  description: z.string(),
  status: z.enum(['active', 'disabled']).describe('`disabled` once the receiver answered 410 Gone'),
  previous_secret_expires_at: z.string().nullable().describe('End of the rotation overlap while the old secret still signs'),
  created_at: z.string(),
});
export type EndpointRecord = z.infer<typeof endpointRecord>;

export const createEndpointBody = z
  .object({
    url: z.string().max(2048),
    description: z.string().max(500).default(''),
  })
  .strict();

export const DELIVERY_STATUSES = ['pending', 'success', 'failed'] as const;

export const deliveryRecord = z.object({
  id: z.string().describe('Delivery id; the body member `delivery_id`. Each attempt has its own Svc-Delivery-Id header.'),
  endpoint_id: z.string(),
  monitor_id: z.string().nullable().describe('null for test deliveries'),
  alert_id: z.string().nullable(),
  event_id: z.string(),
  type: z.string().describe('The event type, or `webhook.test`'),
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.number().int(),
  response_status: z.number().int().nullable().describe('Status of the last answer the receiver gave'),
  last_error: z.string().nullable(),
  next_attempt_at: z.string().nullable().describe('When the next scheduled attempt is due (pending only)'),
  created_at: z.string(),
  updated_at: z.string(),
});
export type DeliveryRecord = z.infer<typeof deliveryRecord>;
