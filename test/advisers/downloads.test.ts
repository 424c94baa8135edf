import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeRosterSample } from '../../ingest/datasets/advisers/sample.ts';
import datasetAdvisers, { ROSTER_PAGE_PATH } from '../../ingest/datasets/advisers/dataset.ts';
import { writeFilingDataSample } from '../../ingest/datasets/private-funds/sample.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import advisersRoutes from '../../api/advisers/routes.ts';
import privateFundsRoutes from '../../api/private-funds/routes.ts';
import datasetPrivateFunds from '../../ingest/datasets/private-funds/dataset.ts';
import { tempDir } from '../support/temp-dir.ts';

/**
 * The download path against a local server speaking the regulator's shapes: the roster page is scraped for
 * links (older and newer months, exempt and registered), the IAPD metadata JSON lists the filing-data zips.
 */
describe('downloads through the shared HTTP client (loopback only)', () => {
  let server: Server;
  let app: TestApp;
  const files = new Map<string, Buffer>();
  const hits: string[] = [];
  beforeAll(async () => {
    const dir = tempDir('adv-dl-');
    const june = await writeRosterSample(join(dir, 'june'), { seed: 1, scale: 0.05 }, '2026-06-01');
    const july = await writeRosterSample(join(dir, 'july'), { seed: 2, scale: 0.1 }, '2026-07-01');
    files.set('/files/investment/data/ia060126.zip', await readFile(june.ria));
    files.set('/files/investment/data/ia07012026.zip', await readFile(july.ria));
    files.set('/files/investment/data/ia07012026-exempt.zip', await readFile(july.era));
    files.set(
      ROSTER_PAGE_PATH,
      Buffer.from(`<html><body><ul>
      <li><a href="/files/investment/data/ia07012026.zip">July 2026 registered</a></li>
      <li><a href='/files/investment/data/ia07012026-exempt.zip'>July 2026 exempt</a></li>
      <li><a href="/files/investment/data/ia060126.zip">June 2026</a></li>
      <li><a href="/about.html">About</a></li></ul></body></html>`),
    );
    const pf = await writeFilingDataSample(join(dir, 'pf'), { seed: 1, scale: 0.1 });
    files.set('/reports/foia/advFilingData/2026/ADV_Filing_Data_20260601_20260630.zip', await readFile(pf));
    files.set(
      '/reports/foia/reports_metadata.json',
      Buffer.from(
        JSON.stringify({
          advW: [],
          advBrochures: [],
          advFilingData: [
            { displayName: 'June 2026', fileName: 'ADV_Filing_Data_20260601_20260630.zip', size: 1, year: '2026', fileType: 'zip', uploadedOn: '2026-07-05' },
          ],
        }),
      ),
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
    app = await createTestApp({ routes: [...advisersRoutes, ...privateFundsRoutes], env: { SEC_BASE_URL: base, IAPD_BASE_URL: base } });
  });
  afterAll(async () => {
    await app?.close();
    await new Promise<void>((r) => server.close(() => r()));
  });

  it('advisers: scrapes the page, downloads both files of the newest month, source_file_url is the file', async () => {
    const s = await app.ingest(datasetAdvisers, {}, { skipDiff: true });
    expect(s.badRows).toBe(0);
    expect(s.rowsWritten).toBe(40);
    expect(hits).not.toContain('/files/investment/data/ia060126.zip');
    const r = await app.get(`/v1/advisers/${(await app.services.lake.query('SELECT crd FROM advisers LIMIT 1'))[0].crd}`);
    expect(r.body.as_of).toBe('2026-07-01T00:00:00Z');
    expect(r.body.data[0].source_file).toMatch(/^ia07012026(-exempt)?\.zip!IA_SEC_/);
  });

  it('advisers: --date picks an older month', async () => {
    const s = await app.ingest(datasetAdvisers, { date: '2026-06' }, { skipDiff: true });
    expect(s.rowsWritten).toBe(16); // 20 firms, 4 of them exempt, only the registered file was published
    expect(hits).toContain('/files/investment/data/ia060126.zip');
  });

  it('private-funds: reads the IAPD metadata JSON and downloads the listed month', async () => {
    const s = await app.ingest(datasetPrivateFunds, {}, { skipDiff: true });
    expect(s.badRows).toBe(0);
    expect(s.rowsWritten).toBeGreaterThan(0);
    const r = await app.get('/v1/private-funds?limit=1');
    expect(r.body.as_of).toBe('2026-06-30T00:00:00Z');
  });

  it('a date with no file is a clear error naming the dates found', async () => {
    await expect(app.ingest(datasetAdvisers, { date: '2025-01' })).rejects.toThrow(/no file for 2025-01 .*2026-06-01, 2026-07-01/);
  });
});
