import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixturePath, hasFixtures, readFixture } from '../support/fixtures.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { parseSchedule13 } from '../../ingest/sources/edgar/ownership/schedule13-xml.ts';
import ownership from '../../ingest/datasets/ownership/dataset.ts';
import ownershipRoutes from '../../api/ownership/routes.ts';
import { tempDir } from '../support/temp-dir.ts';

const load = async (name: string) => parseSchedule13(await readFixture(`schedule13dg/${name}`));
const shares = (p: {
  sole_voting_power: number | null;
  shared_voting_power: number | null;
  sole_dispositive_power: number | null;
  shared_dispositive_power: number | null;
  aggregate_amount: number | null;
  percent_of_class: number | null;
}) => [p.sole_voting_power, p.shared_voting_power, p.sole_dispositive_power, p.shared_dispositive_power, p.aggregate_amount, p.percent_of_class];

describe.skipIf(!hasFixtures)('Schedule 13D/13G parser on every real fixture', () => {
  it('structured 13D (Aadi / BML): two reporting persons with their own positions and fund sources', async () => {
    const d = await load('schedule13d_aadi_bioscience_bml_2024_structured.xml');
    expect([d.form_type, d.schedule, d.is_amendment, d.structured, d.subject_cik, d.issuer_name, d.cusip, d.event_date, d.filer_cik]).toEqual([
      'SCHEDULE 13D',
      '13D',
      false,
      true,
      '0001422142',
      'Aadi Bioscience, Inc.',
      '00032Q104',
      '2024-12-31',
      '0001373604',
    ]);
    expect(d.persons.map((p) => [p.cik, p.name, p.fund_type, p.type_of_reporting_person, ...shares(p)])).toEqual([
      ['0001373604', 'BML Investment Partners, L.P.', 'WC', 'PN', 0, 2100000, 0, 2100000, 2100000, 8.5],
      ['0001373603', 'Leonard Braden Michael', 'PF', 'IN', 335000, 2100000, 335000, 2100000, 2435000, 9.9],
    ]);
  });

  it('13D/A amendment 28 (Siebert / Gebbia): persons without CIK, group member flag', async () => {
    const d = await load('schedule13d_a_siebert_financial_gebbia_amendment28_2025.xml');
    expect([d.form_type, d.is_amendment, d.amendment_no, d.subject_cik, d.cusip, d.event_date]).toEqual([
      'SCHEDULE 13D/A',
      true,
      28,
      '0000065596',
      '826176109',
      '2025-06-10',
    ]);
    expect(d.persons).toHaveLength(6);
    expect(d.persons.map((p) => [p.cik, p.name, p.sole_voting_power, p.aggregate_amount, p.percent_of_class, p.member_of_group])).toEqual([
      ['0001692471', 'Gloria E. Gebbia', 0, 16941323, 42, 'a'],
      [null, 'John M. Gebbia', 1924891, 16941323, 42, 'a'],
      [null, 'Richard Gebbia', 3078127, 16941323, 42, 'a'],
      [null, 'David Gebbia', 1415318, 16941323, 42, 'a'],
      [null, 'John J & Gloria E Gebbia TTEESS UAD 12/8/94 "Gebbia Living Trust"', 9697714, 16941323, 42, 'a'],
      [null, 'John J. Gebbia', 0, 16941323, 42, 'a'],
    ]);
  });

  it('13D with a foreign CUSIP and an adviser (Elastic / Pictet)', async () => {
    const d = await load('schedule13d_elastic_nv_pictet_2026_structured.xml');
    expect([d.subject_cik, d.cusip, d.event_date, d.signature_date]).toEqual(['0001707753', 'N14506104', '2026-01-23', '2026-01-26']);
    expect(d.persons.map((p) => [p.cik, p.name, p.type_of_reporting_person, ...shares(p)])).toEqual([
      ['0001361570', 'PICTET ASSET MANAGEMENT SA', 'IA', 5274370, 0, 5288262, 0, 5288262, 5],
    ]);
  });

  it('13G/A with fractional share counts (Doximity / FMR, trimmed by its source)', async () => {
    const d = await load('schedule13g_a_doximity_fmr_2025_TRIMMED.xml');
    expect([d.form_type, d.schedule, d.is_amendment, d.amendment_no, d.subject_cik, d.event_date, d.filer_cik]).toEqual([
      'SCHEDULE 13G/A',
      '13G',
      true,
      5,
      '0001516513',
      '2025-12-31',
      '0000315066',
    ]);
    expect(d.persons.map((p) => [p.name, p.type_of_reporting_person, ...shares(p)])).toEqual([
      ['FMR LLC', 'HC', 2155851.97, 0, 2164071.69, 0, 2164071.69, 1.6],
    ]);
  });

  it('13G (Jushi / Marex): rule designation, two persons repeating one position', async () => {
    const d = await load('schedule13g_jushi_marex_2025_structured.xml');
    expect([d.subject_cik, d.cusip, d.event_date, d.rule_designations, d.securities_class_title]).toEqual([
      '0001909747',
      '48213Y107',
      '2025-11-19',
      ['Rule 13d-1(c)'],
      'Subordinate Voting Shares, no par value',
    ]);
    expect(d.persons.map((p) => [p.name, p.citizenship, p.type_of_reporting_person, p.aggregate_amount, p.percent_of_class])).toEqual([
      ['Marex Securities Products Inc.', 'DE', 'CO', 10000000, 5.1],
      ['Marex Group plc', 'X0', 'OO', 10000000, 5.1],
    ]);
  });

  it('legacy SC 13G in a .nc container (Avid / Glazer): header parties and cover-page rows, "0" values kept', async () => {
    const d = await load('sc13g_avid_bioservices_2024_dissemination.nc');
    expect([d.accession, d.filed_date, d.form_type, d.structured, d.subject_cik, d.issuer_name, d.filer_cik, d.filer_name, d.cusip, d.event_date]).toEqual([
      '0001076809-24-000144',
      '2024-12-13',
      'SC 13G',
      false,
      '0000704562',
      'Avid Bioservices, Inc.',
      '0001076809',
      'GLAZER CAPITAL, LLC',
      '05368M106',
      '2024-12-09',
    ]);
    expect(d.persons.map((p) => [p.name, p.citizenship, p.type_of_reporting_person, ...shares(p)])).toEqual([
      ['Glazer Capital, LLC', 'State of Delaware', 'IA,OO', 0, 3394114, 0, 3394114, 3394114, 5.31],
      ['Paul J. Glazer', 'United States', 'IN', 0, 3394114, 0, 3394114, 3394114, 5.31],
    ]);
  });

  it('legacy SC 13G/A plain text (Trinity / BlackRock): name on the label line, amendment number', async () => {
    const d = await load('sc13g_a_trinity_industries_2023_legacy_text.html');
    expect([d.is_amendment, d.amendment_no, d.issuer_name, d.cusip, d.event_date]).toEqual([true, 3, 'TRINITY INDUSTRIES INC', '896522109', '2023-12-31']);
    expect(d.persons.map((p) => [p.name, p.citizenship, p.type_of_reporting_person, ...shares(p)])).toEqual([
      ['BlackRock, Inc.', 'Delaware', 'HC', 13767282, 0, 13967335, 0, 13967335, 17.1],
    ]);
  });

  it('legacy SC 13G HTML tables (Livent / Millennium): four persons, "-0-" and 0.0% read as zero', async () => {
    const d = await load('sc13g_livent_2023_legacy_html.html');
    expect([d.issuer_name, d.cusip, d.event_date]).toEqual(['LIVENT CORPORATION', '53814L108', '2023-12-29']);
    expect(d.persons.map((p) => [p.name, p.aggregate_amount, p.percent_of_class])).toEqual([
      ['ICS Opportunities, Ltd.', 0, 0],
      ['Millennium Management LLC', 0, 0],
      ['Millennium Group Management LLC', 0, 0],
      ['Israel A. Englander', 0, 0],
    ]);
  });
});

describe.skipIf(!hasFixtures)('/v1/ownership over demo structured filings and the real legacy .nc filing', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ routes: ownershipRoutes });
    const dir = tempDir('sched13-');
    await ownership.sample!(dir, { seed: 2, scale: 1 });
    await symlink(fixturePath('schedule13dg/sc13g_avid_bioservices_2024_dissemination.nc'), join(dir, 'sc13g_avid_bioservices_2024_dissemination.nc'));
    await app.ingest(ownership, { from: dir }, { skipDiff: true });
  });
  afterAll(async () => app?.close());

  it('legacy filing: one record per reporting person, filer and subject from the header', async () => {
    const r = await app.get('/v1/ownership?cik_subject=704562');
    expect(r.status).toBe(200);
    expect(r.body.data.map((x: any) => [x.row_seq, x.person.name, x.aggregate_amount, x.percent_of_class])).toEqual([
      [1, 'Glazer Capital, LLC', 3394114, 5.31],
      [2, 'Paul J. Glazer', 3394114, 5.31],
    ]);
    expect(r.body.data[0]).toMatchObject({
      accession: '0001076809-24-000144',
      form_type: 'SC 13G',
      form_class: '13G',
      structured: false,
      filed_date: '2024-12-13',
      event_date: '2024-12-09',
      filer: { cik: '0001076809', name: 'GLAZER CAPITAL, LLC' },
      subject: { cik: '0000704562', name: 'Avid Bioservices, Inc.', cusip: '05368M106' },
      source_url: 'https://www.sec.gov/Archives/edgar/data/704562/000107680924000144/0001076809-24-000144-index.htm',
    });
  });

  it('structured amendments carry previous_accession from headerData; originals and legacy filings have null', async () => {
    const r = await app.get('/v1/ownership?limit=100');
    const amendments = r.body.data.filter((x: any) => x.structured && x.is_amendment);
    expect(amendments.length).toBeGreaterThan(0);
    for (const x of amendments) expect(x.previous_accession).toMatch(/^\d{10}-24-\d{6}$/);
    expect(r.body.data.filter((x: any) => !x.is_amendment || !x.structured).every((x: any) => x.previous_accession === null)).toBe(true);
  });

  it('form_class folds both families; role, person, filed range, cik_filer', async () => {
    const g = await app.get('/v1/ownership?form_class=13g&limit=100');
    expect(g.body.data.length).toBeGreaterThan(1);
    expect(g.body.data.every((x: any) => x.form_class === '13G' && /^(SC|SCHEDULE) 13G$/.test(x.form_type))).toBe(true);
    const ia = await app.get('/v1/ownership?role=ia&limit=100');
    expect(ia.body.data.length).toBeGreaterThan(0);
    expect(ia.body.data.every((x: any) => x.person.type_of_reporting_person.split(',').includes('IA'))).toBe(true);
    const ft = await app.get('/v1/ownership?form_type=schedule%2013d/a&filed_from=2025-01-01&filed_to=2025-12-31&limit=100');
    expect(ft.body.data.every((x: any) => x.form_type === 'SCHEDULE 13D/A' && x.filed_date >= '2025-01-01')).toBe(true);
    const f = await app.get('/v1/ownership?cik_filer=1076809&person=glazer');
    expect(f.body.data).toHaveLength(2);
  });

  it('422 on a bad form_class, role and reversed dates', async () => {
    const r = await app.get('/v1/ownership?form_class=13F&role=investment');
    expect(r.status).toBe(422);
    expect(r.body.detail.map((d: any) => d.loc[1]).sort()).toEqual(['form_class', 'role']);
    const d = await app.get('/v1/ownership?filed_from=2025-02-01&filed_to=2025-01-01');
    expect(d.status).toBe(422);
  });
});
