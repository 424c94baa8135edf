/**
 * Per-key token bucket: `rate` tokens per second, burst of one second's worth. In memory: the limit protects
 * this process, which is the only one serving the key. `now` is the services' clock (milliseconds), so a burst
 * in a test is judged at one instant however slowly the machine serves it.
 */
export function createRateLimiter(rate: number, now: () => number) {
  const buckets = new Map<string, { tokens: number; at: number }>();
  const capacity = Math.max(1, rate);
  return {
    /** Takes a token; returns 0 when allowed, else the seconds to wait before one is available. */
    take(key: string): number {
      const t = now();
      const b = buckets.get(key) ?? { tokens: capacity, at: t };
      b.tokens = Math.min(capacity, b.tokens + ((t - b.at) / 1000) * rate);
      b.at = t;
      buckets.set(key, b);
      if (b.tokens >= 1) {
        b.tokens -= 1;
        return 0;
      }
      return Math.max(1, Math.ceil((1 - b.tokens) / rate));
    },
  };
}
