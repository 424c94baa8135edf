import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import entitiesRoutes from '../../api/entities/routes.ts';
import filingsRoutes from '../../api/filings/routes.ts';
import financialStatementsRoutes from '../../api/financial-statements/routes.ts';
import financialsRoutes from '../../api/financials/routes.ts';
import ntLateRoutes from '../../api/nt-late/routes.ts';
import datasetEntities from '../../ingest/datasets/entities/dataset.ts';
import datasetFilings from '../../ingest/datasets/filings/dataset.ts';
import datasetFinancialStatements from '../../ingest/datasets/financial-statements/dataset.ts';
import datasetFinancials from '../../ingest/datasets/financials/dataset.ts';
import { sampleCompanies } from '../../ingest/samples/universe.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';

const reporting = sampleCompanies(7, 1);

/** The demo samples of all five datasets, written in the real formats and ingested through the real pipeline. */
describe('samples → ingest → API (all five datasets)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ routes: [...entitiesRoutes, ...filingsRoutes, ...ntLateRoutes, ...financialsRoutes, ...financialStatementsRoutes] });
    // No test here reads events: the diff stage is skipped.
    for (const d of [datasetEntities, datasetFilings, datasetFinancials, datasetFinancialStatements]) {
      const s = await app.ingestSample(d, { seed: 7, scale: 1, skipDiff: true });
      expect(s.badRows, d.name).toBe(0);
      expect(s.rowsWritten, d.name).toBeGreaterThan(0);
    }
  }, 180_000);
  afterAll(async () => {
    await app?.close();
  });

  it('entities and filings join up; index + submissions merged', async () => {
    // The directory holds the whole sample universe; the reporting companies (the first issuers) have filings.
    const e = await Promise.all(reporting.map(async (c) => (await app.get(`/v1/entities?cik=${c.cik}`)).body.data[0]));
    expect(e.map((x) => x?.name)).toEqual(reporting.map((c) => c.name));
    const f = await app.get(`/v1/filings?cik=${e[0].cik}&form_type=8-K&limit=10`);
    expect(f.body.data.length).toBeGreaterThan(0);
    expect(f.body.data[0].detail_source).toBe('index+submissions');
    expect(f.body.data[0].items.length).toBeGreaterThan(0);
    // Form 4 also listed under the reporting owner's CIK, from the index only.
    const owner = await app.get(`/v1/filings?cik=${Number(e[0].cik) + 1}`);
    expect(owner.body.data[0]).toMatchObject({ form: '4', detail_source: 'index' });
  });

  it('nt-late, financials (latest value after a 10-K/A), financial statements', async () => {
    expect((await app.get('/v1/nt-late?late_for_form=10-Q&limit=100')).body.data).toHaveLength(12);
    const e = (await app.get(`/v1/entities?cik=${reporting[0].cik}`)).body.data[0];
    const rev = await app.get(`/v1/financials?cik=${e.cik}&concept=us-gaap:Revenues&period_end_from=2023-12-31&period_end_to=2023-12-31&latest=true`);
    expect(rev.body.data).toHaveLength(1);
    expect(rev.body.data[0].form).toBe('10-K/A');
    const fs = await app.get(`/v1/financial-statements?cik=${Number(e.cik)}&tag=Revenues&limit=100`);
    expect(fs.body.data.length).toBe(4);
    expect(fs.body.data.some((x: { segments: string | null }) => x.segments === 'ProductOrService=Services;')).toBe(true);
  });
});
