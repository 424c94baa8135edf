import { createServer, type Server } from 'node:http';
import { readFile, readdir, rm } from 'node:fs/promises';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { write13fSample } from '../../ingest/datasets/13f/sample.ts';
import { writeNcenDatasetSample } from '../../ingest/datasets/ncen/sample.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import ncenRoutes from '../../api/ncen/routes.ts';
import dataset13f from '../../ingest/datasets/13f/dataset.ts';
import datasetNcen from '../../ingest/datasets/ncen/dataset.ts';

/**
 * `--period` downloads against a loopback server speaking the regulator's shapes: the data set pages are scraped for
 * zip links and the right zip is fetched (13F: the filing window holding the quarter's deadline; N-CEN: `{YYYY}q{Q}`).
 */
describe('13F and N-CEN --period downloads (loopback only)', () => {
  let server: Server;
  let app: TestApp;
  const files = new Map<string, Buffer>();
  const hits: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'funds-dl-'));
  beforeAll(async () => {
    await write13fSample(join(dir, '13f'), { seed: 4, scale: 0.1 });
    for (const z of await readdir(join(dir, '13f'))) files.set(`/files/structureddata/data/form-13f-data-sets/${z}`, await readFile(join(dir, '13f', z)));
    files.set(
      '/data-research/sec-markets-data/form-13f-data-sets',
      Buffer.from(`<html><body><table>
      <tr><td><a href="/files/structureddata/data/form-13f-data-sets/01dec2024-28feb2025_form13f.zip">December 2024 - February 2025</a></td></tr>
      <tr><td><a href="/files/structureddata/data/form-13f-data-sets/01sep2024-30nov2024_form13f.zip">September - November 2024</a></td></tr>
      <tr><td><a href="/files/structureddata/data/form-13f-data-sets/2023q4_form13f.zip">2023 Q4</a></td></tr></table></body></html>`),
    );
    await writeNcenDatasetSample(join(dir, 'ncen'), { seed: 2, scale: 0.3 });
    files.set('/files/dera/data/form-n-cen-data-sets/2025q1_ncen.zip', await readFile(join(dir, 'ncen', '2025q1_ncen.zip')));
    files.set(
      '/data-research/sec-markets-data/form-n-cen-data-sets',
      Buffer.from(`<html><body><ul>
      <li><a href="/files/dera/data/form-n-cen-data-sets/2025q1_ncen.zip">2025 Q1</a></li>
      <li><a href="/files/dera/data/form-n-cen-data-sets/2024q4_ncen.zip">2024 Q4</a></li></ul></body></html>`),
    );
    server = createServer((req, res) => {
      hits.push(req.url!);
      const body = files.get(req.url!);
      if (!body) {
        res.statusCode = 404;
        res.end('not found');
        return;
      }
      res.end(body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    app = await createTestApp({ routes: ncenRoutes, env: { SEC_BASE_URL: base } });
  });
  afterAll(async () => {
    await app?.close();
    await new Promise<void>((r) => server.close(() => r()));
    await rm(dir, { recursive: true, force: true });
  });

  it('13f --period 2024Q3 fetches the Sep–Nov 2024 window only (deadline 2024-11-14)', async () => {
    const s = await app.ingest(dataset13f, { period: '2024Q3' }, { skipDiff: true });
    expect(s.badRows).toBe(0);
    expect(hits).toContain('/files/structureddata/data/form-13f-data-sets/01sep2024-30nov2024_form13f.zip');
    expect(hits).not.toContain('/files/structureddata/data/form-13f-data-sets/01dec2024-28feb2025_form13f.zip');
    const periods = await app.services.lake.query('SELECT DISTINCT period FROM holdings_13f ORDER BY 1', []);
    expect(periods.map((p) => p.period)).toEqual(['2024Q3']);
  });

  it('ncen --period 2025Q1 fetches {YYYY}q{Q}_ncen.zip and loads its providers', async () => {
    const s = await app.ingest(datasetNcen, { period: '2025Q1' }, { skipDiff: true });
    expect(hits).toContain('/files/dera/data/form-n-cen-data-sets/2025q1_ncen.zip');
    expect(s.rowsWritten).toBeGreaterThan(0);
    const r = await app.get('/v1/funds/providers?role=sub-adviser&limit=100');
    expect(r.body.data.length).toBeGreaterThan(0);
    expect(r.body.data.every((d: any) => d.provider.name === 'Kestrel Fixed Income Partners LP' && d.series_id !== null)).toBe(true);
  });

  it('a quarter with no listed zip is a clear error naming the page', async () => {
    await expect(app.ingest(datasetNcen, { period: '2019Q2' }, { skipDiff: true })).rejects.toThrow(/no data set listed/);
  });
});
