import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import formCrs from '../../ingest/datasets/form-crs/dataset.ts';
import { sampleCrs } from '../../ingest/datasets/form-crs/sample.ts';
import { encodeCp1252 } from '../../ingest/sources/common/text.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { runLoad } from './load-harness.ts';
import { pageAll } from '../support/page-all.ts';
import formCrsRoutes from '../../api/form-crs/routes.ts';
import { tempDir } from '../support/temp-dir.ts';

describe('form-crs: data file parsing', () => {
  it('maps alternative header names, builds a key when no id is published, reports bad lines', async () => {
    const dir = tempDir('crs-');
    const path = join(dir, 'crs.csv');
    writeFileSync(
      path,
      encodeCp1252(
        [
          '"CRD Number","Firm Name","Filing Type","Date Filed","Legal or Disciplinary History","Financial Professionals"\r\n',
          '"0042","O’NEIL SECURITIES","Amendment","03/15/2026 11:02:00 AM","Yes","1,204"\r\n', // 2
          '"43","NO DATE LLC","Initial","","N","3"\r\n', // 3
          '"44","ODD FLAG INC","Initial","2026-01-02","maybe","x"\r\n', // 4
          '"45","SHORT"\r\n', // 5
        ].join(''),
      ),
    );
    const c = await runLoad(formCrs, [{ path, url: null }]);
    expect(c.invalid).toEqual([]);
    expect(c.rows.form_crs).toEqual([
      expect.objectContaining({
        filing_key: '42|2026-03-15|Amendment',
        firm_crd: '42',
        filer_name: 'O’NEIL SECURITIES',
        form_sub_type: 'Amendment',
        filed_date: '2026-03-15',
        filed_month: '2026-03',
        disciplinary_history_flag: 1,
        professionals: 1204,
        source_url: 'https://adviserinfo.sec.gov/firm/summary/42',
        source_line: 2,
      }),
      expect.objectContaining({ firm_crd: '44', disciplinary_history_flag: null, professionals: null }),
    ]);
    expect(c.bad.map((b) => [b.line, b.reason])).toEqual([
      [3, 'missing filing date'],
      [4, "disciplinary: expected Y/N, got 'maybe' (row kept, value null)"],
      [4, "professionals: unparsable number 'x' (row kept, value null)"],
      [5, 'expected 6 columns, found 2'],
    ]);
  });

  it('refuses a file without a date column, naming the headers it has', async () => {
    const dir = tempDir('crs-');
    writeFileSync(join(dir, 'x.csv'), '"Firm CRD","Filer Name"\r\n"1","A"\r\n');
    await expect(runLoad(formCrs, [{ path: join(dir, 'x.csv'), url: null }])).rejects.toThrow(/filing-date column \(found: Firm CRD \| Filer Name\)/);
  });
});

describe('GET /v1/form-crs', () => {
  let app: TestApp;
  const crs = sampleCrs(6, 1);
  beforeAll(async () => {
    app = await createTestApp({ routes: formCrsRoutes });
    const s = await app.ingestSample(formCrs, { seed: 6, skipDiff: true });
    expect(s.badRows).toBe(0);
    expect(s.rowsWritten).toBe(crs.length);
  });
  afterAll(() => app?.close());

  const all = (qs: string) => pageAll(app, '/v1/form-crs', { qs });
  const ids = (xs: SampleCrsLike[]) => xs.map((x) => x.id).sort();
  type SampleCrsLike = { id: string };

  it('newest first, every filter', async () => {
    const every = await all('');
    expect(every).toHaveLength(crs.length);
    for (let i = 1; i < every.length; i++) expect(every[i - 1].filed_date >= every[i].filed_date).toBe(true);
    const c = crs.find((x) => x.cik)!;
    expect((await all(`firm_crd=${c.crd}`)).map((d) => d.filing_id).sort()).toEqual(ids(crs.filter((x) => x.crd === c.crd)));
    expect((await all(`filer_cik=${Number(c.cik)}`)).map((d) => d.filing_id).sort()).toEqual(ids(crs.filter((x) => x.cik === c.cik)));
    expect((await all(`filer_name=${encodeURIComponent(c.name.toLowerCase())}`)).some((d) => d.firm_crd === String(c.crd))).toBe(true);
    expect((await all('form_sub_type=amendment')).map((d) => d.filing_id).sort()).toEqual(ids(crs.filter((x) => x.subType === 'Amendment')));
    expect((await all('disciplinary_history_flag=1')).map((d) => d.filing_id).sort()).toEqual(ids(crs.filter((x) => x.disciplinary)));
    expect((await all('filed_after=2026-01-01&filed_before=2026-06-30')).map((d) => d.filing_id).sort()).toEqual(
      ids(crs.filter((x) => x.filed > '2026-01-01' && x.filed < '2026-06-30')),
    );
    expect((await all('min_professionals=500')).map((d) => d.filing_id).sort()).toEqual(ids(crs.filter((x) => x.professionals >= 500)));
  });

  it('422 on inverted dates and out-of-range flags', async () => {
    for (const [qs, param] of [
      ['filed_after=2026-02-01&filed_before=2026-01-01', 'filed_before'],
      ['disciplinary_history_flag=3', 'disciplinary_history_flag'],
      ['filer_cik=abc', 'filer_cik'],
      ['min_professionals=-1', 'min_professionals'],
    ]) {
      const r = await app.get(`/v1/form-crs?${qs}`);
      expect(r.status).toBe(422);
      expect(r.body.detail[0].loc).toEqual(['query', param]);
    }
  });
});
