import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import cyberIncidentsRoutes from '../../api/cyber-incidents/routes.ts';
import filingParserRoutes from '../../api/filing-parsers/routes.ts';
import fullTextRoutes from '../../api/full-text/routes.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';

/**
 * A configuration error is not an outage (#17): a live endpoint that cannot run because SEC_USER_AGENT is missing
 * for the regulator's real hosts answers 503 `not_configured` naming the setting, having sent nothing; a real
 * upstream failure stays 502 `upstream_unavailable`. Both are declared in the OpenAPI document.
 */
const routes = [...filingParserRoutes, ...fullTextRoutes, ...cyberIncidentsRoutes];
const LIVE_PATHS = [
  '/v1/full-text?q=climate',
  '/v1/cyber-incidents',
  '/v1/filings/0000320193-24-000123/documents',
  '/v1/filings/0000320193-24-000123/extract?item=1A',
  '/v1/filings/0000320193-24-000123/insiders',
  '/v1/filings/0000320193-24-000123/events',
  '/v1/filings/0000320193-24-000123/subsidiaries',
];

describe('live endpoints without SEC_USER_AGENT (default regulator hosts)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ routes });
  });
  afterAll(() => app.close());

  it.each(LIVE_PATHS)('%s answers 503 not_configured naming SEC_USER_AGENT, free of charge', async (path) => {
    expect(app.settings.SEC_USER_AGENT).toBeUndefined();
    const r = await app.get(path);
    expect(r.status).toBe(503);
    expect(r.body.error).toMatchObject({ code: 'not_configured', setting: 'SEC_USER_AGENT' });
    expect(r.body.error.message).toMatch(/SEC_USER_AGENT is not set/);
    expect(r.headers.get('x-credits-charged')).toBe('0');
  });

  it('the OpenAPI document declares 502, 503 and 504 on every live operation, with not_configured in the code enum', async () => {
    const doc = (await app.get('/openapi.json', null)).body;
    for (const path of ['/v1/full-text', '/v1/cyber-incidents', '/v1/filings/{accession}/documents', '/v1/filings/{accession}/subsidiaries']) {
      const responses = doc.paths[path].get.responses;
      expect(Object.keys(responses), path).toEqual(expect.arrayContaining(['502', '503', '504']));
      expect(responses['503'].description).toMatch(/not_configured/);
    }
    const codes = JSON.stringify(doc).match(/"not_configured"/g) ?? [];
    expect(codes.length).toBeGreaterThan(0);
  });
});

describe('a real upstream failure stays 502', () => {
  let app: TestApp;
  let upstream: Server;
  beforeAll(async () => {
    upstream = createServer((_req, res) => res.writeHead(503).end('Service Unavailable'));
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    app = await createTestApp({ routes, env: { SEC_BASE_URL: url, SEC_EFTS_BASE_URL: url, HTTP_RETRIES: '0' } });
  });
  afterAll(async () => {
    await app.close();
    upstream.closeAllConnections();
    await new Promise<void>((r) => upstream.close(() => r()));
  });

  it('full-text and a per-filing parser answer 502 upstream_unavailable when the upstream answers 503', async () => {
    for (const path of ['/v1/full-text?q=climate', '/v1/filings/0000320193-24-000123/documents']) {
      const r = await app.get(path);
      expect(r.status, path).toBe(502);
      expect(r.body.error.code, path).toBe('upstream_unavailable');
    }
  });
});
