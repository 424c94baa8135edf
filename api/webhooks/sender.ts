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
}

export interface SendOutcome {
  /** The receiver's status, when it answered. */
  status: number | null;
  /** Why the attempt failed (transport error, refusal, non-2xx summary), null on a 2xx. */
  error: string | null;
  /** First bytes of the response body, for the delivery log. */
  responseExcerpt: string;
}

/**
 * Resolves the host now (not when the endpoint was registered: DNS can change) and returns the address to
 * connect to. The socket is then pinned to that address, so a second resolution cannot swap in a private one
 * (DNS rebinding).
 */
export async function resolveTarget(hostname: string, allowHosts: Set<string>): Promise<{ address: string; family: 4 | 6 }> {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const allowed = allowHosts.has(host);
  const literal = isIP(host);
  const addresses = literal ? [{ address: host, family: literal }] : await dnsLookup(host, { all: true, verbatim: true });
  if (addresses.length === 0) throw new Error(`host ${host} did not resolve`);
  if (!allowed) {
    // Refuse if ANY address is internal: a host resolving to both public and private addresses is a probe.
    for (const a of addresses) {
      const reason = blockedAddressReason(a.address);
      if (reason) throw new Error(`refused: ${host} resolves to ${reason}`);
    }
  }
  const a = addresses[0];
  return { address: a.address, family: a.family === 6 ? 6 : 4 };
}

/** One HTTPS POST. Never throws: every failure becomes an outcome the scheduler records. */
export async function sendWebhook(req: SendRequest): Promise<SendOutcome> {
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    return { status: null, error: 'invalid url', responseExcerpt: '' };
  }
  if (url.protocol !== 'https:') return { status: null, error: 'refused: only https URLs are delivered', responseExcerpt: '' };
  let target: { address: string; family: 4 | 6 };
  try {
    target = await resolveTarget(url.hostname, req.allowHosts);
  } catch (err) {
    return { status: null, error: (err as Error).message, responseExcerpt: '' };
  }
  const pinned: LookupFunction = (_host, opts, cb) => {
    // Node calls a lookup with `all` for the list form and without it for one address; answer the form asked for.
    if ((opts as { all?: boolean }).all) (cb as (err: null, addresses: LookupAddress[]) => void)(null, [{ address: target.address, family: target.family }]);
    else (cb as (err: null, address: string, family: number) => void)(null, target.address, target.family);
  };

  return new Promise<SendOutcome>((resolve) => {
    let settled = false;
    const finish = (o: SendOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(o);
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
    const timer = setTimeout(() => {
      r.destroy(new Error(`timed out after ${req.timeoutMs} ms`));
    }, req.timeoutMs);
    r.on('error', (err) => finish({ status: null, error: err.message, responseExcerpt: '' }));
    r.end(req.body);
  });
}
