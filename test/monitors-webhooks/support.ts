import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A throwaway self-signed certificate for `localhost`/127.0.0.1, made at test time (no committed keys). */
export function makeCert(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'mw-cert-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface Received {
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
  path: string;
}

export type Responder = (r: Received) => { status: number; body?: string | Buffer; delayMs?: number; hang?: boolean };

/** A real HTTPS receiver on an ephemeral loopback port, recording every request with its raw bytes. */
export async function startReceiver(tls: { key: string; cert: string }, respond: Responder = () => ({ status: 200 })) {
  const received: Received[] = [];
  let responder = respond;
  const server: Server = createServer(tls, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: Received = { headers: req.headers, rawBody: Buffer.concat(chunks), path: req.url ?? '' };
      received.push(r);
      const out = responder(r);
      if (out.hang) return;
      const send = () => {
        res.statusCode = out.status;
        if (out.status >= 300 && out.status < 400) res.setHeader('location', 'https://169.254.169.254/latest');
        res.end(out.body ?? 'ok');
      };
      if (out.delayMs) setTimeout(send, out.delayMs);
      else send();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    url: `https://localhost:${port}/hook`,
    port,
    received,
    setResponder(r: Responder) {
      responder = r;
    },
    /** Drops every open connection (a hanging receiver's requests then fail at once). */
    closeConnections() {
      server.closeAllConnections();
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** The injectable clock: tests move time instead of waiting for it. */
export class TestClock {
  constructor(private t = Date.parse('2025-03-03T12:00:00.000Z')) {}
  now = (): Date => new Date(this.t);
  advance(ms: number): void {
    this.t += ms;
  }
}
