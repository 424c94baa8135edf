import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import individuals from '../../ingest/datasets/iapd-individuals/dataset.ts';
import { sampleIndividuals } from '../../ingest/datasets/iapd-individuals/sample.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { runLoad } from './load-harness.ts';
import { pageAll } from '../support/page-all.ts';
import iapdIndividualsRoutes from '../../api/iapd-individuals/routes.ts';
import { tempDir } from '../support/temp-dir.ts';

describe('iapd-individuals: feed parsing', () => {
  it('attributes, Latin-1 names, registrations, DRP flags, earliest registration date, bad records by line', async () => {
    const xml = Buffer.concat([
      Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?>\n<IAPDIndividualReport GenOn="2026-07-22">\n<Indvls>\n<Indvl>\n<Info lastNm="M', 'latin1'),
      Buffer.from([0xdc]),
      Buffer.from(
        `LLER" firstNm="REN${String.fromCharCode(0xc9)}E" midNm="A" indvlPK="00123" actvAGReg="Y" link="https://adviserinfo.sec.gov/individual/summary/123"/>
<OthrNms><OthrNm lastNm="SMITH" firstNm="RENEE"/></OthrNms>
<CrntEmps><CrntEmp orgNm="ACME &amp; CO" orgPK="555" city="BOSTON" state="MA" cntry="United States">
<CrntRgstns><CrntRgstn regAuth="MA" regCat="RA" st="APPROVED" stDt="2012-03-04"/>` +
          `<CrntRgstn regAuth="FINRA" regCat="RR" st="APPROVED" stDt="03/05/2010"/></CrntRgstns>
</CrntEmp></CrntEmps>
<Exms><Exm exmCd="S65" exmNm="Series 65" exmDt="2009-01-02"/></Exms>
<PrevRgstns><PrevRgstn orgNm="OLD" orgPK="1" regBeginDt="2011-01-01"/></PrevRgstns>
<DRPs><DRP hasRegAction="N" hasCustComp="Y" hasCriminal="N"/></DRPs>
</Indvl>
<Indvl>
<Info firstNm="NO" lastNm="CRD"/>
</Indvl>
<Indvl><Info indvlPK="77" lastNm="SOLO" actvAGReg="N"/></Indvl>
</Indvls></IAPDIndividualReport>
`,
        'latin1',
      ),
    ]);
    const dir = tempDir('ind-');
    const path = join(dir, 'IA_Indvl_Feeds1_07_22_2026.xml');
    writeFileSync(path, xml);
    const c = await runLoad(individuals, [{ path, url: null }]);
    expect(c.invalid).toEqual([]);
    expect(c.bad).toEqual([{ file: 'IA_Indvl_Feeds1_07_22_2026.xml', line: 14, reason: 'missing indvlPK' }]);
    const [a, b] = c.rows.iapd_individuals!;
    expect(a).toMatchObject({
      snapshot_date: '2026-07-22',
      ind_source_id: '123',
      first_name: 'RENÉE',
      middle_name: 'A',
      last_name: 'MÜLLER',
      full_name: 'RENÉE A MÜLLER',
      sort_name: 'MÜLLER, RENÉE A',
      ia_scope: 'ACTIVE',
      bc_scope: 'ACTIVE',
      has_disclosure: 1,
      disclosure_types: ['customer_complaint'],
      firm_count: 1,
      firm_crds: ['555'],
      cal_date: '2010-03-05',
      other_names: ['RENEE SMITH'],
      source_line: 4,
      source_url: 'https://adviserinfo.sec.gov/individual/summary/123',
    });
    expect((a.current_employments as any[])[0]).toMatchObject({
      firm_name: 'ACME & CO',
      firm_crd: '555',
      city: 'BOSTON',
      registrations: [
        { authority: 'MA', category: 'RA', status: 'APPROVED', date: '2012-03-04' },
        { authority: 'FINRA', category: 'RR', status: 'APPROVED', date: '2010-03-05' },
      ],
    });
    expect(b).toMatchObject({
      ind_source_id: '77',
      ia_scope: 'INACTIVE',
      bc_scope: 'NOTINSCOPE',
      has_disclosure: 0,
      firm_count: 0,
      cal_date: null,
      full_name: 'SOLO',
    });
  });
});

describe('GET /v1/iapd-individuals', () => {
  let app: TestApp;
  const people = sampleIndividuals(4, 1);
  beforeAll(async () => {
    app = await createTestApp({ routes: iapdIndividualsRoutes });
    const s = await app.ingestSample(individuals, { seed: 4, skipDiff: true });
    expect(s.badRows).toBe(0);
    expect(s.rowsWritten).toBe(people.length);
  });
  afterAll(() => app?.close());

  const all = (qs: string) => pageAll(app, '/v1/iapd-individuals', { qs });
  const ids = (xs: { crd: number }[]) => xs.map((x) => String(x.crd)).sort();

  it('lists every representative of both feed parts, ordered by name, with employments', async () => {
    const every = await all('');
    expect(every).toHaveLength(people.length);
    const r = await app.get('/v1/iapd-individuals?limit=2');
    expect(r.body.as_of).toBe('2026-07-21T00:00:00Z');
    const p = people.find((x) => x.firms.length === 2)!;
    const d = every.find((x) => x.ind_source_id === String(p.crd));
    expect(d.current_employments.map((e: any) => e.firm_crd)).toEqual(p.firms.map(String));
  });

  it('every filter: names, ind_source_id, scopes, has_disclosure, firm-count range, cal_date range, firm_crd', async () => {
    const p = people[7];
    expect((await all(`ind_source_id=${p.crd}`)).map((d) => d.full_name)).toEqual([[p.first, p.middle, p.last].filter(Boolean).join(' ')]);
    expect((await all(`last_name=${encodeURIComponent(p.last.toLowerCase())}`)).map((d) => d.ind_source_id).sort()).toEqual(
      ids(people.filter((x) => x.last === p.last)),
    );
    expect((await all(`first_name=${encodeURIComponent(p.first)}&last_name=${encodeURIComponent(p.last)}`)).length).toBe(
      people.filter((x) => x.last === p.last && x.first === p.first).length,
    );
    expect((await all('name=%C3%BCller')).map((d) => d.ind_source_id).sort()).toEqual(ids(people.filter((x) => x.last === 'MÜLLER')));
    expect((await all('bc_scope=active')).map((d) => d.ind_source_id).sort()).toEqual(ids(people.filter((x) => x.bd && x.firms.length)));
    expect((await all('ia_scope=INACTIVE')).map((d) => d.ind_source_id).sort()).toEqual(ids(people.filter((x) => !x.iaActive)));
    expect((await all('has_disclosure=1')).map((d) => d.ind_source_id).sort()).toEqual(ids(people.filter((x) => x.drp)));
    expect((await all('firm_count_min=2&firm_count_max=2')).map((d) => d.ind_source_id).sort()).toEqual(ids(people.filter((x) => x.firms.length === 2)));
    expect((await all('cal_date_from=2000-01-01&cal_date_to=2009-12-31')).map((d) => d.ind_source_id).sort()).toEqual(
      ids(people.filter((x) => x.start >= '2000-01-01' && x.start <= '2009-12-31')),
    );
    const firm = people.find((x) => x.firms.length)!.firms[0];
    expect((await all(`firm_crd=${firm}`)).map((d) => d.ind_source_id).sort()).toEqual(ids(people.filter((x) => x.firms.includes(firm))));
  });

  it('422 on inverted ranges and bad values', async () => {
    for (const [qs, param] of [
      ['firm_count_min=3&firm_count_max=1', 'firm_count_max'],
      ['cal_date_from=2020-01-01&cal_date_to=2019-01-01', 'cal_date_to'],
      ['cal_date_from=2020-13-01', 'cal_date_from'],
      ['has_disclosure=2', 'has_disclosure'],
      ['ind_source_id=x', 'ind_source_id'],
    ]) {
      const r = await app.get(`/v1/iapd-individuals?${qs}`);
      expect(r.status).toBe(422);
      expect(r.body.detail[0].loc).toEqual(['query', param]);
    }
  });
});
