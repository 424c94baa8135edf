import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { fixturePath, hasFixtures, readFixture } from '../support/fixtures.ts';
import { companyFacts, type FactRow } from '../../ingest/sources/edgar/xbrl/companyfacts.ts';
import financialsRoutes from '../../api/financials/routes.ts';
import companyFactsRoute from '../../api/financials/company-facts.ts';
import datasetEntities from '../../ingest/datasets/entities/dataset.ts';
import datasetFinancials from '../../ingest/datasets/financials/dataset.ts';
import { tempDir } from '../support/temp-dir.ts';
import { logQueries } from '../support/query-log.ts';

async function rowsOf(rel: string): Promise<FactRow[]> {
  const out: FactRow[] = [];
  for (const r of companyFacts(JSON.parse(await readFixture(rel)))) if ('row' in r) out.push(r.row);
  return out;
}

describe.skipIf(!hasFixtures)('company facts parser (real samples)', () => {
  it('Apple (truncated sample): every fact kept, concept namespaced, instants have no start', async () => {
    const rows = await rowsOf('xbrl-api/companyfacts_CIK0000320193_apple_TRUNCATED_20_concepts.json');
    expect(rows).toHaveLength(4025);
    const rev = rows.filter((r) => r.concept === 'us-gaap:Revenues');
    expect(rev).toHaveLength(11);
    expect(rev[0]).toEqual({
      cik: '0000320193',
      cik_bucket: '00003',
      entity_name: 'Apple Inc.',
      taxonomy: 'us-gaap',
      concept: 'us-gaap:Revenues',
      label: 'Revenues',
      unit: 'USD',
      period_start: '2015-09-27',
      period_end: '2016-09-24',
      period_days: 364,
      value: 215639000000,
      accession: '0000320193-18-000145',
      fiscal_year: 2018,
      fiscal_period: 'FY',
      form: '10-K',
      filed: '2018-11-05',
      frame: 'CY2016',
      is_latest: true,
    });
    const assets = rows.find((r) => r.concept === 'us-gaap:Assets')!;
    expect(assets.period_start).toBeNull();
    expect(assets.period_days).toBe(0);
  });

  it('the same period re-reported by later filings: only the latest-filed one is_latest', async () => {
    const rows = await rowsOf('xbrl-api/companyfacts_CIK0000320193_apple_TRUNCATED_20_concepts.json');
    const groups = new Map<string, FactRow[]>();
    for (const r of rows) {
      const k = `${r.concept}|${r.unit}|${r.period_start}|${r.period_end}`;
      groups.set(k, [...(groups.get(k) ?? []), r]);
    }
    const repeated = [...groups.values()].filter((g) => g.length > 1);
    expect(repeated.length).toBeGreaterThan(100);
    for (const g of repeated) {
      const latest = g.filter((r) => r.is_latest);
      expect(latest).toHaveLength(1);
      const maxFiled = g
        .map((r) => r.filed)
        .sort()
        .at(-1);
      expect(latest[0].filed).toBe(maxFiled);
    }
  });

  it('LPA (IFRS, 20-F): cik given as a zero-padded string, ifrs-full concepts', async () => {
    const rows = await rowsOf('xbrl-api/companyfacts_logistic_properties_americas_lpa.json');
    expect(rows).toHaveLength(768);
    expect(rows[0].cik).toBe('0001997711');
    expect(new Set(rows.map((r) => r.taxonomy))).toEqual(new Set(['dei', 'ifrs-full']));
  });

  it('a fact without accn or a bad end date is reported, the rest kept', () => {
    const doc = {
      cik: 1,
      entityName: 'X',
      facts: {
        'us-gaap': {
          A: {
            label: 'A',
            units: {
              USD: [
                { end: '2024-13-01', val: 1, accn: '0000000001-24-000001', filed: '2024-02-01' },
                { end: '2024-01-31', val: 2, accn: '0000000001-24-000001', filed: '2024-02-01' },
                { end: '2024-01-31', val: 3, filed: '2024-02-01' },
              ],
            },
          },
        },
      },
    };
    const out = [...companyFacts(doc)];
    expect(out.filter((r) => 'error' in r)).toHaveLength(2);
    expect(out.filter((r) => 'row' in r)).toHaveLength(1);
  });
});

describe.skipIf(!hasFixtures)('/v1/financials over HTTP (real company facts)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ routes: [...financialsRoutes, companyFactsRoute] });
    const dir = tempDir('ef-facts-');
    for (const f of [
      'companyfacts_CIK0000320193_apple_TRUNCATED_20_concepts.json',
      'companyfacts_CIK0001835632.json',
      'companyfacts_logistic_properties_americas_lpa.json',
      'company_tickers_exchange.json',
      'submissions_CIK0000320193.json',
    ]) {
      await symlink(fixturePath(`xbrl-api/${f}`), join(dir, f));
    }
    const s = await app.ingest(datasetFinancials, { from: dir }, { skipDiff: true });
    expect(s.badRows).toBe(0);
    expect(s.rowsWritten).toBe(4025 + 8053 + 768);
    await app.ingest(datasetEntities, { from: dir, date: '2024-01-02' }, { skipDiff: true });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
  });

  it('/v1/financials/{cik}?concept=us-gaap:Revenues groups units and periods', async () => {
    const r = await app.get('/v1/financials/320193?concept=us-gaap:Revenues');
    expect(r.status).toBe(200);
    const rec = r.body.data[0];
    expect(rec).toMatchObject({ cik: '0000320193', entity_name: 'Apple Inc.', ticker: 'AAPL' });
    expect(rec.concepts).toHaveLength(1);
    expect(rec.concepts[0]).toMatchObject({ concept: 'us-gaap:Revenues', taxonomy: 'us-gaap', label: 'Revenues' });
    expect(rec.concepts[0].units.USD).toHaveLength(11);
    expect(rec.concepts[0].units.USD).toContainEqual({
      start: '2015-09-27',
      end: '2016-09-24',
      value: 215639000000,
      fy: 2018,
      fp: 'FY',
      form: '10-K',
      accession: '0000320193-18-000145',
      filed: '2018-11-05',
      frame: 'CY2016',
      is_latest: true,
    });
  });

  it('path accepts a ticker or a name; unknown → 404 entity_unresolved', async () => {
    const t = await app.get('/v1/financials/AAPL?concept=Revenues');
    expect(t.body.data[0].concepts[0].concept).toBe('us-gaap:Revenues');
    const n = await app.get('/v1/financials/Apple%20Inc.?concept=us-gaap:Assets&latest=true');
    expect(n.body.data[0].concepts[0].units.USD.every((f: { is_latest: boolean }) => f.is_latest)).toBe(true);
    const bad = await app.get('/v1/financials/NOPEXYZ');
    expect(bad.status).toBe(404);
    expect(JSON.stringify(bad.body)).toContain('entity_unresolved');
  });

  it('without concept: pages over concepts with a cursor', async () => {
    const first = await app.get('/v1/financials/0000320193?limit=5');
    expect(first.body.data[0].concepts).toHaveLength(5);
    expect(first.body.page.has_more).toBe(true);
    const second = await app.get(`/v1/financials/0000320193?limit=5&cursor=${first.body.page.next_cursor}`);
    const a = first.body.data[0].concepts.map((c: { concept: string }) => c.concept);
    const b = second.body.data[0].concepts.map((c: { concept: string }) => c.concept);
    expect(b[0] > a[4]).toBe(true);
    expect((await app.get('/v1/financials/320193?cursor=garbage')).status).toBe(422);
    // Signed like every list's cursor: an edited one, or one reused with other filters, is a 422 on `cursor`.
    const cursor: string = first.body.page.next_cursor;
    const edited = `${cursor.slice(0, 10)}${cursor[10] === 'A' ? 'B' : 'A'}${cursor.slice(11)}`;
    const tampered = await app.get(`/v1/financials/0000320193?limit=5&cursor=${edited}`);
    expect(tampered.status).toBe(422);
    expect(tampered.body.detail[0].loc).toEqual(['query', 'cursor']);
    const foreign = await app.get(`/v1/financials/0000320193?limit=5&form=10-Q&cursor=${cursor}`);
    expect(foreign.status).toBe(422);
    expect(foreign.body.detail[0].msg).toMatch(/another endpoint or other filters/);
    // The company may be named another way: the cursor is bound to the resolved CIK.
    expect((await app.get(`/v1/financials/320193?limit=5&cursor=${cursor}`)).status).toBe(200);
  });

  it('list: filters cik/concept/unit/form/fiscal_year/period range/latest and 422s', async () => {
    const r = await app.get('/v1/financials?cik=1835632&concept=us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax&form=10-K&latest=true&limit=100');
    expect(r.status).toBe(200);
    expect(r.body.data.length).toBeGreaterThan(0);
    expect(r.body.data.every((f: { cik: string; form: string; is_latest: boolean }) => f.cik === '0001835632' && f.form === '10-K' && f.is_latest)).toBe(true);
    const fy = await app.get('/v1/financials?ticker=AAPL&concept_q=EarningsPerShare&unit=usd/shares&fiscal_year=2019&limit=100');
    expect(fy.body.data.length).toBeGreaterThan(0);
    expect(
      fy.body.data.every(
        (f: { unit: string; fiscal_year: number; concept: string }) =>
          f.unit === 'USD/shares' && f.fiscal_year === 2019 && f.concept.includes('EarningsPerShare'),
      ),
    ).toBe(true);
    // The ticker's CIKs are bound, with their buckets (the facts' partitions): the same rows as the CIK's page.
    const byCik = await app.get('/v1/financials?cik=320193&concept_q=EarningsPerShare&unit=usd/shares&fiscal_year=2019&limit=100');
    expect(fy.body.data).toEqual(byCik.body.data);
    const sql = logQueries(app.services.lake);
    expect((await app.get('/v1/financials?ticker=AAPL&limit=5')).status).toBe(200);
    expect(sql.filter((q) => q.includes('entity_tickers'))).toHaveLength(1);
    expect(sql.some((q) => q.includes('financial_facts') && q.includes('cik_bucket IN ('))).toBe(true);
    expect((await app.get('/v1/financials?ticker=ZZZZQ&limit=5')).body.data).toEqual([]);
    const pe = await app.get('/v1/financials?cik=320193&period_end_from=2020-01-01&period_end_to=2020-12-31&filed_from=2021-01-01&limit=100');
    expect(
      pe.body.data.every((f: { period_end: string; filed: string }) => f.period_end >= '2020-01-01' && f.period_end <= '2020-12-31' && f.filed >= '2021-01-01'),
    ).toBe(true);
    expect((await app.get('/v1/financials?q=marvell&limit=1')).body.data[0].cik).toBe('0001835632');
    expect((await app.get('/v1/financials?period_end_from=2024-13-01')).status).toBe(422);
    expect((await app.get('/v1/financials?filed_from=2024-02-01&filed_to=2024-01-01')).status).toBe(422);
    expect((await app.get('/v1/financials?concept=us-gaap:Rev%20enues')).status).toBe(422);
  });

  it('list: cursor paging over one company/concept returns every fact once', async () => {
    const seen = new Set<string>();
    let url = '/v1/financials?cik=320193&concept=us-gaap:Revenues&limit=4';
    for (let i = 0; i < 10; i++) {
      const r = await app.get(url);
      for (const f of r.body.data) seen.add(`${f.period_end}|${f.period_days}|${f.accession}`);
      if (!r.body.page.next_cursor) break;
      url = `/v1/financials?cik=320193&concept=us-gaap:Revenues&limit=4&cursor=${encodeURIComponent(r.body.page.next_cursor)}`;
    }
    expect(seen.size).toBe(11);
  });
});
