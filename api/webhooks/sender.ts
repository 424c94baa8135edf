import type { LookupAddress } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns/promises';
import { request } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { blockedAddressReason } from './address-guard.ts';

/** How much of a receiver's answer we read: only the status matters, the body is kept for the error text. */
const MAX_RESPONSE_BYTES = 4096;

export interface SendRequest {
  url: string;
  /** The exact bytes that were signed; sent unchanged. */
  body: Buffer;
  headers: Record<string, string>;
  timeoutMs: number;
  allowHosts: Set<string>;
  /** Extra trusted CA certificates (PEM): tests' self-signed receivers; production uses the system store. */
  ca?: string | string[];
  /** The resolver; defaults to the system's (tests inject one to return several addresses). */
  lookup?: HostLookup;
}

export interface SendOutcome {
  /** The receiver's status, when it answered. */
  status: number | null;
  /** Why the attempt failed (transport error, refusal, non-2xx summary), null on a 2xx. */
  error: string | null;
  /** First bytes of the response body, for the delivery log. */
  responseExcerpt: string;
}

/** An address the request may connect to. */
export interface Target {
  address: string;
  family: 4 | 6;
}

/**
 * Resolves the host now (not only when the endpoint was registered: DNS can change) and returns the addresses to
 * connect to, in the resolver's order. Each socket is then pinned to one of them, so a second resolution cannot
 * swap in a private one (DNS rebinding).
 */
export async function resolveTargets(hostname: string, allowHosts: Set<string>, lookup: HostLookup = systemLookup): Promise<Target[]> {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const allowed = allowHosts.has(host);
  const literal = isIP(host);
  const addresses = literal ? [{ address: host, family: literal }] : await lookup(host);
  if (addresses.length === 0) throw new Error(`host ${host} did not resolve`);
  if (!allowed) {
    // Refuse if ANY address is internal: a host resolving to both public and private addresses is a probe.
    for (const a of addresses) {
      const reason = blockedAddressReason(a.address);
      if (reason) throw new Error(`refused: ${host} resolves to ${reason}`);
    }
  }
  return addresses.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
}

/** The first address of resolveTargets (kept for callers that connect once). */
export async function resolveTarget(hostname: string, allowHosts: Set<string>): Promise<Target> {
  return (await resolveTargets(hostname, allowHosts))[0];
}

/** Resolves a host name to all its addresses. */
export type HostLookup = (host: string) => Promise<{ address: string; family: number }[]>;

/** The system resolver (getaddrinfo), every address in its order. */
export const systemLookup: HostLookup = (host) => dnsLookup(host, { all: true, verbatim: true });

/**
 * One HTTPS POST. Never throws: every failure becomes an outcome the scheduler records. When the connection to
 * one resolved address fails, the next one is tried (within the same time-out); once connected, no retry.
 */
export async function sendWebhook(req: SendRequest): Promise<SendOutcome> {
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    return { status: null, error: 'invalid url', responseExcerpt: '' };
  }
  if (url.protocol !== 'https:') return { status: null, error: 'refused: only https URLs are delivered', responseExcerpt: '' };
  const deadline = Date.now() + req.timeoutMs;
  let targets: Target[];
  try {
    targets = await resolveTargets(url.hostname, req.allowHosts, req.lookup);
  } catch (err) {
    return { status: null, error: (err as Error).message, responseExcerpt: '' };
  }
  let outcome: SendOutcome = { status: null, error: 'no address', responseExcerpt: '' };
  for (const [i, target] of targets.entries()) {
    const r = await postTo(url, target, req, Math.max(1, deadline - Date.now()));
    outcome = r.outcome;
    if (r.connected || i === targets.length - 1) break;
    outcome = { ...outcome, error: `${outcome.error} (${target.address}; trying the next address)` };
  }
  return outcome;
}

/** The request to one pinned address; `connected` tells whether the TCP connection was made. */
function postTo(url: URL, target: Target, req: SendRequest, timeoutMs: number): Promise<{ outcome: SendOutcome; connected: boolean }> {
  const pinned: LookupFunction = (_host, opts, cb) => {
    // Node calls a lookup with `all` for the list form and without it for one address; answer the form asked for.
    if ((opts as { all?: boolean }).all) (cb as (err: null, addresses: LookupAddress[]) => void)(null, [{ address: target.address, family: target.family }]);
    else (cb as (err: null, address: string, family: number) => void)(null, target.address, target.family);
  };
  let connected = false;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (o: SendOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ outcome: o, connected });
    };
    const r = request(
      {
        protocol: 'https:',
        hostname: url.hostname.replace(/^\[|\]$/g, ''),
        port: url.port || 443,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        headers: { ...req.headers, 'content-length': String(req.body.length) },
        lookup: pinned,
        // TLS still verifies the certificate against the URL's host name, not the pinned address.
        servername: isIP(url.hostname.replace(/^\[|\]$/g, '')) ? undefined : url.hostname,
        ca: req.ca,
        agent: false,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => {
          const excerpt = Buffer.concat(chunks).toString('utf8').slice(0, 512);
          if (status >= 200 && status < 300) finish({ status, error: null, responseExcerpt: excerpt });
          else if (status >= 300 && status < 400) finish({ status, error: `redirect not followed (HTTP ${status})`, responseExcerpt: excerpt });
          else finish({ status, error: `HTTP ${status}`, responseExcerpt: excerpt });
        };
        res.on('data', (c: Buffer) => {
          if (size >= MAX_RESPONSE_BYTES) return;
          chunks.push(c.subarray(0, MAX_RESPONSE_BYTES - size));
          size += c.length;
          // Enough read: the status is known and a huge or endless body must not hold the slot.
          if (size >= MAX_RESPONSE_BYTES) {
            done();
            res.destroy();
          }
        });
        res.on('end', done);
        res.on('error', () => done());
        res.on('close', done);
      },
    );
    r.on('socket', (socket) => socket.once('connect', () => (connected = true)));
    const timer = setTimeout(() => {
      // A time-out is final: the deadline covers every address tried.
      connected = true;
      r.destroy(new Error(`timed out after ${req.timeoutMs} ms`));
    }, timeoutMs);
    r.on('error', (err) => finish({ status: null, error: err.message, responseExcerpt: '' }));
    r.end(req.body);
  });
}
