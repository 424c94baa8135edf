import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { addressExhausted, type RequestHead } from './auth.ts';

/**
 * A tarpit on the raw HTTP server, before Express (#19). Answering a flood's 429s in Express still cost the single
 * event loop HTTP parsing, the app and a JSON body per request: with 64 flood requests in flight, a tenant's call
 * waited one loop turn of ~64 of them at each of its ~8 async hops (p50 3.3 → 88 ms). So an address whose failed
 * authentications used up their budget (the authenticator's token bucket) is made to wait instead of answered:
 * - a request from it gets a small 429 (the standard error body) straight from the 'request' listener, then its keep-alive
 *   socket is paused (not read) until the address may try again;
 * - a new connection from it is held before HTTP sees it: its bytes are kept unparsed (a read, no parse, so a client
 *   that gives up is seen at once and forgotten) and handed to HTTP when the address may try again;
 * - at most `maxHeld` sockets are held in all; beyond it a limited address's new connection is destroyed at once.
 * A sweep on a timer (unref'd) releases the sockets whose address may try again; the decision reads the
 * authenticator's budget, i.e. the services' injected clock, and tests call `sweep()` themselves.
 * Untouched: every socket of an address that never ran out, and a socket that has carried a key known to be valid
 * (a tenant keeps its connections, even behind an attacker's address). The trade-off: a tenant sharing an attacker's
 * address waits at most the address's Retry-After for a NEW connection.
 */

/** Sockets held at once, both kinds; each costs a file descriptor and a few hundred bytes. */
const MAX_HELD_SOCKETS = 4_096;
/** How often held sockets are checked for release: Retry-After is whole seconds, so a quarter second late at most. */
const SWEEP_MS = 250;
/** Bytes a held new connection may send before HTTP reads them (a request head is ~200 B; past it, destroyed). */
const HELD_BYTES_MAX = 16 * 1024;

/** What the gate asks the authenticator (api/core/auth.ts). */
export interface GateAuth {
  retryAfter(req: RequestHead): number;
  addressWait(address: string): number;
  carriesKnownKey(req: RequestHead): boolean;
}

export interface GateOptions {
  maxHeld?: number;
  sweepMs?: number;
}

export interface AddressGate {
  /** Sockets held now (new connections and paused keep-alive sockets). */
  readonly held: number;
  /** What the gate did since it started: 429s answered, connections held, destroyed over the cap, released. */
  readonly counts: { refused: number; heldConnections: number; pausedSockets: number; destroyed: number; released: number };
  /** Releases the held sockets whose address may try again (the timer calls it; tests call it after moving the clock). */
  sweep(): void;
  /** Stops the timer and destroys the held sockets (the server is closing). */
  close(): void;
}

interface Hold {
  address: string;
  release(): void;
}

/**
 * Puts the gate on `server`, which must have been created without a request listener: `app` is called for the requests
 * the gate lets through. Takes over the server's own 'connection' listener so that a held connection reaches HTTP only
 * when released.
 */
export function installAddressGate(server: Server, app: RequestListener, auth: GateAuth, opts: GateOptions = {}): AddressGate {
  const maxHeld = opts.maxHeld ?? MAX_HELD_SOCKETS;
  const held = new Map<Socket, Hold>();
  const tenantSockets = new WeakSet<Socket>();
  const counts = { refused: 0, heldConnections: 0, pausedSockets: 0, destroyed: 0, released: 0 };

  const httpConnection = server.listeners('connection').find((l) => l.name === 'connectionListener') as ((s: Socket) => void) | undefined;
  if (!httpConnection) throw new Error("the address gate found no HTTP 'connection' listener to stand before");
  server.removeListener('connection', httpConnection);

  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (!address || auth.addressWait(address) === 0) return httpConnection.call(server, socket);
    if (held.size >= maxHeld) {
      counts.destroyed++;
      socket.destroy();
      return;
    }
    holdConnection(socket, address);
  });

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const wait = auth.retryAfter(req);
    if (wait === 0) {
      if (req.headers.authorization && !tenantSockets.has(req.socket)) rememberTenant(req, res);
      return app(req, res);
    }
    refuse(req, res, wait);
  });

  /** A socket that carried a valid key is a tenant's: it is never paused, whatever its address does later. */
  function rememberTenant(req: IncomingMessage, res: ServerResponse): void {
    res.once('finish', () => {
      if (auth.carriesKnownKey(req)) tenantSockets.add(req.socket);
    });
  }

  function refuse(req: IncomingMessage, res: ServerResponse, wait: number): void {
    counts.refused++;
    const socket = req.socket;
    const kept = tenantSockets.has(socket) || held.has(socket);
    const pause = !kept && held.size < maxHeld;
    const refusal = addressExhausted(wait);
    const body = JSON.stringify(refusal.body());
    res.writeHead(refusal.status, {
      ...refusal.headers,
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
      // Over the cap, the socket is not kept: the client reconnects, and its new connection meets the cap.
      ...(pause || kept ? {} : { Connection: 'close' }),
    });
    res.end(body);
    if (pause) res.once('finish', () => pauseSocket(socket, socket.remoteAddress ?? 'unknown'));
  }

  /**
   * A keep-alive socket just answered 429: not read until the address may try again. HTTP resumes a socket by itself
   * once a response is done (it drains the request), so a 'resume' while held pauses it again at once.
   */
  function pauseSocket(socket: Socket, address: string): void {
    if (socket.destroyed || held.has(socket)) return;
    counts.pausedSockets++;
    const keepPaused = () => {
      if (held.has(socket)) socket.pause();
    };
    socket.pause();
    socket.on('resume', keepPaused);
    hold(socket, {
      address,
      release() {
        socket.removeListener('resume', keepPaused);
        socket.resume();
      },
    });
  }

  /** A new connection from a limited address: its bytes kept, unparsed, until HTTP gets the socket on release. */
  function holdConnection(socket: Socket, address: string): void {
    counts.heldConnections++;
    const chunks: Buffer[] = [];
    let bytes = 0;
    const onData = (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > HELD_BYTES_MAX) socket.destroy();
      else chunks.push(chunk);
    };
    // A client that half-closes while held is gone as far as the gate cares (the HTTP server allows half-open sockets).
    const onEnd = () => socket.destroy();
    const onError = () => socket.destroy();
    socket.on('data', onData);
    socket.on('end', onEnd);
    socket.on('error', onError);
    hold(socket, {
      address,
      release() {
        socket.pause();
        socket.removeListener('data', onData);
        socket.removeListener('end', onEnd);
        socket.removeListener('error', onError);
        if (chunks.length) socket.unshift(Buffer.concat(chunks));
        httpConnection!.call(server, socket);
        socket.resume();
      },
    });
  }

  function hold(socket: Socket, h: Hold): void {
    held.set(socket, h);
    socket.once('close', () => held.delete(socket));
  }

  function sweep(): void {
    const waits = new Map<string, number>();
    for (const [socket, h] of held) {
      let wait = waits.get(h.address);
      if (wait === undefined) waits.set(h.address, (wait = auth.addressWait(h.address)));
      if (wait > 0) continue;
      held.delete(socket);
      counts.released++;
      if (!socket.destroyed) h.release();
    }
  }

  const timer = setInterval(sweep, opts.sweepMs ?? SWEEP_MS).unref();
  server.once('close', () => clearInterval(timer));

  return {
    get held() {
      return held.size;
    },
    counts,
    sweep,
    close() {
      clearInterval(timer);
      for (const socket of held.keys()) socket.destroy();
      held.clear();
    },
  };
}
