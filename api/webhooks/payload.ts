import type { EventDraft } from '../../schemas/events.ts';

/** The event as stored with an alert or delivery (docs/api-contract.md Event record, details and evidence parsed). */
export interface EventSnapshot
  extends Pick<EventDraft, 'event_type' | 'entity_cik' | 'entity_ticker' | 'entity_name' | 'accession' | 'summary' | 'details' | 'evidence'> {
  id: string;
  /** As read back from the lake: not narrowed to the writer's types. */
  importance: string;
  confidence: number | null;
  dedup_key: string | null;
  detected_at: string | null;
}

/**
 * Largest request body we send. Generous for one event (a few KiB typically) yet far below what common
 * receivers (API gateways: 1-10 MB) accept; evidence items are dropped from the end to fit.
 */
const MAX_PAYLOAD_BYTES = 256 * 1024;

/** Test deliveries carry this type and a synthetic event, so receivers can tell them apart. */
export const TEST_EVENT_TYPE = 'webhook.test';

/** The contract's request body (type, monitor_id, delivery_id, event{…}) as the exact bytes to sign and send. */
export function buildBody(args: { type: string; monitorId: string | null; deliveryId: string; event: EventSnapshot }): Buffer {
  const e = args.event;
  const make = (evidence: unknown[], truncated: boolean) =>
    Buffer.from(
      JSON.stringify({
        type: args.type,
        monitor_id: args.monitorId,
        delivery_id: args.deliveryId,
        event: {
          id: e.id,
          event_type: e.event_type,
          importance: e.importance,
          entity_name: e.entity_name,
          entity_cik: e.entity_cik,
          accession: e.accession,
          summary: e.summary,
          evidence,
          ...(truncated ? { evidence_truncated: true } : {}),
        },
      }),
      'utf8',
    );
  let body = make(e.evidence, false);
  let keep = e.evidence.length;
  while (body.length > MAX_PAYLOAD_BYTES && keep > 0) {
    keep = Math.floor(keep / 2);
    body = make(e.evidence.slice(0, keep), true);
  }
  return body;
}

export function testEvent(id: string, now: Date): EventSnapshot {
  return {
    id,
    event_type: TEST_EVENT_TYPE,
    importance: 'low',
    confidence: 1,
    entity_cik: null,
    entity_ticker: null,
    entity_name: null,
    accession: null,
    summary: 'Test delivery from the webhook endpoint test button',
    details: {},
    evidence: [],
    dedup_key: null,
    detected_at: now.toISOString(),
  };
}
