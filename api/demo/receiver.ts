import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { verifyWebhookSignature } from '../webhooks/verifier.ts';

/**
 * The demo's webhook receiver: a small HTTPS server on loopback that accepts signed deliveries on `POST /hook`,
 * checks each signature with the endpoint's secret exactly as a customer's receiver would (the project's
 * `verifyWebhookSignature`), and lists what it received, newest first, at `GET /deliveries`.
 */

export interface ReceivedDelivery {
  received_at: string;
  delivery_id: string | null;
  attempt_id: string | null;
  event_id: string | null;
  type: string | null;
  summary: string | null;
  signature_verified: boolean;
  /** Why verification failed (`bad_signature`, `stale_timestamp`, `no_secret`…); null when verified. */
  failure: string | null;
}

export interface DemoReceiver {
  /** `https://localhost:{port}`. */
  url: string;
  received: ReceivedDelivery[];
  close(): Promise<void>;
}

/** At most this many deliveries are kept for the listing (the oldest are dropped). */
const KEEP = 200;

export async function startDemoReceiver(opts: {
  tls: { key: string; cert: string };
  port?: number;
  /** The endpoint secret to verify with, read at each delivery (a new `make demo` writes a new one). */
  secret: () => string | null;
  /** Where the listing is kept, so a restarted server still shows the deliveries sent before (`make demo` clears it). */
  listingFile?: string;
  now?: () => Date;
}): Promise<DemoReceiver> {
  const file = opts.listingFile;
  const received: ReceivedDelivery[] = file && existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { data: ReceivedDelivery[] }).data : [];
  let saved: Promise<void> = Promise.resolve();
  const server: Server = createServer(opts.tls, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0];
      if (req.method === 'GET' && path === '/deliveries') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: received }, null, 2));
        return;
      }
      if (req.method !== 'POST' || path !== '/hook') {
        res.writeHead(404).end();
        return;
      }
      const raw = Buffer.concat(chunks);
      const secret = opts.secret();
      const check = secret
        ? verifyWebhookSignature({
            secret,
            timestamp: req.headers['svc-timestamp'] as string | undefined,
            signature: req.headers['svc-signature'] as string | undefined,
            rawBody: raw,
            now: opts.now?.(),
          })
        : ({ ok: false, reason: 'no_secret' } as const);
      let body: { delivery_id?: string; type?: string; event?: { id?: string; summary?: string } } = {};
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        /* listed with nulls: the signature result still says what happened */
      }
      received.unshift({
        received_at: (opts.now?.() ?? new Date()).toISOString(),
        delivery_id: body.delivery_id ?? null,
        attempt_id: (req.headers['svc-delivery-id'] as string | undefined) ?? null,
        event_id: body.event?.id ?? null,
        type: body.type ?? null,
        summary: body.event?.summary ?? null,
        signature_verified: check.ok,
        failure: check.ok ? null : check.reason,
      });
      received.length = Math.min(received.length, KEEP);
      if (file) saved = saved.then(() => writeFile(file, JSON.stringify({ data: received }))).catch(() => {});
      res.writeHead(check.ok ? 204 : 401).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', resolve);
  });
  return {
    url: `https://localhost:${(server.address() as AddressInfo).port}`,
    received,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await saved;
    },
  };
}
