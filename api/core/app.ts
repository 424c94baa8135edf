import { randomUUID } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { discoverModules, discoveryErrors } from '../../ingest/pipeline/index.ts';
import express, { type NextFunction, type Request, type Response } from 'express';
import { getAbsoluteFSPath } from 'swagger-ui-dist';
import { UpstreamError } from '../../ingest/sources/common/index.ts';
import { createAuthenticator } from './auth.ts';
import { checkEndpoint, runCustom, runList, runLookup } from './compile.ts';
import type { Meter } from './credits.ts';
import { costRange, type Endpoint, type EnvelopeInput } from './endpoint.ts';
import { ApiError, ValidationError } from './errors.ts';
import { buildOpenApi } from './openapi.ts';
import { DEFAULT_COST } from '../../schemas/plans.ts';
import { createRateLimiter } from './ratelimit.ts';
import type { Services } from './services.ts';

const apiRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Every `api/<dataset>/routes.ts` (default export: an array of endpoint definitions). */
export async function loadEndpoints(): Promise<Endpoint[]> {
  const out: Endpoint[] = [];
  for (const { dir, value } of await discoverModules<Endpoint[]>(apiRoot, 'routes.ts')) {
    for (const ep of value) {
      // An endpoint naming a column its table lacks, or a page order that cannot be keyset-paged, is refused at
      // start-up, not on its first request.
      try {
        checkEndpoint(ep);
        out.push(ep);
      } catch (err) {
        discoveryErrors.push({ file: `api/${dir}/routes.ts`, message: (err as Error).message });
        process.stderr.write(`[discover] skipped ${ep.path}: ${(err as Error).message}\n`);
      }
    }
  }
  const seen = new Set<string>();
  for (const ep of out) {
    const key = `${ep.kind === 'custom' ? ep.method : 'get'} ${ep.path}`;
    if (seen.has(key)) throw new Error(`two endpoints define ${key}`);
    seen.add(key);
  }
  return out;
}

function expressPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

/** Static segments before parameters, so `/v1/insider/form144` is never taken for `/v1/insider/{x}`. */
function routeOrder(a: Endpoint, b: Endpoint): number {
  const pa = (a.path.match(/\{/g) ?? []).length;
  const pb = (b.path.match(/\{/g) ?? []).length;
  return pa - pb || b.path.length - a.path.length;
}

export interface AppHandle {
  app: express.Express;
  endpoints: Endpoint[];
  meter: Meter;
  auth: ReturnType<typeof createAuthenticator>;
  openapi: ReturnType<typeof buildOpenApi>;
}

export const API_VERSION = '0.1.0';

/**
 * The Express app over a set of services. Production (`api/server.ts`) and tests (`createTestApp`) build it
 * the same way, so tests exercise exactly what runs.
 */
export async function createApp(services: Services, opts: { extraEndpoints?: Endpoint[]; cursorSecret?: string } = {}): Promise<AppHandle> {
  if (opts.cursorSecret) services.cursorSecret = opts.cursorSecret;
  const endpoints = [...(await loadEndpoints()), ...(opts.extraEndpoints ?? [])].sort(routeOrder);
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'extended');
  const auth = createAuthenticator(services.state);
  const meter = services.meter;
  const limiter = createRateLimiter(services.settings.RATE_LIMIT_RPS);
  const openapi = buildOpenApi(endpoints, { version: API_VERSION });

  app.use((req, res, next) => {
    const id = (req.headers['x-request-id'] as string | undefined)?.slice(0, 64) || randomUUID();
    res.locals.requestId = id;
    res.setHeader('X-Request-Id', id);
    next();
  });
  app.use(express.json({ limit: '256kb' }));

  app.get('/openapi.json', (_req, res) => res.json(openapi));
  // The docs page is served with its assets from node_modules: no CDN, works offline.
  app.use('/docs/assets', express.static(getAbsoluteFSPath(), { index: false }));
  app.get('/docs', (_req, res) => res.type('html').send(DOCS_HTML));

  for (const ep of endpoints) {
    const method = ep.kind === 'custom' ? ep.method : 'get';
    const needsAuth = !(ep.kind === 'custom' && ep.auth === false);
    const { min: minCost, max: maxCost } = costRange(ep, DEFAULT_COST);

    app[method](expressPath(ep.path), async (req: Request, res: Response, next: NextFunction) => {
      let charged = 0;
      let afterDebit: Awaited<ReturnType<Meter['debit']>> | null = null;
      let account: Awaited<ReturnType<typeof auth.authenticate>> | null = null;
      try {
        if (needsAuth) {
          account = await auth.authenticate(req);
          const wait = limiter.take(account.keyId);
          if (wait > 0) throw new ApiError('rate_limited', `Too many requests for this key; retry in ${wait} s`, { headers: { 'Retry-After': String(wait) } });
        }
        const gate = async () => {
          if (!account) return;
          if (maxCost > 0 && services.settings.METERING === 'on') {
            afterDebit = await meter.debit(account, maxCost);
            charged = maxCost;
          }
        };
        let result: EnvelopeInput | Record<string, unknown>;
        let finalCost: number | null = null;
        if (ep.kind === 'list') result = await runList(ep, services, req, services.cursorSecret, gate);
        else if (ep.kind === 'lookup') result = await runLookup(ep, services, req, gate);
        else {
          const r = await runCustom(ep, services, req, res, account, gate);
          result = r.result;
          finalCost = r.cost;
        }
        if (account) {
          const actual = charged ? Math.min(maxCost, Math.max(minCost, finalCost ?? maxCost)) : 0;
          // The debit already returned the balance; only a refund (or no debit at all) needs another read.
          const balance = charged && actual < charged ? await meter.refund(account, charged - actual) : afterDebit ?? (await meter.balance(account));
          charged = actual;
          res.setHeader('X-Credits-Charged', String(actual));
          res.setHeader('X-Credits-Remaining', String(balance.remaining));
        }
        if (res.headersSent) return;
        const status = ep.kind === 'custom' ? ep.successStatus ?? 200 : 200;
        if (ep.kind === 'custom' && ep.shape === 'raw') {
          res.status(status).json(result);
          return;
        }
        const env = result as EnvelopeInput;
        const monitoring = env.source === 'svc_monitoring';
        res.status(status).json({
          data: env.data,
          page: env.page ?? { limit: env.data.length, next_cursor: null, has_more: false },
          ...(monitoring ? {} : { as_of: env.as_of ?? null }),
          source: env.source,
          ...(monitoring ? {} : { query_echo: env.query_echo ?? {} }),
          warnings: env.warnings ?? (env.data.length ? [] : [{ code: 'empty_result', message: 'No records match the query.' }]),
        });
      } catch (err) {
        if (account && charged) {
          const balance = await meter.refund(account, charged).catch(() => null);
          res.setHeader('X-Credits-Charged', '0');
          if (balance) res.setHeader('X-Credits-Remaining', String(balance.remaining));
        }
        next(err);
      }
    });
  }

  app.use((req, res) => {
    res.status(404).json({ error: { code: 'not_found', message: `No route ${req.method} ${req.path}` } });
  });

  // Express recognizes the error handler by its four parameters.
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    const requestId = res.locals.requestId as string;
    if (err instanceof ValidationError) {
      res.status(err.status).json({ detail: err.detail });
      return;
    }
    if (err instanceof ApiError) {
      for (const [k, v] of Object.entries(err.headers)) res.setHeader(k, v);
      res.status(err.status).json({ error: { code: err.code, message: err.message, ...err.extra } });
      return;
    }
    if (err instanceof UpstreamError) {
      const status = err.kind === 'not_found' ? 404 : err.kind === 'timeout' ? 504 : 502;
      const code = err.kind === 'not_found' ? 'not_found' : err.kind === 'timeout' ? 'upstream_timeout' : 'upstream_unavailable';
      res.status(status).json({ error: { code, message: err.kind === 'not_found' ? err.message : `The regulator's service did not answer: ${err.message}` } });
      return;
    }
    const e = err as { type?: string; status?: number; message?: string };
    if (e?.type === 'entity.parse.failed' || e?.type === 'entity.too.large') {
      res.status(e.status ?? 400).json({ error: { code: 'invalid_param', message: e.type === 'entity.too.large' ? 'Request body too large' : 'Malformed JSON body' } });
      return;
    }
    if (services.settings.LOG_LEVEL !== 'silent') {
      console.error(`[${requestId}] ${req.method} ${req.originalUrl}: ${(err as Error)?.stack ?? String(err)}`);
    }
    res.status(500).json({ error: { code: 'internal_error', message: `Internal server error (request id ${requestId})` } });
  });

  return { app, endpoints, meter, auth, openapi };
}

const DOCS_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Securities Filings Data API</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><div id="ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script>window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#ui', deepLinking: true });</script>
</body></html>`;
