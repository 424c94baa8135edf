import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import PQueue from 'p-queue';
import { REAL_SEC_HOSTS, type Settings } from '../../../schemas/settings.ts';

/**
 * The one HTTP client of the project (ingesters and live API routes share it): declared User-Agent,
 * at most SEC_MAX_RPS requests/second, retries with exponential backoff, a per-host pause on throttling,
 * time-outs on every call, and a raw cache on disk.
 */

export class UpstreamError extends Error {
  constructor(
    message: string,
    readonly kind: 'not_found' | 'throttled' | 'timeout' | 'unavailable' | 'http',
    readonly status: number | null,
    readonly url: string,
  ) {
    super(message);
  }
}

/**
 * A request that cannot be made because a setting it needs is missing: nothing was sent, so it is the deployment's
 * configuration at fault, not the upstream (the API answers 503 `not_configured`, naming `setting`).
 */
export class NotConfiguredError extends Error {
  constructor(
    message: string,
    readonly setting: string,
  ) {
    super(message);
  }
}

export interface FetchOptions {
  /** Where to keep the body: `raw` caches under data/raw/ (a rerun reads it back), `none` does not. */
  cache?: 'raw' | 'none';
  /** Re-download even when cached (index files that change daily). */
  refresh?: boolean;
  accept?: string;
  timeoutMs?: number;
  /** When the host is paused after throttling: ingesters wait, live API calls fail fast. */
  whenPaused?: 'wait' | 'fail';
  retries?: number;
}

export interface FetchResult {
  status: number;
  body: Buffer;
  contentType: string | null;
  fromCache: boolean;
  /** Local file path when cached. */
  path: string | null;
}

export interface HttpClient {
  get(url: string, opts?: FetchOptions): Promise<FetchResult>;
  /** Streams a (possibly large) file into the raw cache and returns its local path; never buffers it whole. */
  download(url: string, opts?: FetchOptions): Promise<string>;
  cachePath(url: string): string;
  pausedUntil(host: string): number;
}

const THROTTLE_BODY = /Request Rate Threshold Exceeded|Undeclared Automated Tool/i;

/** A URL path decoded for its cache file name; a malformed escape stays as written (never a thrown URIError). */
function decodedPath(pathname: string): string {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return pathname;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

export function createHttpClient(settings: Settings, queue?: PQueue): HttpClient {
  const limiter = queue ?? new PQueue({ intervalCap: Math.max(1, Math.floor(settings.SEC_MAX_RPS)), interval: 1000 / Math.min(1, settings.SEC_MAX_RPS) });
  const paused = new Map<string, number>();

  function cachePath(url: string): string {
    const u = new URL(url);
    let p = decodedPath(u.pathname).replace(/\.\.+/g, '_');
    if (p.endsWith('/')) p += 'index';
    if (u.search) p += `__${createHash('sha1').update(u.search).digest('hex').slice(0, 12)}`;
    return join(settings.rawDir, `${u.hostname}_${u.port || 'default'}`, p);
  }

  function headersFor(url: string, accept?: string): Record<string, string> {
    const host = new URL(url).hostname;
    if (REAL_SEC_HOSTS.includes(host) && !settings.SEC_USER_AGENT) {
      throw new NotConfiguredError(
        `SEC_USER_AGENT is not set: the regulator requires a declared User-Agent such as "Example Corp admin@example.com" (set it in the environment)`,
        'SEC_USER_AGENT',
      );
    }
    return {
      'User-Agent': settings.SEC_USER_AGENT ?? 'filings-lake/0.1 (local development)',
      'Accept-Encoding': 'gzip, deflate',
      ...(accept ? { Accept: accept } : {}),
    };
  }

  async function waitIfPaused(url: string, opts: FetchOptions): Promise<void> {
    const host = new URL(url).host;
    const until = paused.get(host) ?? 0;
    if (until > Date.now()) {
      if (opts.whenPaused === 'fail') {
        throw new UpstreamError(`upstream ${host} throttled us; paused until ${new Date(until).toISOString()}`, 'throttled', 429, url);
      }
      await sleep(until - Date.now());
    }
  }

  /** One request with retries; returns the Response for the caller to consume. */
  async function request(url: string, opts: FetchOptions): Promise<Response> {
    const retries = opts.retries ?? settings.HTTP_RETRIES;
    const host = new URL(url).host;
    let attempt = 0;
    for (;;) {
      await waitIfPaused(url, opts);
      let res: Response;
      try {
        res = (await limiter.add(() =>
          fetch(url, { headers: headersFor(url, opts.accept), redirect: 'follow', signal: AbortSignal.timeout(opts.timeoutMs ?? settings.HTTP_TIMEOUT_MS) }),
        )) as Response;
      } catch (err) {
        if (err instanceof UpstreamError || err instanceof NotConfiguredError) throw err;
        const timedOut = (err as Error).name === 'TimeoutError' || (err as Error).name === 'AbortError';
        if (attempt >= retries) {
          throw new UpstreamError(
            `${timedOut ? 'timed out' : 'network error'} fetching ${url}: ${(err as Error).message}`,
            timedOut ? 'timeout' : 'unavailable',
            null,
            url,
          );
        }
        await sleep(backoff(attempt++));
        continue;
      }
      if (res.ok) return res;
      if (res.status === 404 || res.status === 410) {
        await res.body?.cancel();
        throw new UpstreamError(`not found upstream: ${url}`, 'not_found', res.status, url);
      }
      if (res.status === 403 || res.status === 429) {
        const text = await res.text();
        // S3-backed objects that do not exist answer 403 with an XML error, not a throttling page.
        if (res.status === 403 && /NoSuchKey|AccessDenied<\/Code>/.test(text) && !THROTTLE_BODY.test(text)) {
          throw new UpstreamError(`not found upstream: ${url}`, 'not_found', 404, url);
        }
        if (res.status === 429 || THROTTLE_BODY.test(text)) {
          paused.set(host, Date.now() + settings.THROTTLE_PAUSE_MS);
          if (opts.whenPaused === 'fail' || attempt >= retries) {
            throw new UpstreamError(`upstream ${host} throttled the request (HTTP ${res.status})`, 'throttled', res.status, url);
          }
          attempt++;
          continue;
        }
        throw new UpstreamError(`upstream refused ${url} (HTTP ${res.status})`, 'http', res.status, url);
      }
      if (res.status >= 500 && attempt < retries) {
        const retryAfter = Number(res.headers.get('retry-after'));
        await res.body?.cancel();
        await sleep(Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : backoff(attempt));
        attempt++;
        continue;
      }
      await res.body?.cancel();
      throw new UpstreamError(`upstream answered HTTP ${res.status} for ${url}`, res.status >= 500 ? 'unavailable' : 'http', res.status, url);
    }
  }

  async function writeAtomically(path: string, body: ReadableStream<Uint8Array> | null): Promise<void> {
    await mkdir(dirname(path), { recursive: true });
    const tmp = `${path}.part-${randomUUID()}`;
    try {
      await pipeline(Readable.fromWeb((body ?? new Response('').body!) as never), createWriteStream(tmp));
      await rename(tmp, path);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }

  return {
    cachePath,
    pausedUntil: (host) => paused.get(host) ?? 0,

    async get(url, opts = {}) {
      const cache = opts.cache ?? 'none';
      if (cache === 'raw') {
        const path = cachePath(url);
        if (!opts.refresh && existsSync(path)) {
          return { status: 200, body: await readFile(path), contentType: null, fromCache: true, path };
        }
        const res = await request(url, opts);
        const contentType = res.headers.get('content-type');
        await writeAtomically(path, res.body);
        return { status: res.status, body: await readFile(path), contentType, fromCache: false, path };
      }
      const res = await request(url, opts);
      const contentType = res.headers.get('content-type');
      const body = Buffer.from(await res.arrayBuffer());
      return { status: res.status, body, contentType, fromCache: false, path: null };
    },

    async download(url, opts = {}) {
      const path = cachePath(url);
      if (!opts.refresh && existsSync(path) && (await stat(path)).isFile()) return path;
      const res = await request(url, opts);
      await writeAtomically(path, res.body);
      return path;
    },
  };
}

function backoff(attempt: number): number {
  const base = Math.min(60_000, 500 * 2 ** attempt);
  return base / 2 + Math.random() * (base / 2);
}
