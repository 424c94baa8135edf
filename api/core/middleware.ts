import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Logger } from '../../ingest/lake/index.ts';
import { addressExhausted, type createAuthenticator } from './auth.ts';
import { callOf, type Call } from './call.ts';
import { runCustom, runList, runLookup } from './compile.ts';
import { openCharge, type Meter } from './credits.ts';
import type { Endpoint, EnvelopeInput } from './endpoint.ts';
import { ApiError } from './errors.ts';
import type { createRateLimiter } from './ratelimit.ts';
import type { Services } from './services.ts';
import { SOURCE } from '../../schemas/sources.ts';

/**
 * The request chain, one small middleware per step: request id → auth → rate limit → meter → handler → credits →
 * envelope; `refundCredits` returns a failed call's credits before the app's error handler answers. Each step
 * reads and writes the request's `Call` (api/core/call.ts).
 */

type Authenticator = ReturnType<typeof createAuthenticator>;
type RateLimiter = ReturnType<typeof createRateLimiter>;

/** Takes the caller's X-Request-Id (cut to 64 characters) or makes one; every log line of the request carries it. */
export function requestContext(log: Logger): RequestHandler {
  return (req, res, next) => {
    const requestId = (req.headers['x-request-id'] as string | undefined)?.slice(0, 64) || randomUUID();
    const call: Call = { requestId, log: log.child({ request_id: requestId }), account: null, charge: null, result: null };
    res.locals.call = call;
    res.setHeader('X-Request-Id', requestId);
    const started = performance.now();
    res.on('finish', () => {
      call.log.info({ method: req.method, url: req.originalUrl, status: res.statusCode, ms: Math.round(performance.now() - started) }, 'request');
    });
    next();
  };
}

/**
 * First of all, before the request id, the log line and the routing: an address that used up its failed
 * authentications is answered 429 at once (the same body and Retry-After as the authenticator's), its requests not
 * logged one by one. A server built with `createApiServer` (api/core/http-server.ts) answers them before Express
 * already and holds the address's sockets; this step is for an app served without that gate.
 */
export function refuseExhaustedAddresses(auth: Authenticator): RequestHandler {
  return (req, res, next) => {
    const wait = auth.retryAfter(req);
    if (wait === 0) return next();
    const refusal = addressExhausted(wait);
    res.set(refusal.headers).status(refusal.status).json(refusal.body());
  };
}

/** `Authorization: Bearer <key>` → the account; 401 otherwise. */
export function authenticate(auth: Authenticator): RequestHandler {
  return async (req, res, next) => {
    callOf(res).account = await auth.authenticate(req);
    next();
  };
}

/** 429 with Retry-After when the key has used its tokens. */
export function rateLimit(limiter: RateLimiter): RequestHandler {
  return (_req, res, next) => {
    const wait = limiter.take(callOf(res).account!.keyId);
    if (wait > 0) throw new ApiError('rate_limited', `Too many requests for this key; retry in ${wait} s`, { headers: { 'Retry-After': String(wait) } });
    next();
  };
}

/** Opens the call's charge over the endpoint's cost range; the handler reserves it once its input is valid. */
export function meterCredits(meter: Meter, range: { min: number; max: number }, metering: boolean): RequestHandler {
  return (_req, res, next) => {
    const call = callOf(res);
    call.charge = openCharge(meter, call.account!, range, metering);
    next();
  };
}

/**
 * An endpoint that takes a JSON body refuses any other body (415 unsupported_media_type): express.json() parses
 * only JSON content types and leaves other bodies unread, so a PATCH sent as text or a form used to answer 200
 * having changed nothing. A request without a body passes (the schema then judges the empty body); malformed JSON
 * is the parser's 400.
 */
export function requireJsonBody(): RequestHandler {
  return (req, _res, next) => {
    const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
    if (hasBody && !req.is(['application/json', 'application/*+json'])) {
      const got = req.headers['content-type'] ? `'${req.headers['content-type']}'` : 'no Content-Type';
      throw new ApiError('unsupported_media_type', `The request body must be JSON (Content-Type: application/json); got ${got}.`);
    }
    next();
  };
}

/** Validates, reserves the credits (the gate), and runs the list, lookup or custom handler. */
export function handleEndpoint(ep: Endpoint, services: Services): RequestHandler {
  return async (req, res, next) => {
    const call = callOf(res);
    const gate = async () => {
      await call.charge?.reserve();
    };
    if (ep.kind === 'list') call.result = { body: await runList(ep, services, req, services.cursorSecret, gate), cost: null };
    else if (ep.kind === 'lookup') call.result = { body: await runLookup(ep, services, req, gate), cost: null };
    else {
      const balance = () => {
        if (!call.account) throw new Error(`${ep.path}: a public route has no balance`);
        return call.charge ? call.charge.balance() : services.meter.balance(call.account);
      };
      const r = await runCustom(ep, services, req, res, call.account, gate, balance);
      call.result = { body: r.result, cost: r.cost };
    }
    next();
  };
}

/** Settles the charge at the handler's final cost and reports it (X-Credits-Charged, X-Credits-Remaining). */
export function reportCredits(): RequestHandler {
  return async (_req, res, next) => {
    const call = callOf(res);
    if (call.charge) {
      const { charged, remaining } = await call.charge.settle(call.result!.cost);
      res.setHeader('X-Credits-Charged', String(charged));
      res.setHeader('X-Credits-Remaining', String(remaining));
    }
    next();
  };
}

/** The answer: the standard envelope, or the handler's object as is (`shape: 'raw'`); nothing if already sent. */
export function sendEnvelope(ep: Endpoint): RequestHandler {
  const status = ep.kind === 'custom' ? (ep.successStatus ?? 200) : 200;
  const raw = ep.kind === 'custom' && ep.shape === 'raw';
  return (_req, res) => {
    if (res.headersSent) return;
    const result = callOf(res).result!.body;
    if (raw) {
      res.status(status).json(result);
      return;
    }
    const env = result as EnvelopeInput;
    // Monitoring answers (monitors, alerts, webhooks) are account state, not lake data: no as_of, no query echo.
    const monitoring = env.source === SOURCE.svc_monitoring;
    res.status(status).json({
      data: env.data,
      page: env.page ?? { limit: env.data.length, next_cursor: null, has_more: false },
      ...(monitoring ? {} : { as_of: env.as_of ?? null }),
      source: env.source,
      ...(monitoring ? {} : { query_echo: env.query_echo ?? {} }),
      warnings: env.warnings ?? (env.data.length ? [] : [{ code: 'empty_result', message: 'No records match the query.' }]),
    });
  };
}

/**
 * A failed call costs nothing: its credits go back before the error is answered, and every refusal of a known key
 * says so (`X-Credits-Charged: 0`). A call that reached the meter (422, 402, 404…) also reports the real balance; a
 * 429 is answered before the meter and reads none, so a flood of them never queues reads on the state store.
 */
export function refundCredits(meter: Meter) {
  return async (err: unknown, _req: Request, res: Response, next: NextFunction) => {
    const call = callOf(res);
    const refund = await call.charge?.refund();
    const balance = refund ? refund.balance : call.charge && call.account ? await meter.balance(call.account).catch(() => null) : null;
    if (call.account) {
      res.setHeader('X-Credits-Charged', '0');
      if (balance) res.setHeader('X-Credits-Remaining', String(balance.remaining));
    }
    next(err);
  };
}
