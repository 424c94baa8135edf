import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import service from '../../api/service/routes.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';

/**
 * The address gate before Express (api/core/address-gate.ts, #19): an address out of failed authentications gets a
 * 429 and then waits, its keep-alive socket paused and its new connections held, until the injected clock passes its
 * wait and the sweep runs. Raw sockets bound to distinct loopback addresses; no sleeps: each step waits on a condition
 * (an answer, the gate's held count), and "not answered" is checked after other addresses' calls went through.
 */

const BUDGET = { AUTH_FAILURE_BURST: '2', AUTH_FAILURE_RPS: '0.1' };
/** One token of the budget comes back every 10 s at 0.1/s: the Retry-After of an exhausted address. */
const WAIT_MS = 10_000;

function unknownKey(i: number): string {
  return `sk_live_${String(i).padStart(32, 'q')}`;
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A raw HTTP/1.1 client on one socket from `localAddress`: requests written as is, answers parsed by Content-Length. */
function rawClient(port: number, localAddress: string) {
  const socket: Socket = connect({ port, host: '127.0.0.1', localAddress });
  let buffer = Buffer.alloc(0);
  const answers: Answer[] = [];
  let closed = false;
  socket.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      const end = buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const [statusLine, ...lines] = buffer.subarray(0, end).toString('latin1').split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      const length = Number(headers['content-length'] ?? 0);
      if (buffer.length < end + 4 + length) return;
      answers.push({ status: Number(statusLine.split(' ')[1]), headers, body: buffer.subarray(end + 4, end + 4 + length).toString() });
      buffer = buffer.subarray(end + 4 + length);
    }
  });
  socket.on('error', () => {});
  socket.on('close', () => {
    closed = true;
  });
  return {
    answers,
    get closed() {
      return closed;
    },
    /** A GET, or a POST when `body` is given (HTTP drains an unread body, which resumes the socket). */
    send(key: string, body?: string) {
      const head = body === undefined ? 'GET' : 'POST';
      const length = body === undefined ? '' : `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`;
      socket.write(`${head} /v1/account HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${key}\r\n${length}\r\n${body ?? ''}`);
    },
    /** Sends and waits for the answer to this request. */
    async call(key: string, body?: string): Promise<Answer> {
      const n = answers.length;
      this.send(key, body);
      await vi.waitFor(() => expect(answers.length).toBeGreaterThan(n), { timeout: 5_000, interval: 5 });
      return answers[n];
    },
    async next(n: number): Promise<Answer> {
      await vi.waitFor(() => expect(answers.length).toBeGreaterThan(n), { timeout: 5_000, interval: 5 });
      return answers[n];
    },
    destroy: () => socket.destroy(),
  };
}

async function heldBecomes(app: TestApp, n: number): Promise<void> {
  await vi.waitFor(() => expect(app.gate.held).toBe(n), { timeout: 5_000, interval: 5 });
}

/** Other addresses go on being served: two tenant calls from 127.0.0.1 (also a full turn of the server's loop). */
async function othersServed(app: TestApp): Promise<void> {
  for (let i = 0; i < 2; i++) expect((await app.get('/v1/account')).status).toBe(200);
}

describe('the address gate', () => {
  let app: TestApp;
  let t = Date.parse('2026-01-05T12:00:00Z');
  let keyNo = 0;
  beforeAll(async () => {
    app = await createTestApp({ routes: service, now: () => new Date(t), env: BUDGET });
  });
  afterAll(() => app?.close());

  /** Spends an address's budget on a socket: 401, 401, then the gate's 429 (to a request with a body when `body`). */
  async function exhaust(client: ReturnType<typeof rawClient>, body?: string): Promise<Answer> {
    expect((await client.call(unknownKey(keyNo++))).status).toBe(401);
    expect((await client.call(unknownKey(keyNo++))).status).toBe(401);
    return client.call(unknownKey(keyNo++), body);
  }

  it('answers 429 and then does not read the same keep-alive socket until the clock passes the wait and the sweep runs', async () => {
    const attacker = rawClient(app.port, '127.0.0.2');
    const refused = await exhaust(attacker, '{"x":1}');
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('10');
    expect(JSON.parse(refused.body).error.code).toBe('rate_limited');
    await heldBecomes(app, 1);

    attacker.send(unknownKey(keyNo++));
    await othersServed(app);
    app.gate.sweep();
    expect(attacker.answers).toHaveLength(3);
    expect(app.gate.held).toBe(1);

    t += WAIT_MS;
    app.gate.sweep();
    expect((await attacker.next(3)).status).toBe(401);
    expect(app.gate.held).toBe(0);
    attacker.destroy();
  });

  it('holds a new connection from a limited address, unread, and releases it the same way', async () => {
    // 127.0.0.2 spent the token the last test gave back: it is limited again.
    const late = rawClient(app.port, '127.0.0.2');
    late.send(unknownKey(keyNo++));
    await heldBecomes(app, 1);
    await othersServed(app);
    app.gate.sweep();
    expect(late.answers).toHaveLength(0);
    expect(app.gate.counts.heldConnections).toBe(1);

    t += WAIT_MS;
    app.gate.sweep();
    expect((await late.next(0)).status).toBe(401);
    expect(app.gate.held).toBe(0);
    late.destroy();
  });

  it('forgets a held socket whose client gives up', async () => {
    const quitter = rawClient(app.port, '127.0.0.2');
    quitter.send(unknownKey(keyNo++));
    await heldBecomes(app, 1);
    quitter.destroy();
    await heldBecomes(app, 0);
  });

  it("leaves a tenant's existing connection alone; its new connection from the limited address waits", async () => {
    const tenant = rawClient(app.port, '127.0.0.3');
    expect((await tenant.call(app.key)).status).toBe(200);
    expect((await exhaust(tenant)).status).toBe(429);
    // The socket carried a valid key: answered, not paused.
    expect((await tenant.call(app.key)).status).toBe(200);
    expect(app.gate.held).toBe(0);

    const fresh = rawClient(app.port, '127.0.0.3');
    fresh.send(app.key);
    await heldBecomes(app, 1);
    t += WAIT_MS;
    app.gate.sweep();
    expect((await fresh.next(0)).status).toBe(200);
    tenant.destroy();
    fresh.destroy();
  });
});

describe('the address gate at its cap', () => {
  let app: TestApp;
  const t = Date.parse('2026-01-05T12:00:00Z');
  beforeAll(async () => {
    app = await createTestApp({ routes: service, now: () => new Date(t), env: BUDGET, gate: { maxHeld: 2 } });
  });
  afterAll(() => app?.close());

  it('holds at most maxHeld sockets and destroys new connections from limited addresses beyond it', async () => {
    const first = rawClient(app.port, '127.0.0.5');
    for (let i = 0; i < 2; i++) expect((await first.call(unknownKey(900 + i))).status).toBe(401);
    expect((await first.call(unknownKey(902))).status).toBe(429);
    await heldBecomes(app, 1);
    const second = rawClient(app.port, '127.0.0.5');
    await heldBecomes(app, 2);
    const third = rawClient(app.port, '127.0.0.5');
    await vi.waitFor(() => expect(third.closed).toBe(true), { timeout: 5_000, interval: 5 });
    expect(app.gate.counts.destroyed).toBe(1);
    expect(app.gate.held).toBe(2);
    await othersServed(app);
    first.destroy();
    second.destroy();
  });
});
