import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import privateFunds, { filingDataFiles, periodEndOf } from '../../ingest/datasets/private-funds/dataset.ts';
import { submittedAt } from '../../ingest/sources/iapd/private-fund-data.ts';
import { sampleFirms } from '../../ingest/samples/firms.ts';
import { encodeCp1252 } from '../../ingest/sources/common/text.ts';
import { writeZip } from '../../ingest/sources/common/zip.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { runLoad } from './load-harness.ts';
import { pageAll } from '../support/page-all.ts';
import privateFundsRoutes from '../../api/private-funds/routes.ts';
import { tempDir } from '../support/temp-dir.ts';

const tmp = () => tempDir('pf-');
const BASE = '"FilingID","DateSubmitted","1A","1B1","1D","1E1","10A"\r\n';
const FUNDS = '"FilingID","Fund Name","Fund ID","ReferenceID","Fund Type","Gross Asset Value","Owners"\r\n';

async function monthZip(dir: string, name: string, base: string, funds: string): Promise<string> {
  const path = join(dir, name);
  const sfx = name.match(/\d{8}_\d{8}/)![0];
  await writeZip(path, [
    { name: `IA_ADV_Base_A_${sfx}.csv`, data: encodeCp1252(base) },
    { name: `IA_Schedule_D_7B1_${sfx}.csv`, data: encodeCp1252(funds) },
  ]);
  return path;
}

describe('private funds: Schedule D 7.B.(1) parsing', () => {
  it('DateSubmitted with 12-hour clock sorts correctly (12:05 AM before 01:00 AM)', () => {
    expect(submittedAt('06/24/2026 10:37:17 AM')).toBe('2026-06-24 10:37:17');
    expect(submittedAt('06/24/2026 12:05:00 AM')).toBe('2026-06-24 00:05:00');
    expect(submittedAt('06/24/2026 12:05:00 PM')).toBe('2026-06-24 12:05:00');
    expect(submittedAt('6/2/2026')).toBe('2026-06-02 00:00:00');
    expect(submittedAt('2026-06-24')).toBeNull();
  });

  it('file names and the IAPD metadata JSON give the period and the files', () => {
    expect(periodEndOf('ADV_Filing_Data_20260601_20260630.zip')).toBe('2026-06-30');
    expect(periodEndOf('adv-filing-data-20111105-20241231-part1.zip')).toBe('2024-12-31');
    const meta = {
      advW: [{ fileName: 'x.zip' }],
      advFilingData: {
        '2026': [{ displayName: 'June 2026', fileName: 'ADV_Filing_Data_20260601_20260630.zip', year: 2026, fileType: 'zip' }, { fileName: 'readme.pdf' }],
      },
    };
    expect(filingDataFiles(meta)).toEqual([{ fileName: 'ADV_Filing_Data_20260601_20260630.zip', year: '2026' }]);
  });

  it('keeps only the latest amendment per adviser, joins identity from Base, reports orphans and bad numbers by line', async () => {
    const dir = tmp();
    const path = await monthZip(
      dir,
      'ADV_Filing_Data_20260601_20260630.zip',
      BASE +
        '"10","06/02/2026 09:00:00 AM","ACME CAPITAL LP","ACME","801-1","00123","Y"\r\n' +
        '"11","06/20/2026 01:00:00 PM","ACME CAPITAL LP","ACME","801-1","123","Y"\r\n' +
        '"12","06/05/2026 11:00:00 AM","BETA LLC","","802-9","456","N"\r\n',
      FUNDS +
        '"10","ACME OLD FUND","805-0000000001","1","Hedge Fund","1,000","5"\r\n' + // line 2: superseded
        '"11","ACME FUND I","805-0000000002","2","Hedge Fund","2,500,000","12"\r\n' + // line 3
        '"11","ACME FUND II","","77","Private Equity Fund","n/a?","3"\r\n' + // line 4: no Fund ID, bad GAV
        '"12","BETA FUND","805-0000000009","9","Venture Capital Fund","9","1"\r\n' + // line 5
        '"99","ORPHAN FUND","805-0000000099","99","Hedge Fund","1","1"\r\n' + // line 6
        '"12","SHORT ROW"\r\n', // line 7
    );
    const c = await runLoad(privateFunds, [{ path, url: null }]);
    expect(c.invalid).toEqual([]);
    const rows = c.rows.private_funds!;
    expect(rows.map((r) => r.full_name)).toEqual(['ACME FUND I', 'ACME FUND II', 'BETA FUND']);
    expect(rows[0]).toMatchObject({
      crd: '123',
      crd_int: 123,
      firm_name: 'ACME',
      sec_number: '801-1',
      control_person: 1,
      filing_id: 11,
      date_submitted: '2026-06-20 13:00:00',
      gross_asset_value: 2500000,
      beneficial_owners: 12,
      as_of_date: '2026-06-30',
      fund_key: '805-0000000002',
      source_line: 3,
    });
    expect(rows[1]).toMatchObject({ fund_id: null, fund_key: 'ref:77', gross_asset_value: null, gross_asset_value_raw: 'n/a?' });
    expect(rows[2]).toMatchObject({ crd: '456', firm_name: 'BETA LLC', control_person: 0 });
    expect(c.bad.map((b) => [b.line, b.reason])).toEqual([
      [4, "gav: unparsable number 'n/a?' (row kept, value null)"],
      [6, 'FilingID 99 has no row in the ADV Base tables'],
      [7, 'expected 7 columns, found 2'],
    ]);
  });
});

describe('GET /v1/private-funds', () => {
  let app: TestApp;
  const firms = sampleFirms(5, 1).filter((f) => f.hasPrivateFunds);
  beforeAll(async () => {
    app = await createTestApp({ routes: privateFundsRoutes });
    const s = await app.ingestSample(privateFunds, { seed: 5, skipDiff: true });
    expect(s.badRows).toBe(0);
  });
  afterAll(() => app?.close());

  const all = (qs: string) => pageAll(app, '/v1/private-funds', { qs });

  it("serves one row per fund of each adviser's latest filing (the amended-away fund is gone)", async () => {
    const every = await all('');
    expect(every).toHaveLength(firms.reduce((n, f) => n + f.privateFundCount, 0));
    const amended = firms[0];
    const mine = every.filter((d) => d.crd === String(amended.crd));
    expect(mine).toHaveLength(amended.privateFundCount);
    const r = await app.get('/v1/private-funds?limit=1');
    expect(r.body.as_of).toBe('2026-06-30T00:00:00Z');
    expect(r.body.data[0]).toMatchObject({ source: 'sec_form_adv_schedule_d', as_of_date: '2026-06-30' });
  });

  it('filters crd, sec_number, firm_name, full_name, control_person, fund_type', async () => {
    const f = firms[3];
    const byCrd = await all(`crd=000${f.crd}`);
    expect(byCrd).toHaveLength(f.privateFundCount);
    expect(byCrd.every((d) => d.sec_number === f.secNumber && d.firm_name === f.business)).toBe(true);
    expect((await all(`sec_number=${f.secNumber}`)).map((d) => d.fund_id)).toEqual(byCrd.map((d) => d.fund_id));
    const byFirm = await all(`firm_name=${encodeURIComponent(f.business.toLowerCase())}`);
    expect(byFirm.some((d) => d.crd === String(f.crd))).toBe(true);
    const masters = await all('full_name=master%20fund');
    expect(masters.length).toBeGreaterThan(0);
    expect(masters.every((d) => /master fund/i.test(d.full_name))).toBe(true);
    const controlled = await all('control_person=1');
    expect(new Set(controlled.map((d) => d.crd))).toEqual(new Set(firms.filter((x) => x.crd % 3 === 0).map((x) => String(x.crd))));
    const hedge = await all('fund_type=hedge%20fund');
    expect(hedge.length).toBeGreaterThan(0);
    expect(hedge.every((d) => d.fund_type === 'Hedge Fund')).toBe(true);
  });

  it('422 on control_person=2, crd=abc, fund_id=123', async () => {
    for (const [qs, param] of [
      ['control_person=2', 'control_person'],
      ['crd=abc', 'crd'],
      ['fund_id=123', 'fund_id'],
    ]) {
      const r = await app.get(`/v1/private-funds?${qs}`);
      expect(r.status).toBe(422);
      expect(r.body.detail[0].loc).toEqual(['query', param]);
    }
  });

  it('a later month carries forward advisers that did not file again and replaces those that did', async () => {
    const f = firms[3];
    const dir = join(app.dataDir, 'july');
    await monthZip(
      dir,
      'ADV_Filing_Data_20260701_20260731.zip',
      `${BASE}"3000000","07/15/2026 10:00:00 AM","${f.legal}","${f.business}","${f.secNumber}","${f.crd}","N"\r\n`,
      `${FUNDS}"3000000","ONLY FUND LEFT","805-0000012345","1","Hedge Fund","5,000,000","2"\r\n`,
    );
    const s = await app.ingest(privateFunds, { from: dir }, { skipDiff: true });
    expect(s.badRows).toBe(0);
    const r = await app.get('/v1/private-funds?limit=100');
    expect(r.body.as_of).toBe('2026-07-31T00:00:00Z');
    const every = await all('');
    const mine = every.filter((d) => d.crd === String(f.crd));
    expect(mine.map((d) => d.full_name)).toEqual(['ONLY FUND LEFT']);
    expect(mine[0]).toMatchObject({ control_person: 0, gross_asset_value: 5000000, as_of_date: '2026-07-31' });
    expect(every).toHaveLength(firms.reduce((n, x) => n + x.privateFundCount, 0) - f.privateFundCount + 1);
  });
});
