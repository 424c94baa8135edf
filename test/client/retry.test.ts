import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFilingsClient, FilingsApiError, retryAfterMs } from '../../client/index.ts';

/**
 * 429 handling against a tiny loopback server whose answers the test scripts: Retry-After as seconds or as an HTTP
 * date, a bounded number of attempts, and a wait longer than the client accepts. The sleep and the clock are
 * injected, so nothing waits for real.
 */
const NOW = Date.parse('2026-01-05T10:00:00Z');

describe('retryAfterMs', () => {
  it('reads delta-seconds and HTTP dates; null when absent or unreadable', () => {
    expect(retryAfterMs('3', NOW)).toBe(3000);
    expect(retryAfterMs(' 0 ', NOW)).toBe(0);
    expect(retryAfterMs('Mon, 05 Jan 2026 10:00:07 GMT', NOW)).toBe(7000);
    expect(retryAfterMs('Mon, 05 Jan 2026 09:59:00 GMT', NOW)).toBe(0);
    expect(retryAfterMs(null, NOW)).toBeNull();
    expect(retryAfterMs('soon', NOW)).toBeNull();
  });
});

describe('the client retries 429 answers', () => {
  /** Answers to come, in order; once used up, 200 with an empty account body. */
  let script: { status: number; headers?: Record<string, string> }[] = [];
  const seen: { method?: string; body: string; auth?: string }[] = [];
  let server: Server;
  let baseUrl = '';

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen.push({ method: req.method, body, auth: req.headers.authorization });
        const next = script.shift() ?? { status: 200 };
        const payload =
          next.status === 200
            ? { data: [{ ok: true }], source: 'svc_account' }
            : { error: { code: 'rate_limited', message: 'Too many requests for this key; retry in 1 s' } };
        res.writeHead(next.status, { 'Content-Type': 'application/json', 'X-Credits-Charged': '0', ...next.headers });
        res.end(JSON.stringify(payload));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  function client(retry: { maxAttempts?: number; maxDelayMs?: number } = {}) {
    const slept: number[] = [];
    const c = createFilingsClient({ baseUrl, apiKey: 'sk_test', retry: { ...retry, sleep: async (ms) => void slept.push(ms), now: () => NOW } });
    return { c, slept };
  }

  it('waits the HTTP-date Retry-After, measured on the injected clock, then succeeds', async () => {
    script = [{ status: 429, headers: { 'Retry-After': 'Mon, 05 Jan 2026 10:00:02 GMT' } }];
    seen.length = 0;
    const { c, slept } = client();
    const body = await c.get('/v1/account');
    expect(body.data).toEqual([{ ok: true }]);
    expect(slept).toEqual([2000]);
    expect(seen.map((s) => s.auth)).toEqual(['Bearer sk_test', 'Bearer sk_test']);
  });

  it('sends a request body again on each attempt', async () => {
    script = [{ status: 429, headers: { 'Retry-After': '1' } }];
    seen.length = 0;
    const { c } = client();
    await c.post('/v1/webhooks/endpoints', { body: { url: 'https://example.test/hook' } });
    expect(seen.map((s) => [s.method, JSON.parse(s.body).url])).toEqual([
      ['POST', 'https://example.test/hook'],
      ['POST', 'https://example.test/hook'],
    ]);
  });

  it('gives up after maxAttempts, throwing the 429 as a FilingsApiError; without Retry-After the wait doubles', async () => {
    script = [{ status: 429 }, { status: 429 }, { status: 429 }];
    seen.length = 0;
    const { c, slept } = client({ maxAttempts: 3 });
    const err = await c.get('/v1/account').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FilingsApiError);
    expect(err).toMatchObject({ status: 429, code: 'rate_limited', credits: { charged: 0, remaining: null } });
    expect(seen).toHaveLength(3);
    expect(slept).toEqual([1000, 2000]);
  });

  it('does not sit out a wait longer than maxDelayMs', async () => {
    script = [{ status: 429, headers: { 'Retry-After': '3600' } }];
    seen.length = 0;
    const { c, slept } = client({ maxDelayMs: 60_000 });
    await expect(c.get('/v1/account')).rejects.toMatchObject({ status: 429, code: 'rate_limited' });
    expect(slept).toEqual([]);
    expect(seen).toHaveLength(1);
  });
});
