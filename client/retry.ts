/**
 * Retries of 429 answers. The API answers `rate_limited` with `Retry-After` in whole seconds; the header may also
 * be an HTTP date (RFC 9110 §10.2.3), which proxies in front of the API send. Without a usable header the wait
 * doubles from `baseDelayMs`.
 */
export interface RetryOptions {
  /** Total attempts of one call, the first included (default 4: up to three retries). 1 disables retries. */
  maxAttempts?: number;
  /** A wait longer than this is not sat out: the 429 is returned as an error at once (default 60 000 ms). */
  maxDelayMs?: number;
  /** First wait when the answer has no usable Retry-After (default 1000 ms), doubled on each retry. */
  baseDelayMs?: number;
  /** Injectable for tests: how to wait (default: a timer). */
  sleep?: (ms: number) => Promise<void>;
  /** Injectable for tests: the clock an HTTP-date Retry-After is measured against (default Date.now). */
  now?: () => number;
}

const defaults = { maxAttempts: 4, maxDelayMs: 60_000, baseDelayMs: 1000 };

/** Milliseconds to wait per a Retry-After value (delta-seconds or HTTP date); null when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number): number | null {
  if (header === null) return null;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** A fetch that sends the request again after a 429, waiting as the server asks, at most `maxAttempts` times in all. */
export function retryingFetch(base: (request: Request) => Promise<Response>, options: RetryOptions = {}): (request: Request) => Promise<Response> {
  const { maxAttempts, maxDelayMs, baseDelayMs } = { ...defaults, ...options };
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const now = options.now ?? Date.now;
  return async (request) => {
    for (let attempt = 1; ; attempt++) {
      // A request body can be read once: each attempt sends a copy.
      const response = await base(attempt < maxAttempts ? request.clone() : request);
      if (response.status !== 429 || attempt >= maxAttempts) return response;
      const wait = retryAfterMs(response.headers.get('Retry-After'), now()) ?? baseDelayMs * 2 ** (attempt - 1);
      if (wait > maxDelayMs) return response;
      await response.body?.cancel();
      await sleep(wait);
    }
  };
}
