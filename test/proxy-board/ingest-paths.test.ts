import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { fixturePath, hasFixtures } from '../support/fixtures.ts';
import { extractProxy } from '../../ingest/sources/edgar/proxy/extract.ts';
import compensationRoutes from '../../api/compensation/routes.ts';
import boardRoutes from '../../api/board/routes.ts';
import datasetIrs990 from '../../ingest/datasets/irs990/dataset.ts';
import datasetProxy from '../../ingest/datasets/proxy/dataset.ts';
import { tempDir } from '../support/temp-dir.ts';

const hasZip = existsSync('/usr/bin/zip') || existsSync('/usr/local/bin/zip');

/** A proxy whose second SCT row does not add up: the extractor must say so through its confidence. */
const MISMATCH_PROXY =
  `<SEC-DOCUMENT>0000777777-24-000001.txt : 20240301
<SEC-HEADER>0000777777-24-000001.hdr.sgml : 20240301
ACCESSION NUMBER:\t\t0000777777-24-000001
CONFORMED SUBMISSION TYPE:\tDEF 14A
FILED AS OF DATE:\t\t20240301
FILER:
\tCOMPANY DATA:\t
\t\tCOMPANY CONFORMED NAME:\t\t\tMISMATCH TEST CORP
\t\tCENTRAL INDEX KEY:\t\t\t0000777777
</SEC-HEADER>
<DOCUMENT>
<TYPE>DEF 14A
<SEQUENCE>1
<FILENAME>p.htm
<TEXT>
<html><body><table>
<tr><td>Name and Principal Position</td><td>Year</td><td>Salary ($)</td><td>Bonus ($)</td><td>Stock Awards ($)` +
  `</td><td>All Other Compensation ($)</td><td>Total ($)</td></tr>
<tr><td>Ann Example<br>Chief Executive Officer</td><td>2023</td><td>500,000</td><td>&#8212;</td><td>1,000,000</td><td>10,000</td><td>1,510,000</td></tr>
<tr><td>Bob Sample<br>Chief Financial Officer</td><td>2023</td><td>300,000</td><td>50,000</td><td>400,000</td><td>5,000</td><td>9,999,999</td></tr>
</table></body></html>
</TEXT>
</DOCUMENT>
</SEC-DOCUMENT>
`;

describe('confidence floor', () => {
  it('a row whose components do not add up to its total falls below the floor', () => {
    const x = extractProxy(MISMATCH_PROXY.slice(MISMATCH_PROXY.indexOf('<html>')));
    expect(x.compensation.map((c) => [c.printed, c.totalChecks, c.confidence])).toEqual([
      ['Ann Example', true, 0.95],
      ['Bob Sample', false, 0.4],
    ]);
  });

  describe('served only on request', () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await createTestApp({ routes: [...compensationRoutes, ...boardRoutes] });
      const dir = join(app.dataDir, 'mismatch');
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, '0000777777-24-000001.txt'), MISMATCH_PROXY);
      await app.ingest(datasetProxy, { from: dir }, { skipDiff: true });
    }, 60_000);
    afterAll(() => app?.close());
    it('default hides it, min_confidence=0 shows it', async () => {
      const dflt = await app.get('/v1/compensation?filer_cik=777777');
      expect(dflt.body.data.map((d: any) => d.executive_name)).toEqual(['Ann Example']);
      const all = await app.get('/v1/compensation?filer_cik=777777&min_confidence=0');
      expect(all.body.data.map((d: any) => [d.executive_name, d.total_checks, d.confidence, d.total_usd])).toEqual([
        ['Ann Example', true, 0.95, 1510000],
        ['Bob Sample', false, 0.4, 9999999],
      ]);
    });
  });
});

describe.skipIf(!hasFixtures || !hasZip)('irs990 --period: yearly index → XML_BATCH_ID zips from IRS_BASE_URL', () => {
  let app: TestApp;
  let server: Server;
  const hits: string[] = [];
  beforeAll(async () => {
    // A TEOS-style zip (batch folder prefix, {OBJECT_ID}_public.xml) built around the real return, in a temp folder.
    const work = tempDir('pb-teos-');
    await mkdir(join(work, '2024_TEOS_XML_01A'));
    await copyFile(fixturePath('irs990/990_201541349349307794_voice_of_san_diego_2014.xml'), join(work, '2024_TEOS_XML_01A', '201541349349307794_public.xml'));
    execFileSync('zip', ['-q', '-r', 'batch.zip', '2024_TEOS_XML_01A'], { cwd: work });
    const zipBody = await readFile(join(work, 'batch.zip'));
    const index =
      'RETURN_ID,FILING_TYPE,EIN,TAX_PERIOD,SUB_DATE,TAXPAYER_NAME,RETURN_TYPE,DLN,OBJECT_ID,XML_BATCH_ID\n' +
      '1,EFILE,201585919,201412,2024,VOICE OF SAN DIEGO,990,93493134007945,201541349349307794,2024_TEOS_XML_01A\n' +
      '2,EFILE,000000001,202312,2024,LATER BATCH ORG,990,1,202400000000000001,2024_TEOS_XML_05A\n';
    server = createServer((req, res) => {
      hits.push(req.url ?? '');
      if (req.url === '/pub/epostcard/990/xml/2024/index_2024.csv') res.writeHead(200, { 'content-type': 'text/csv' }).end(index);
      else if (req.url === '/pub/epostcard/990/xml/2024/2024_TEOS_XML_01A.zip') res.writeHead(200, { 'content-type': 'application/zip' }).end(zipBody);
      else res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    app = await createTestApp({ routes: [...compensationRoutes, ...boardRoutes], env: { IRS_BASE_URL: base } });
    const s = await app.ingest(datasetIrs990, { period: '2024Q1' }, { skipDiff: true });
    expect(s.badRows).toBe(0);
    expect(s.rowsWritten).toBe(7);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    server?.close();
  });

  it('downloads only the batches of the quarter and reads the zip member by member', async () => {
    expect(hits).toEqual(['/pub/epostcard/990/xml/2024/index_2024.csv', '/pub/epostcard/990/xml/2024/2024_TEOS_XML_01A.zip']);
    const r = await app.get('/v1/board?ein=201585919&person_name=ann%20alpert');
    expect(r.body.data).toHaveLength(1);
    expect(r.body.data[0]).toMatchObject({ object_id: '201541349349307794', title: 'CFO', source_url: expect.stringMatching(/2024_TEOS_XML_01A\.zip$/) });
  });
});
