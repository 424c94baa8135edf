import { z } from 'zod';

/** One alert: a monitor matched an event (docs/api-contract.md: Monitors). */
export const alertRecord = z.object({
  id: z.string().describe('UUID'),
  monitor_id: z.string(),
  event_id: z.string(),
  delivery_id: z.string().nullable().describe('The webhook delivery created with the alert, if the monitor has an endpoint'),
  created_at: z.string(),
  event: z.record(z.string(), z.unknown()).describe('The event record as it was when the alert fired'),
});
export type AlertRecord = z.infer<typeof alertRecord>;
