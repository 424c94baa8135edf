import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { fixturePath, hasFixtures } from '../support/fixtures.ts';
import compensationRoutes from '../../api/compensation/routes.ts';
import proxyRoutes from '../../api/proxy/routes.ts';
import boardRoutes from '../../api/board/routes.ts';
import datasetIrs990 from '../../ingest/datasets/irs990/dataset.ts';
import datasetProxy from '../../ingest/datasets/proxy/dataset.ts';

const PROXY_180 = 'proxy/def14a_180_degree_capital_2020_full_submission.txt';
const PROXY_CABOT = 'proxy/def14a_cabot_corp_inline_xbrl.htm';
const RETURN_990 = 'irs990/990_201541349349307794_voice_of_san_diego_2014.xml';

/** A stand-in for the EDGAR archive on loopback, serving the recorded full submission at its real path. */
async function archiveServer(): Promise<{ server: Server; base: string; hits: string[] }> {
  const body = await readFile(fixturePath(PROXY_180));
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? '');
    if (req.url === '/Archives/edgar/data/893739/000089373920000019/0000893739-20-000019.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end(body);
    } else res.writeHead(404).end('not found');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, base: `http://127.0.0.1:${(server.address() as { port: number }).port}`, hits };
}

describe.skipIf(!hasFixtures)('proxy-board API over real filings', () => {
  let app: TestApp;
  let archive: Awaited<ReturnType<typeof archiveServer>>;
  beforeAll(async () => {
    archive = await archiveServer();
    app = await createTestApp({ routes: [...compensationRoutes, ...proxyRoutes, ...boardRoutes], env: { SEC_BASE_URL: archive.base } });
    const byAccession = await app.ingest(datasetProxy, { from: '893739/0000893739-20-000019' }, { skipDiff: true });
    expect(byAccession.badRows).toBe(0);
    const cabot = await app.ingest(datasetProxy, { from: fixturePath(PROXY_CABOT) }, { skipDiff: true });
    expect(cabot.badRows).toBe(0);
    const irs = await app.ingest(datasetIrs990, { from: fixturePath(RETURN_990) }, { skipDiff: true });
    expect(irs.badRows).toBe(0);
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    archive?.server.close();
  });

  it('fetched the proxy by accession from SEC_BASE_URL', () => {
    expect(archive.hits).toContain('/Archives/edgar/data/893739/000089373920000019/0000893739-20-000019.txt');
  });

  it('/v1/proxy/officers lists the people of one proxy with age, title, independence', async () => {
    const r = await app.get('/v1/proxy/officers?cik=893739&limit=100');
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveLength(8);
    const weil = r.body.data.find((d: any) => d.name_normalized === 'parker weil');
    expect(weil).toMatchObject({
      cik: '0000893739',
      issuer: '180 DEGREE CAPITAL CORP. /NY/',
      accession_number: '0000893739-20-000019',
      filed_date: '2020-03-25',
      fiscal_year: 2019,
      name: 'Parker A. Weil',
      title: 'Independent Director',
      is_director: true,
      is_officer: false,
      is_independent: true,
      age: 54,
      director_since: 2017,
      source: 'sec_proxy',
      source_url: `${archive.base}/Archives/edgar/data/893739/000089373920000019/annualmeetingproxy2020-doc.htm`,
    });
    expect(weil.found_in).toEqual(['people_table#7', 'fund_compensation#9']);
  });

  it('/v1/proxy/officers filters: accession_number, issuer, name, title, is_independent, min_age', async () => {
    const acc = await app.get('/v1/proxy/officers?accession_number=000089373920000019&limit=100');
    expect(acc.body.data).toHaveLength(8);
    const issuer = await app.get('/v1/proxy/officers?issuer=cabot&limit=100');
    expect(issuer.body.data).toHaveLength(16);
    const name = await app.get('/v1/proxy/officers?name=KEOHANE,%20SEAN');
    expect(name.body.data.map((d: any) => [d.name, d.age, d.director_since, d.title])).toEqual([['Sean D. Keohane', 56, 2016, 'President and CEO']]);
    const title = await app.get('/v1/proxy/officers?title=general%20counsel');
    expect(title.body.data.map((d: any) => d.name)).toEqual(['Karen A. Kalita']);
    const notIndependent = await app.get('/v1/proxy/officers?is_independent=false&limit=100');
    expect(notIndependent.body.data.map((d: any) => d.name).sort()).toEqual(['Daniel B. Wolfe', 'Kevin M. Rendino', 'Sean D. Keohane']);
    const old = await app.get('/v1/proxy/officers?min_age=70&limit=100');
    expect(old.body.data.map((d: any) => `${d.name} ${d.age}`).sort()).toEqual(['Matthias L. Wolfgruber 70', 'Richard P. Shanley 73', 'William C. Kirby 72']);
  });

  it('/v1/compensation serves SCT rows per executive per year, with every filter', async () => {
    const all = await app.get('/v1/compensation?filer_cik=16040&executive_name=sean%20keohane');
    expect(all.body.data.map((d: any) => [d.fiscal_year, d.total_usd, d.pvp_verified])).toEqual([
      [2023, 7791510, true],
      [2022, 7948029, true],
      [2021, 8242487, true],
    ]);
    expect(all.body.data[0]).toMatchObject({
      table_kind: 'summary_compensation',
      salary_usd: 1083750,
      bonus_usd: null,
      stock_awards_usd: 3509911,
      option_awards_usd: 1890051,
      non_equity_incentive_usd: 1045704,
      pension_deferred_usd: 26843,
      other_usd: 235251,
      total_checks: true,
      pvp_compensation_actually_paid_usd: 8106840,
      confidence: 1,
      title: 'President and CEO',
      accession_number: null,
    });
    const fy = await app.get('/v1/compensation?fiscal_year=2021&issuer_name=cabot&limit=100');
    expect(fy.body.data).toHaveLength(5);
    const range = await app.get('/v1/compensation?min_fiscal_year=2022&max_fiscal_year=2022&filer_cik=16040&limit=100');
    expect(range.body.data).toHaveLength(5);
    const big = await app.get('/v1/compensation?min_total_usd=2900000&limit=100');
    expect(big.body.data.map((d: any) => `${d.executive_name} ${d.fiscal_year}`).sort()).toEqual([
      'Jeff Zhu 2021',
      'Jeff Zhu 2022',
      'Jeff Zhu 2023',
      'Sean D. Keohane 2021',
      'Sean D. Keohane 2022',
      'Sean D. Keohane 2023',
    ]);
    const acc = await app.get('/v1/compensation?accession_number=0000893739-20-000019&limit=100');
    expect(acc.body.data).toHaveLength(8);
    expect(acc.body.data.find((d: any) => d.executive_name === 'Kevin M. Rendino')).toMatchObject({
      table_kind: 'fund_compensation',
      fiscal_year: 2019,
      aggregate_comp_usd: 1814970,
      total_usd: 1814970,
      pension_deferred_usd: 0,
    });
  });

  it('/v1/board finds the same person across sources and filters by source_type, ein, role, organization', async () => {
    const proxy = await app.get('/v1/board?source_type=sec_proxy&sec_cik=0000893739&limit=100');
    expect(proxy.body.data.map((d: any) => d.person_name).sort()).toEqual([
      'Charles E. Ramsey',
      'Daniel B. Wolfe',
      'Kevin M. Rendino',
      'Parker A. Weil',
      'Richard P. Shanley',
      'Stacy R. Brandom',
    ]);
    const irs = await app.get('/v1/board?source_type=irs_990&ein=20-1585919&limit=100');
    expect(irs.body.data).toHaveLength(7);
    const lewis = irs.body.data.find((d: any) => d.person_name === 'SCOTT LEWIS');
    expect(lewis).toMatchObject({
      organization_name: 'VOICE OF SAN DIEGO',
      ein: '201585919',
      title: 'PRESIDENT/CEO',
      role: 'officer',
      roles: ['officer'],
      average_hours_per_week: 40,
      reportable_comp_usd: 110886,
      reportable_comp_related_usd: 0,
      other_comp_usd: 0,
      is_director: false,
      is_officer: true,
      is_key_employee: false,
      fiscal_year: 2014,
      period_end: '2014-12-31',
      form_type: '990',
      object_id: '201541349349307794',
      confidence: 1,
      person_name_normalized: 'scott lewis',
    });
    const officers = await app.get('/v1/board?source_type=irs_990&role=officer&limit=100');
    expect(officers.body.data.map((d: any) => d.person_name).sort()).toEqual(['ANN ALPERT', 'BLAIR BLUM', 'ROBERT PAGE', 'SCOTT LEWIS']);
    const org = await app.get('/v1/board?organization_name=voice%20of&person_name=woolley');
    expect(org.body.data.map((d: any) => [d.person_name, d.title])).toEqual([['R B WOOLLEY', 'CHAIRMAN OF THE BOARD']]);
    const initial = await app.get('/v1/board?person_name=Robert%20Woolley');
    expect(initial.body.data.map((d: any) => d.person_name)).toEqual(['R B WOOLLEY']);
    const noMiddle = await app.get('/v1/board?person_name=PARKER%20WEIL');
    expect(noMiddle.body.data.map((d: any) => [d.person_name, d.source_type])).toEqual([['Parker A. Weil', 'sec_proxy']]);
  });

  it('rows below the confidence floor are hidden unless min_confidence is lowered', async () => {
    const dflt = await app.get('/v1/board?source_type=sec_proxy&limit=100');
    expect(dflt.body.query_echo.min_confidence).toBe(0.5);
    const high = await app.get('/v1/board?source_type=sec_proxy&min_confidence=0.9&limit=100');
    expect(high.body.data.every((d: any) => d.confidence >= 0.9)).toBe(true);
    expect(high.body.data.length).toBeLessThan(dflt.body.data.length);
  });

  it('OpenAPI documents every spec filter, and min_confidence with its default floor', async () => {
    const o = await app.get('/openapi.json', null);
    expect(o.status).toBe(200);
    const names = (path: string) => o.body.paths[path].get.parameters.map((x: any) => x.name);
    expect(names('/v1/board')).toEqual(
      expect.arrayContaining(['source_type', 'sec_cik', 'ein', 'organization_name', 'person_name', 'role', 'min_confidence', 'cursor', 'limit']),
    );
    expect(names('/v1/proxy/officers')).toEqual(expect.arrayContaining(['cik', 'accession_number', 'issuer', 'name', 'title', 'is_independent', 'min_age']));
    expect(names('/v1/compensation')).toEqual(
      expect.arrayContaining([
        'issuer_name',
        'filer_cik',
        'executive_name',
        'fiscal_year',
        'min_fiscal_year',
        'max_fiscal_year',
        'min_total_usd',
        'accession_number',
      ]),
    );
    const mc = o.body.paths['/v1/board'].get.parameters.find((x: any) => x.name === 'min_confidence');
    expect(mc.schema).toMatchObject({ type: 'number', minimum: 0, maximum: 1, default: 0.5 });
  });

  it('pages with keyset cursors without repeats', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const r: any = await app.get(`/v1/board?limit=5${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(r.status).toBe(200);
      seen.push(...r.body.data.map((d: any) => `${d.source_type}:${d.person_name}:${d.organization_name}`));
      cursor = r.body.page.next_cursor;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBe(6 + 12 + 7);
  });

  it('answers 422 naming the parameter for bad input, and an empty_result warning for no match', async () => {
    for (const [q, param] of [
      ['/v1/board?source_type=sec', 'source_type'],
      ['/v1/board?min_confidence=2', 'min_confidence'],
      ['/v1/board?ein=12', 'ein'],
      ['/v1/board?role=ceo', 'role'],
      ['/v1/board?sec_cik=abc', 'sec_cik'],
      ['/v1/proxy/officers?min_age=-1', 'min_age'],
      ['/v1/proxy/officers?is_independent=maybe', 'is_independent'],
      ['/v1/proxy/officers?accession_number=12', 'accession_number'],
      ['/v1/compensation?fiscal_year=abc', 'fiscal_year'],
      ['/v1/compensation?min_total_usd=-5', 'min_total_usd'],
      ['/v1/compensation?min_fiscal_year=2023&max_fiscal_year=2021', 'max_fiscal_year'],
    ] as const) {
      const r = await app.get(q);
      expect(r.status, q).toBe(422);
      expect(r.body.detail[0].loc, q).toEqual(['query', param]);
    }
    const none = await app.get('/v1/compensation?executive_name=nobody%20here');
    expect(none.status).toBe(200);
    expect(none.body.data).toEqual([]);
    expect(none.body.warnings[0].code).toBe('empty_result');
  });
});

describe('proxy-board demo samples ingest end to end', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ routes: [...compensationRoutes, ...proxyRoutes, ...boardRoutes] });
  }, 60_000);
  afterAll(() => app?.close());
  it('ingests the proxy and 990 samples and serves them', async () => {
    const p = await app.ingestSample(datasetProxy, { skipDiff: true });
    expect(p.badRows).toBe(0);
    const i = await app.ingestSample(datasetIrs990, { skipDiff: true });
    expect(i.badRows).toBe(0);
    const comp = await app.get('/v1/compensation?limit=100');
    // Two consecutive proxies (fiscal 2022 and 2023) per issuer, 9 rows each.
    expect(comp.body.data).toHaveLength(54);
    expect(comp.body.data.every((d: any) => d.total_checks === true && d.confidence >= 0.9)).toBe(true);
    const ez = await app.get('/v1/board?source_type=irs_990&limit=100');
    expect(ez.body.data.some((d: any) => d.form_type === '990EZ' && d.confidence === 0.9)).toBe(true);
  });
});
