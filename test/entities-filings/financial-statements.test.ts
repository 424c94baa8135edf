import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { fixturePath, hasFixtures } from '../support/fixtures.ts';
import datasetFinancialStatements, { quarterFromName } from '../../ingest/datasets/financial-statements/dataset.ts';
import financialStatementsRoutes from '../../api/financial-statements/routes.ts';

describe('data set quarter from the name', () => {
  it('zip and folder names', () => {
    expect(quarterFromName('/x/2024q3.zip')).toBe('2024Q3');
    expect(quarterFromName('/f/2009q3_sample/num.txt')).toBe('2009Q3');
    expect(quarterFromName('/f/num.txt')).toBeNull();
  });
});

describe.skipIf(!hasFixtures)('/v1/financial-statements over HTTP (real FSDS 2009q3 sample)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ routes: financialStatementsRoutes });
    const s = await app.ingest(datasetFinancialStatements, { from: fixturePath('fsds/2009q3_sample') }, { skipDiff: true });
    expect(s.badRows).toBe(0);
    // 2,401 data lines under the header (the manifest rounds to 2,400); every one lands.
    expect(s.rowsWritten).toBe(2401);
  }, 120_000);
  afterAll(async () => {
    await app?.close();
  });

  it('num ⋈ sub ⋈ tag: a standard tag with its submission and label', async () => {
    const r = await app.get('/v1/financial-statements?adsh=0001193125-09-191566&tag=OtherExpenses');
    expect(r.status).toBe(200);
    expect(r.body.data).toContainEqual(
      expect.objectContaining({
        adsh: '0001193125-09-191566',
        tag: 'OtherExpenses',
        version: 'us-gaap/2009',
        ddate: '2006-12-31',
        qtrs: 4,
        uom: 'USD',
        segments: null,
        coreg: null,
        value: 451000000,
        dataset_quarter: '2009Q3',
        is_custom: false,
      }),
    );
  });

  it('custom tag (version = adsh) with segments', async () => {
    const r = await app.get(
      '/v1/financial-statements?adsh=000119312509191566&tag=StockIssuedDuringPeriodValueBenefitPlansAndExerciseOfStockOptionsAndWarrantsNetOfTax',
    );
    expect(r.body.data).toContainEqual(
      expect.objectContaining({
        version: '0001193125-09-191566',
        segments: 'EquityComponents=AdditionalPaidInCapital;',
        value: 30000000,
        ddate: '2008-12-31',
      }),
    );
  });

  it('filters: cik (int), fiscal_period, sic, uom, ddate range, value range', async () => {
    const r = await app.get(
      '/v1/financial-statements?cik=930835&fiscal_period=q2&uom=usd&ddate_from=2009-06-30&ddate_to=2009-06-30&min_value=1000000&limit=100',
    );
    expect(r.status).toBe(200);
    expect(r.body.data.length).toBeGreaterThan(0);
    for (const x of r.body.data) {
      expect(x).toMatchObject({ cik: '0000930835', company_name: 'EDISON MISSION ENERGY', sic: '4911', fiscal_period: 'Q2', uom: 'USD', ddate: '2009-06-30' });
      expect(x.value).toBeGreaterThanOrEqual(1000000);
    }
    const sic = await app.get('/v1/financial-statements?sic=4911&limit=100');
    expect(sic.body.data.every((x: { sic: string }) => x.sic === '4911')).toBe(true);
  });

  it('422s: bad date, from > to, min > max, non-integer cik', async () => {
    expect((await app.get('/v1/financial-statements?ddate_from=2024-13-01')).status).toBe(422);
    expect((await app.get('/v1/financial-statements?ddate_from=2024-02-01&ddate_to=2024-01-01')).status).toBe(422);
    expect((await app.get('/v1/financial-statements?min_value=5&max_value=1')).status).toBe(422);
    expect((await app.get('/v1/financial-statements?cik=abc')).status).toBe(422);
  });

  it('paging over one filing returns each fact once', async () => {
    const adsh = '0001047469-09-007342';
    const seen = new Set<string>();
    let url = `/v1/financial-statements?adsh=${adsh}&limit=100`;
    for (let i = 0; i < 50; i++) {
      const r = await app.get(url);
      for (const x of r.body.data) seen.add(`${x.tag}|${x.version}|${x.ddate}|${x.qtrs}|${x.uom}|${x.segments}|${x.coreg}`);
      if (!r.body.page.next_cursor) break;
      url = `/v1/financial-statements?adsh=${adsh}&limit=100&cursor=${encodeURIComponent(r.body.page.next_cursor)}`;
    }
    const { execSync } = await import('node:child_process');
    const expected = Number(
      execSync(`awk -F'\\t' '$1=="${adsh}"' ${fixturePath('fsds/2009q3_sample/num.txt')} | wc -l`)
        .toString()
        .trim(),
    );
    expect(seen.size).toBe(expected);
  });
});
