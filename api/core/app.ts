import express, { type RequestHandler } from 'express';
// The path function alone: the package's main file loads the whole 1.4 MB UI bundle (≈ 250 ms of every start).
import getAbsoluteFSPath from 'swagger-ui-dist/absolute-path.js';
import { DEFAULT_COST } from '../../schemas/plans.ts';
import { createAuthenticator } from './auth.ts';
import { checkEndpoint } from './compile.ts';
import type { Meter } from './credits.ts';
import { costRange, type Endpoint } from './endpoint.ts';
import { BODY_LIMIT, errorHandler, noRoute } from './error-handler.ts';
import { exportHandler, exportPath } from './export.ts';
import {
  authenticate,
  handleEndpoint,
  meterCredits,
  rateLimit,
  refuseExhaustedAddresses,
  refundCredits,
  reportCredits,
  requestContext,
  requireJsonBody,
  sendEnvelope,
} from './middleware.ts';
import { buildOpenApi } from './openapi.ts';
import { rejectMalformedPathParams } from './path-decoding.ts';
import { createRateLimiter } from './ratelimit.ts';
import type { Services } from './services.ts';

function methodOf(ep: Endpoint): 'get' | 'post' | 'patch' | 'delete' {
  return ep.kind === 'custom' ? ep.method : 'get';
}

/**
 * Refuses at start-up what would fail later: an endpoint naming a column its table lacks, a list whose page order
 * cannot be keyset-paged, or two endpoints on the same method and path (the second would never be reached).
 */
export function checkRoutes(routes: readonly Endpoint[]): void {
  const seen = new Set<string>();
  for (const ep of routes) {
    checkEndpoint(ep);
    checkPathTemplate(ep);
    const key = `${methodOf(ep)} ${ep.path}`;
    if (seen.has(key)) throw new Error(`two endpoints define ${key}`);
    seen.add(key);
  }
}

/**
 * A path is an OpenAPI template (`/v1/advisers/{crd}`) whose names are exactly the declared path parameters: an
 * Express-style `:crd` would be published as a literal segment, and "Try it out" would send it as is.
 */
function checkPathTemplate(ep: Endpoint): void {
  if (ep.path.includes(':')) throw new Error(`${ep.path}: write path parameters as {name}, not :name`);
  const declared = Object.keys(ep.kind === 'lookup' ? ep.pathParams : ep.kind === 'custom' ? (ep.pathParams ?? {}) : {}).sort();
  const templated = [...ep.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
  if (declared.join() !== templated.join()) {
    throw new Error(`${ep.path}: path parameters declared (${declared.join(', ') || 'none'}) differ from the template's (${templated.join(', ') || 'none'})`);
  }
}

/** Where clients reach this server: PUBLIC_URL, else the listen address (a wildcard host read as localhost). */
function publicUrl(settings: Services['settings']): string {
  if (settings.PUBLIC_URL) return settings.PUBLIC_URL.replace(/\/$/, '');
  const host = settings.HOST === '0.0.0.0' || settings.HOST === '::' ? 'localhost' : settings.HOST;
  return `http://${host.includes(':') ? `[${host}]` : host}:${settings.PORT}`;
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
}

export const API_VERSION = '0.1.0';

/**
 * The Express app over a set of services, mounting exactly `routes` (the server: every endpoint, api/routes.ts;
 * a test: its area's). Production (`api/server.ts`) and tests (`createTestApp`) build it the same way, so tests
 * exercise exactly what runs.
 */
export function createApp(services: Services, opts: { routes: readonly Endpoint[] }): AppHandle {
  checkRoutes(opts.routes);
  const endpoints = [...opts.routes].sort(routeOrder);
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'extended');
  const clock = () => services.now().getTime();
  const auth = createAuthenticator(services.state, clock, {
    failureBurst: services.settings.AUTH_FAILURE_BURST,
    failuresPerSecond: services.settings.AUTH_FAILURE_RPS,
  });
  const limiter = createRateLimiter(services.settings.RATE_LIMIT_RPS, clock);
  const metering = services.settings.METERING === 'on';
  // Built on the first request for it, not at start: ≈ 0.15 s of CPU for the 80 paths, which every start paid before it
  // listened, and which most processes behind a balancer never serve. Its validity is the suite's to check
  // (test/contract/openapi-document.test.ts validates the same document against the OpenAPI 3.1 schema).
  let openapi: ReturnType<typeof buildOpenApi> | null = null;

  app.use(refuseExhaustedAddresses(auth));
  app.use(requestContext(services.log));
  app.use(rejectMalformedPathParams([...endpoints.map((ep) => ep.path), ...endpoints.filter((ep) => ep.kind === 'list').map((ep) => exportPath(ep.path))]));
  // Bodies are read only by the routes that take one, after the key and the rate limit: an anonymous flood cannot
  // make the server inflate gzip bodies, and a GET's stray body is never parsed (nor refused with a 415 it cannot declare).
  const parseJson = express.json({ limit: BODY_LIMIT });

  app.get('/openapi.json', (_req, res) => {
    openapi ??= buildOpenApi(endpoints, { version: API_VERSION, serverUrl: publicUrl(services.settings) });
    res.json(openapi);
  });
  // The docs page is served with its assets from node_modules: no CDN, works offline.
  app.use('/docs/assets', express.static(getAbsoluteFSPath(), { index: false }));
  app.get('/docs', (_req, res) => res.type('html').send(DOCS_HTML));

  // Exports first: `/v1/advisers/export` must not be taken for the lookup `/v1/advisers/{crd}`.
  for (const ep of endpoints) {
    if (ep.kind !== 'list') continue;
    app.get(expressPath(exportPath(ep.path)), authenticate(auth), rateLimit(limiter), exportHandler(ep, services, metering), refundCredits(services.meter));
  }
  for (const ep of endpoints) {
    const isPublic = ep.kind === 'custom' && ep.auth === false;
    const caller: RequestHandler[] = isPublic
      ? []
      : [authenticate(auth), rateLimit(limiter), meterCredits(services.meter, costRange(ep, DEFAULT_COST), metering)];
    const body: RequestHandler[] = ep.kind === 'custom' && ep.body ? [requireJsonBody(), parseJson] : [];
    app[methodOf(ep)](expressPath(ep.path), ...caller, ...body, handleEndpoint(ep, services), reportCredits(), sendEnvelope(ep), refundCredits(services.meter));
  }

  app.use(noRoute);
  app.use(errorHandler());

  return { app, endpoints, meter: services.meter, auth };
}

const DOCS_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Securities Filings Data API</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><div id="ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script>window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#ui', deepLinking: true });</script>
</body></html>`;
