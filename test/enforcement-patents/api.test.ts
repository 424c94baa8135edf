import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { readFile, copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { fixturePath, hasFixtures } from '../support/fixtures.ts';
import { sampleLitigationReleases } from '../../ingest/samples/litigation-releases.ts';
import { sampleWhistleblowerOrders } from '../../ingest/datasets/whistleblower/sample.ts';
import { federalFiscalYear } from '../../ingest/sources/sec-web/fiscal-year.ts';
import { writeSampleSite } from '../../ingest/samples/sec-web-pages.ts';
import patentsRoutes from '../../api/patents/routes.ts';
import litigationRoutes from '../../api/litigation/routes.ts';
import tradingSuspensionsRoutes from '../../api/trading-suspensions/routes.ts';
import enforcementRoutes from '../../api/enforcement/routes.ts';
import whistleblowerRoutes from '../../api/whistleblower/routes.ts';
import datasetLitigation from '../../ingest/datasets/litigation/dataset.ts';
import datasetPatents from '../../ingest/datasets/patents/dataset.ts';
import datasetEnforcement from '../../ingest/datasets/enforcement/dataset.ts';
import datasetTradingSuspensions from '../../ingest/datasets/trading-suspensions/dataset.ts';
import datasetWhistleblower from '../../ingest/datasets/whistleblower/dataset.ts';
import { tempDir } from '../support/temp-dir.ts';

type Body = { data: any[]; page: { next_cursor: string | null; has_more: boolean }; warnings?: any[]; detail?: any[] };

async function all(app: TestApp, path: string): Promise<any[]> {
  const out: any[] = [];
  let cursor: string | null = null;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const r = await app.get(`${path}${sep}limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(r.status).toBe(200);
    out.push(...(r.body as Body).data);
    cursor = (r.body as Body).page.next_cursor;
  } while (cursor);
  return out;
}

describe('enforcement-family endpoints over the demo samples', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ routes: [...litigationRoutes, ...enforcementRoutes, ...tradingSuspensionsRoutes, ...whistleblowerRoutes] });
    for (const ds of [datasetLitigation, datasetEnforcement, datasetTradingSuspensions, datasetWhistleblower]) {
      const s = await app.ingestSample(ds, { seed: 7, skipDiff: true });
      expect(s.badRows, ds.name).toBe(0);
    }
  }, 120_000);
  afterAll(async () => app?.close());

  it('/v1/litigation pages through every release newest first with a stable keyset', async () => {
    const rows = await all(app, '/v1/litigation');
    expect(rows).toHaveLength(30);
    const dates = rows.map((r) => r.date);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(new Set(rows.map((r) => r.release_number)).size).toBe(30);
  });

  it('/v1/litigation record: sanctions parsed with the phrase kept, case number, provenance', async () => {
    const expected = sampleLitigationReleases(7, 30).find((r) => r.body!.some((p) => p.includes('civil penalty of')))!;
    const r = await app.get(`/v1/litigation?release_number=${expected.releaseNumbers[0]}`);
    expect(r.body.data).toHaveLength(1);
    const rec = r.body.data[0];
    const sentence = expected.body!.find((p) => p.includes('civil penalty of'))!;
    const penaltyText = sentence.match(/civil penalty of (.+)\.$/)![1];
    expect(rec.penalty.text).toBe(penaltyText);
    expect(rec.action_type).toBe('final_judgment');
    expect(rec.court_case_number).toMatch(/^\d:\d{2}-cv-\d{5}$/);
    expect(rec.source_url).toBe(`https://www.sec.gov${expected.path}`);
    expect(rec.documents[0].url).toMatch(/^https:\/\/www\.sec\.gov\/files\/litigation\/complaints\//);
  });

  it('/v1/litigation filters: release_number forms, defendant, title, action_type, date range', async () => {
    const rows = await all(app, '/v1/litigation');
    const one = rows[3];
    const digits = one.release_number.slice(3);
    for (const form of [one.release_number, `LR${digits}`, digits, one.release_number.toLowerCase()]) {
      const r = await app.get(`/v1/litigation?release_number=${encodeURIComponent(form)}`);
      expect(
        r.body.data.map((d: any) => d.release_number),
        form,
      ).toEqual([one.release_number]);
    }
    const name = one.defendants[0];
    const byDef = await all(app, `/v1/litigation?defendant=${encodeURIComponent(name.toUpperCase())}`);
    expect(byDef.length).toBe(rows.filter((r) => r.defendants.some((d: string) => d.toLowerCase().includes(name.toLowerCase()))).length);
    const byTitle = await all(app, `/v1/litigation?title=${encodeURIComponent(one.title.slice(0, 6))}`);
    expect(byTitle.every((r) => r.title.toLowerCase().includes(one.title.slice(0, 6).toLowerCase()))).toBe(true);
    const complaints = await all(app, '/v1/litigation?action_type=complaint');
    expect(complaints.length).toBe(rows.filter((r) => r.action_type === 'complaint').length);
    expect(complaints.length).toBeGreaterThan(0);
    const mid = rows[10].date;
    const ranged = await all(app, `/v1/litigation?date_from=${mid}&date_to=${mid}`);
    expect(ranged.map((r) => r.release_number).sort()).toEqual(
      rows
        .filter((r) => r.date === mid)
        .map((r) => r.release_number)
        .sort(),
    );
  });

  it('/v1/litigation errors: 422 names the parameter; no match is 200 + empty_result', async () => {
    const bad = await app.get('/v1/litigation?release_number=34-100');
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['query', 'release_number']);
    expect((await app.get('/v1/litigation?action_type=arrest')).body.detail[0].loc).toEqual(['query', 'action_type']);
    expect((await app.get('/v1/litigation?date_from=2024-13-01')).status).toBe(422);
    const range = await app.get('/v1/litigation?date_from=2024-06-01&date_to=2024-05-01');
    expect(range.status).toBe(422);
    expect(range.body.detail[0].loc).toEqual(['query', 'date_to']);
    const none = await app.get('/v1/litigation?defendant=zzzz-nobody');
    expect(none.status).toBe(200);
    expect(none.body.data).toEqual([]);
    expect(none.body.warnings.map((w: any) => w.code)).toContain('empty_result');
  });

  it('/v1/enforcement: both kinds, agency, respondent, action_kind, case_number, penalty_min, dates', async () => {
    const rows = await all(app, '/v1/enforcement');
    expect(rows).toHaveLength(60);
    expect(new Set(rows.map((r) => r.action_kind))).toEqual(new Set(['administrative_proceeding', 'litigation_release']));
    expect((await all(app, '/v1/enforcement?agency=sec')).length).toBe(60);
    expect((await all(app, '/v1/enforcement?agency=FINRA')).length).toBe(0);
    const aps = await all(app, '/v1/enforcement?action_kind=administrative_proceeding');
    expect(aps).toHaveLength(30);
    const withFile = aps.find((r) => r.case_number?.startsWith('3-'))!;
    expect((await app.get(`/v1/enforcement?case_number=${withFile.case_number}`)).body.data.map((d: any) => d.id)).toEqual([withFile.id]);
    const multi = aps.find((r) => r.other_release_numbers.length > 0)!;
    expect(multi.other_release_numbers[0]).toMatch(/^34-\d+$/);
    const penalties = rows
      .filter((r) => r.penalty)
      .map((r) => r.penalty.amount_usd)
      .sort((a, b) => a - b);
    const threshold = penalties[Math.floor(penalties.length / 2)];
    const big = await all(app, `/v1/enforcement?penalty_min=${threshold}`);
    expect(big.length).toBe(penalties.filter((p) => p >= threshold).length);
    expect(big.every((r) => r.penalty.amount_usd >= threshold)).toBe(true);
    const who = aps[0].respondents[0];
    const byResp = await all(app, `/v1/enforcement?respondent=${encodeURIComponent(who)}`);
    expect(byResp.some((r) => r.id === aps[0].id)).toBe(true);
    const d = rows[5].date;
    expect((await all(app, `/v1/enforcement?date_from=${d}&date_to=${d}`)).every((r) => r.date === d)).toBe(true);
    expect((await app.get('/v1/enforcement?penalty_min=-1')).status).toBe(422);
    expect((await app.get('/v1/enforcement?action_kind=fine')).status).toBe(422);
  });

  it('/v1/trading-suspensions: company, release_number, dates; tickers from the order text', async () => {
    const rows = await all(app, '/v1/trading-suspensions');
    expect(rows).toHaveLength(20);
    const one = rows[2];
    expect(one.release_number).toMatch(/^34-\d{6}$/);
    expect(one.tickers).toHaveLength(1);
    expect(one.file_number).toMatch(/^3-\d{5}$/);
    expect((await app.get(`/v1/trading-suspensions?release_number=${one.release_number.slice(3)}`)).body.data.map((r: any) => r.release_number)).toEqual([
      one.release_number,
    ]);
    const byCo = await all(app, `/v1/trading-suspensions?company=${encodeURIComponent(one.companies[0].toLowerCase())}`);
    expect(byCo.length).toBe(rows.filter((r) => r.company.toLowerCase().includes(one.companies[0].toLowerCase())).length);
    expect((await all(app, `/v1/trading-suspensions?date_from=${one.date}&date_to=${one.date}`)).every((r) => r.date === one.date)).toBe(true);
    expect((await app.get('/v1/trading-suspensions?release_number=LR-1')).status).toBe(422);
  });

  it('/v1/whistleblower: federal fiscal year, award range, order number, summary substring', async () => {
    const expected = sampleWhistleblowerOrders(7, 20);
    const rows = await all(app, '/v1/whistleblower');
    expect(rows).toHaveLength(20);
    for (const r of rows) expect(r.fiscal_year).toBe(federalFiscalYear(r.date));
    const fy2025 = expected.filter((e) => federalFiscalYear(e.date) === 2025).length;
    expect(fy2025).toBeGreaterThan(0);
    expect((await all(app, '/v1/whistleblower?fiscal_year=2025')).length).toBe(fy2025);
    // An order dated in October belongs to the next fiscal year.
    const oct = rows.find((r) => r.date.slice(5, 7) === '10')!;
    expect(oct.fiscal_year).toBe(Number(oct.date.slice(0, 4)) + 1);
    const awards = rows.filter((r) => r.award_amount_usd != null);
    expect(awards.every((r) => r.decision === 'award' && r.award_amount_text)).toBe(true);
    const denials = rows.filter((r) => r.decision === 'denial');
    expect(denials.every((r) => r.award_amount_usd === null)).toBe(true);
    const amounts = awards.map((r) => r.award_amount_usd).sort((a, b) => a - b);
    const lo = amounts[1];
    const hi = amounts[amounts.length - 2];
    const mid = await all(app, `/v1/whistleblower?min_award_amount_usd=${lo}&max_award_amount_usd=${hi}`);
    expect(mid.length).toBe(amounts.filter((a) => a >= lo && a <= hi).length);
    const one = rows[4];
    expect((await app.get(`/v1/whistleblower?award_order_no=${one.award_order_no}`)).body.data.map((r: any) => r.award_order_no)).toEqual([one.award_order_no]);
    const denied = await all(app, '/v1/whistleblower?public_summary=DENIED');
    expect(denied.length).toBe(denials.length);
    const badRange = await app.get('/v1/whistleblower?min_award_amount_usd=10&max_award_amount_usd=5');
    expect(badRange.status).toBe(422);
    expect(badRange.body.detail[0].loc).toEqual(['query', 'max_award_amount_usd']);
    expect((await app.get('/v1/whistleblower?fiscal_year=twenty')).status).toBe(422);
  });
});

describe.skipIf(!hasFixtures)('litigation ingest over HTTP from a local regulator stand-in (real RSS + listing pages)', () => {
  let site: Server;
  let app: TestApp;
  let pages: string;
  let broken = false;
  beforeAll(async () => {
    pages = tempDir('lr-site-');
    const releases = sampleLitigationReleases(11, 30, '2024-07-01', 26010).map((r) => ({ ...r, date: r.date < '2024-06-01' ? '2024-06-03' : r.date }));
    await writeSampleSite(pages, { slug: 'lr', title: 'Litigation Releases', kindTitle: 'Litigation Release', releases, perPage: 12 });
    const rss = await readFile(fixturePath('enforcement/litigation_releases_rss_2024-07-01.xml'));
    site = createServer(async (req, res) => {
      const u = new URL(req.url!, 'http://x');
      try {
        if (u.pathname === '/enforcement-litigation/litigation-releases/rss') return res.end(rss);
        if (u.pathname === '/enforcement-litigation/litigation-releases') {
          if (broken) return res.end('<html><body><h1>Service Unavailable - Zero size object</h1></body></html>');
          const page = Number(u.searchParams.get('page') ?? 0);
          return res.end(await readFile(join(pages, `lr-page-${String(page).padStart(3, '0')}.html`)));
        }
        const m = u.pathname.match(/\/lr-(\d+)$/);
        if (m) return res.end(await readFile(join(pages, `lr-${m[1]}.html`)));
      } catch {
        /* fall through */
      }
      res.statusCode = 404;
      res.end('not found');
    });
    await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
    const port = (site.address() as { port: number }).port;
    app = await createTestApp({ routes: litigationRoutes, env: { SEC_BASE_URL: `http://127.0.0.1:${port}` } });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    site?.close();
  });

  it('follows the pager, fetches release pages, merges the real feed (25 items) with the listing', async () => {
    const s = await app.ingest(datasetLitigation, { date: '2024-06-15' }, { skipDiff: true });
    expect(s.badRows).toBe(0);
    const rows = await all(app, '/v1/litigation');
    // 30 listing releases LR-25981..26010 + 25 feed items LR-26016..26040, no overlap.
    expect(rows).toHaveLength(55);
    const fromFeed = rows.find((r) => r.release_number === 'LR-26018')!;
    expect(fromFeed).toMatchObject({
      date: '2024-06-07',
      title: 'Jared Mitchell',
      defendants: ['Jared Mitchell'],
      source_url: 'https://www.sec.gov/node/959846',
      penalty: null,
    });
    const kawuba = rows.find((r) => r.release_number === 'LR-26040')!;
    expect(kawuba).toMatchObject({ date: '2024-07-01', title: 'Adrian J. Kawuba' });
    const listed = rows.find((r) => r.release_number === 'LR-26010')!;
    expect(listed.summary).toContain('United States District Court');
  });

  it('a listing page that cannot be parsed fails the ingest loudly with its URL', async () => {
    broken = true;
    await expect(app.ingest(datasetLitigation, { date: '2024-05-15' }, { skipDiff: true })).rejects.toThrow(
      /cannot parse http:\/\/127\.0\.0\.1:\d+\/enforcement-litigation\/litigation-releases\?month=5&year=2024/,
    );
    broken = false;
  });
});

describe.skipIf(!hasFixtures)('/v1/uspto-patent-grants over the real ipg excerpts and the generated weekly file', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ routes: patentsRoutes });
    const dir = tempDir('ipg-');
    await copyFile(fixturePath('patents/ipg120327.18.xml'), join(dir, 'ipg120327.xml'));
    const real = await app.ingest(datasetPatents, { from: dir }, { skipDiff: true });
    expect(real.badRows).toBe(0);
    expect(real.rowsWritten).toBe(18);
    const sample = await app.ingestSample(datasetPatents, { seed: 3, skipDiff: true });
    expect(sample.badRows).toBe(0);
  }, 120_000);
  afterAll(async () => app?.close());

  it('exact record of a real grant, provenance to the weekly file', async () => {
    const r = await app.get('/v1/uspto-patent-grants?patent_number=D656296');
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveLength(1);
    expect(r.body.data[0]).toMatchObject({
      patent_number: 'D656296',
      kind_code: 'S1',
      patent_type: 'design',
      title: 'Ready to eat snack piece',
      grant_date: '2012-03-27',
      application_number: '29381217',
      claims_count: 1,
      citations_count: 42,
      assignee: 'Frito-Lay North America, Inc.',
      assignee_state: 'TX',
      assignee_country: 'US',
      assignee_cik: null,
      source: 'uspto_patent_grants',
      source_url: 'https://bulkdata.uspto.gov/data/patent/grant/redbook/fulltext/2012/ipg120327.zip',
    });
    expect(r.body.data[0].inventors.length).toBe(3);
  });

  it('patent_number accepts the printed forms; application_number accepts slashes and commas', async () => {
    for (const form of ['D0656296', 'US D656,296 S1', 'd656296']) {
      expect(
        (await app.get(`/v1/uspto-patent-grants?patent_number=${encodeURIComponent(form)}`)).body.data.map((d: any) => d.patent_number),
        form,
      ).toEqual(['D656296']);
    }
    expect(
      (await app.get(`/v1/uspto-patent-grants?application_number=${encodeURIComponent('29/381,217')}`)).body.data.map((d: any) => d.patent_number),
    ).toEqual(['D656296']);
    expect((await app.get('/v1/uspto-patent-grants?patent_number=not-a-patent')).status).toBe(422);
  });

  it('filters: assignee (any), state, country, kind_code, title, grant_year, date range, claims_count_min', async () => {
    const y2012 = await all(app, '/v1/uspto-patent-grants?grant_year=2012');
    expect(y2012).toHaveLength(18);
    const y2024 = await all(app, '/v1/uspto-patent-grants?grant_year=2024');
    expect(y2024).toHaveLength(200);
    expect((await all(app, '/v1/uspto-patent-grants?grant_date_from=2012-03-27&grant_date_to=2012-03-27')).length).toBe(18);
    expect((await all(app, '/v1/uspto-patent-grants?assignee=acushnet&grant_year=2012')).map((r) => r.patent_number).sort()).toEqual(['D656306', 'D656307']);
    expect((await all(app, '/v1/uspto-patent-grants?assignee_state=ny&grant_year=2012')).map((r) => r.patent_number).sort()).toEqual([
      'D656298',
      'D656310',
      'D656311',
    ]);
    expect((await all(app, '/v1/uspto-patent-grants?assignee_country=FR')).map((r) => r.patent_number).sort()).toEqual(['D656312', 'D656313']);
    expect((await all(app, '/v1/uspto-patent-grants?title=handbag')).map((r) => r.patent_number).sort()).toEqual(['D656311', 'D656312', 'D656313']);
    const b2 = await all(app, '/v1/uspto-patent-grants?kind_code=b2');
    expect(b2.length).toBe(y2024.filter((r) => r.kind_code === 'B2').length);
    const many = await all(app, '/v1/uspto-patent-grants?claims_count_min=30');
    expect(many.length).toBe([...y2012, ...y2024].filter((r) => (r.claims_count ?? 0) >= 30).length);
    expect(many.length).toBeGreaterThan(0);
    expect((await app.get('/v1/uspto-patent-grants?grant_date_from=2024-01-03&grant_date_to=2024-01-01')).status).toBe(422);
    expect((await app.get('/v1/uspto-patent-grants?assignee_state=Texas')).status).toBe(422);
    expect((await app.get('/v1/uspto-patent-grants?claims_count_min=-2')).status).toBe(422);
  });
});
