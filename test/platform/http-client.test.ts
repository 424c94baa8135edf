import { createServer, type Server } from 'node:http';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpClient, UpstreamError } from '../../ingest/sources/common/http.ts';
import { loadSettings } from '../../schemas/settings.ts';

/** The shared HTTP client against a local server that misbehaves the way the regulator's hosts do. */
describe('HTTP client: fair access, retries, throttling, raw cache', () => {
  let server: Server;
  let base: string;
  let dataDir: string;
  const hits = new Map<string, number>();
  const agents: string[] = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'filings-http-'));
    server = createServer((req, res) => {
      const n = (hits.get(req.url!) ?? 0) + 1;
      hits.set(req.url!, n);
      agents.push(String(req.headers['user-agent']));
      if (req.url === '/flaky') {
        if (n < 3) {
          res.writeHead(503);
          res.end('busy');
          return;
        }
        res.end('finally');
        return;
      }
      if (req.url === '/throttle') {
        res.writeHead(403, { 'content-type': 'text/html' });
        res.end('<html><title>SEC.gov | Request Rate Threshold Exceeded</title></html>');
        return;
      }
      if (req.url === '/missing-s3') {
        res.writeHead(403, { 'content-type': 'application/xml' });
        res.end('<?xml version="1.0"?><Error><Code>NoSuchKey</Code></Error>');
        return;
      }
      if (req.url === '/gone') {
        res.writeHead(404);
        res.end();
        return;
      }
      if (req.url === '/slow') {
        setTimeout(() => res.end('late'), 2000);
        return;
      }
      res.end(`body of ${req.url}`);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
    await rm(dataDir, { recursive: true, force: true });
  });

  const client = (env: Record<string, string> = {}) =>
    createHttpClient(loadSettings({ DATA_DIR: dataDir, SEC_USER_AGENT: 'Test Org test@example.com', HTTP_RETRIES: '3', THROTTLE_PAUSE_MS: '60000', ...env }));

  it('sends the declared User-Agent and retries 5xx with backoff', async () => {
    const r = await client().get(`${base}/flaky`);
    expect(r.body.toString()).toBe('finally');
    expect(hits.get('/flaky')).toBe(3);
    expect(agents[0]).toBe('Test Org test@example.com');
  });

  it('a rate-threshold 403 pauses every later request to that host', async () => {
    const c = client({ HTTP_RETRIES: '0' });
    await expect(c.get(`${base}/throttle`)).rejects.toMatchObject({ kind: 'throttled' });
    expect(c.pausedUntil(new URL(base).host)).toBeGreaterThan(Date.now() + 50_000);
    const before = hits.get('/a') ?? 0;
    await expect(c.get(`${base}/a`, { whenPaused: 'fail' })).rejects.toMatchObject({ kind: 'throttled' });
    expect(hits.get('/a') ?? 0).toBe(before);
  });

  it('an S3 NoSuchKey 403 and a 404 are "not found", not throttling', async () => {
    const c = client();
    await expect(c.get(`${base}/missing-s3`)).rejects.toMatchObject({ kind: 'not_found' });
    await expect(c.get(`${base}/gone`)).rejects.toMatchObject({ kind: 'not_found' });
    expect(c.pausedUntil(new URL(base).host)).toBe(0);
  });

  it('every call has a time-out', async () => {
    const c = client({ HTTP_TIMEOUT_MS: '300', HTTP_RETRIES: '0' });
    const err = await c.get(`${base}/slow`).catch((e) => e);
    expect(err).toBeInstanceOf(UpstreamError);
    expect(err.kind).toBe('timeout');
  });

  it('downloads once into the raw cache; a rerun reads the file', async () => {
    const c = client();
    const p1 = await c.download(`${base}/files/bulk.zip`);
    expect(existsSync(p1)).toBe(true);
    const p2 = await c.download(`${base}/files/bulk.zip`);
    expect(p2).toBe(p1);
    expect(hits.get('/files/bulk.zip')).toBe(1);
  });

  it("refuses the regulator's real hosts without a declared User-Agent (and sends nothing)", async () => {
    const c = createHttpClient(loadSettings({ DATA_DIR: dataDir }));
    await expect(c.get('https://www.sec.gov/Archives/edgar/full-index/')).rejects.toThrow(/SEC_USER_AGENT is not set/);
  });
});
