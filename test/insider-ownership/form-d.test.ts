import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixturePath, hasFixtures, readFixture } from '../support/fixtures.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { FormDXmlError, parseFormDXml, personName } from '../../ingest/sources/edgar/ownership/form-d-xml.ts';
import raises from '../../ingest/datasets/raises/dataset.ts';
import raisesRoutes from '../../api/raises/routes.ts';
import { tempDir } from '../support/temp-dir.ts';

const load = async (name: string) => parseFormDXml(await readFixture(`form-d/${name}`));

describe.skipIf(!hasFixtures)('Form D XML parser on every real Form D fixture', () => {
  it('REIT: 506(b) + 3(c)(7), fully sold, four sales compensation recipients with states of solicitation', async () => {
    const d = await load('formd_1685_38th_reit_2023_primary_doc.xml');
    expect([d.submission_type, d.is_amendment, d.schema_version]).toEqual(['D', false, 'X0708']);
    expect(d.issuers.map((i) => [i.cik, i.name, i.state_or_country, i.entity_type, i.year_of_inc])).toEqual([
      ['0001961089', '1685 38th REIT, L.L.C.', 'CA', 'Limited Liability Company', '2022'],
    ]);
    expect([d.industry_group, d.federal_exemptions, d.security_types]).toEqual([
      'REITS and Finance',
      ['06b', '3C', '3C.7'],
      ['Equity', 'Pooled investment fund interests'],
    ]);
    expect([d.total_offering, d.total_sold, d.total_remaining]).toEqual([
      { usd: 125000, indefinite: false },
      { usd: 125000, indefinite: false },
      { usd: 0, indefinite: false },
    ]);
    expect([d.total_investors, d.minimum_investment, d.sales_commissions_usd, d.date_of_first_sale]).toEqual([125, 1000, 6250, '2023-01-19']);
    expect(d.related_persons).toHaveLength(14);
    expect(d.recipients.map((r) => [r.name, r.crd, r.associated_bd_name, r.states_of_solicitation.join(',')])).toEqual([
      ['Charles Harrison', '3071551', 'H & L Equities, LLC', 'FL,GA,TX'],
      ['Lori Mayfield', '4899271', 'H & L Equities, LLC', 'FL,GA,TX'],
      ['Patrick Whelchel', '5389090', 'H & L Equities, LLC', 'FL,GA,TX'],
      ['Scott Harrison', '4981070', 'H & L Equities, LLC', 'FL,GA,TX'],
    ]);
    expect(d.signatures).toEqual([
      {
        issuer_name: '1685 38th REIT, L.L.C.',
        signature_name: 'Daniel Belldegrun',
        name_of_signer: 'Daniel Belldegrun',
        title: 'President and CEO',
        date: '2023-01-27',
      },
    ]);
  });

  it('D/A amendment keeps the previous accession and the amounts', async () => {
    const d = await load('formd_a_shepherds_finance_2023_operating_company_amendment.xml');
    expect([d.submission_type, d.is_amendment, d.previous_accession]).toEqual(['D/A', true, '0001544190-19-000002']);
    expect(d.issuers[0]).toMatchObject({ cik: '0001544190', name: "Shepherd's Finance, LLC", state_or_country: 'FL', year_of_inc_choice: 'overFiveYears' });
    expect(d.industry_group).toBe('Other Banking and Financial Services');
    expect([d.total_offering.usd, d.total_sold.usd, d.total_remaining.usd]).toEqual([8000000, 5725051, 2274949]);
    expect(d.related_persons).toHaveLength(7);
    expect(d.more_than_one_year).toBe(true);
  });

  it('pooled VC fund with a co-issuer and entity-type related persons', async () => {
    const d = await load('formd_ap_fund_iv_2023_pooled_fund_two_issuers.xml');
    expect(d.issuers.map((i) => [i.is_primary, i.cik])).toEqual([
      [true, '0001958740'],
      [false, '0001963203'],
    ]);
    expect([d.industry_group, d.investment_fund_type, d.is_40_act]).toEqual(['Pooled Investment Fund', 'Venture Capital Fund', false]);
    expect([d.total_offering.usd, d.total_investors, d.gross_proceeds_used_usd]).toEqual([659752, 27, 6660]);
    expect(d.related_persons.map((p) => [personName(p), p.relationships, p.clarification])).toEqual([
      ['Ltd. Belltower Fund Group', ['Director'], 'Manager of the general partner of the Issuer'],
      ['LLC Fund GP,', ['Director'], 'General partner of the Issuer'],
    ]);
    expect(d.signatures).toHaveLength(2);
  });

  it('operating company, X0707 schema', async () => {
    const d = await load('formd_diffusion_pharmaceuticals_primary_doc_operating_company.xml');
    expect([d.schema_version, d.industry_group, d.issuers[0].cik]).toEqual(['X0707', 'Pharmaceuticals', '0001171623']);
    expect([d.total_offering.usd, d.total_sold.usd, d.total_remaining.usd, d.total_investors]).toEqual([1512500, 1029908, 482592, 15]);
    expect(d.related_persons).toHaveLength(5);
    expect(d.date_of_first_sale).toBe('2006-09-15');
  });

  it('2009 X0301 full submission: Indefinite offering amount stays distinguishable, foreign issuer, hedge fund', async () => {
    const d = await load('formd_gabelli_international_gold_fund_2009_full_submission.txt');
    expect([d.accession, d.filed_date, d.schema_version]).toEqual(['0000919574-09-006093', '2009-03-16', 'X0301']);
    expect(d.issuers[0]).toMatchObject({ cik: '0001456986', name: 'GABELLI INTERNATIONAL GOLD FUND LTD.', state_or_country: 'D0', entity_type: 'Other' });
    expect([d.investment_fund_type, d.total_offering, d.total_sold.usd, d.total_remaining.indefinite]).toEqual([
      'Hedge Fund',
      { usd: null, indefinite: true },
      500000,
      true,
    ]);
    expect(d.recipients.map((r) => [r.name, r.crd, r.states_of_solicitation])).toEqual([['Gabelli & Company', '7353', ['All States']]]);
  });

  it('.nc dissemination: private equity fund, first sale yet to occur, Indefinite amount', async () => {
    const d = await load('formd_vepf_viii_coinvest_2024_private_equity_fund_dissemination.nc');
    expect([d.accession, d.filed_date, d.investment_fund_type]).toEqual(['0002002260-24-000001', '2024-01-11', 'Private Equity Fund']);
    expect([d.date_of_first_sale, d.first_sale_yet_to_occur, d.total_offering.indefinite, d.total_sold.usd]).toEqual([null, true, true, 0]);
    expect(d.related_persons).toHaveLength(6);
  });

  it('an ownership XML is refused', async () => {
    expect(() => parseFormDXml('<ownershipDocument><documentType>4</documentType></ownershipDocument>')).toThrow(FormDXmlError);
  });
});

describe.skipIf(!hasFixtures)('/v1/raises over the demo data-set quarter and real Form D filings', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ routes: raisesRoutes });
    // One run for the demo quarter and the real filings (2024Q1 overlaps: the merge-mode rewrite of an existing partition is what this covers).
    const dir = tempDir('formd-');
    await raises.sample!(dir, { seed: 3, scale: 1 });
    for (const f of ['formd_gabelli_international_gold_fund_2009_full_submission.txt', 'formd_vepf_viii_coinvest_2024_private_equity_fund_dissemination.nc']) {
      await symlink(fixturePath(`form-d/${f}`), join(dir, f));
    }
    await app.ingest(raises, { from: dir }, { skipDiff: true });
  });
  afterAll(async () => app?.close());

  it('real filings: Indefinite amount, fund type, recipients', async () => {
    const r = await app.get('/v1/raises?q=gabelli');
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveLength(1);
    expect(r.body.data[0]).toMatchObject({
      accession: '0000919574-09-006093',
      submission_type: 'D',
      is_amendment: false,
      filed_date: '2009-03-16',
      issuer: { cik: '0001456986', state: 'D0' },
      investment_fund_type: 'Hedge Fund',
      is_pooled_fund: true,
      total_offering_amount: null,
      total_offering_indefinite: true,
      total_amount_sold: 500000,
      sales_compensation_recipients: [{ name: 'Gabelli & Company', crd: '7353', states_of_solicitation: ['All States'] }],
      signatures: [
        {
          issuer_name: 'Gabelli International Gold Fund, Ltd.',
          signature_name: '/s/ Douglas R. Jamieson',
          name_of_signer: 'Douglas R. Jamieson',
          title: 'President of the Manager',
          date: '2009-03-16',
        },
      ],
    });
  });

  it('data set rows carry the SIGNATURES member, signature name included', async () => {
    const r = await app.get('/v1/raises?is_amendment=false&limit=100');
    const fromDataSet = r.body.data.filter((x: any) => x.source_kind === 'data_set');
    expect(fromDataSet.length).toBeGreaterThan(0);
    for (const x of fromDataSet) {
      expect(x.signatures).toHaveLength(1);
      expect(x.signatures[0].signature_name).toMatch(/^\/s\/ /);
      expect(x.signatures[0].date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });

  it('min_amount never matches Indefinite; fund_type and industry are substrings; state filter', async () => {
    const big = await app.get('/v1/raises?min_amount=0&limit=100');
    expect(big.body.data.every((x: any) => x.total_offering_indefinite === false && x.total_offering_amount >= 0)).toBe(true);
    const pe = await app.get('/v1/raises?fund_type=private%20equity&limit=100');
    expect(pe.body.data.length).toBeGreaterThan(0);
    expect(pe.body.data.every((x: any) => x.investment_fund_type === 'Private Equity Fund' && x.is_pooled_fund)).toBe(true);
    const ca = await app.get('/v1/raises?state=ca&industry=pooled&limit=100');
    expect(ca.body.data.every((x: any) => x.issuer.state === 'CA' && x.industry_group === 'Pooled Investment Fund')).toBe(true);
    expect(ca.body.data.map((x: any) => x.accession)).toContain('0002002260-24-000001');
  });

  it('D vs D/A are kept apart; is_pooled_fund=false excludes funds', async () => {
    const amend = await app.get('/v1/raises?is_amendment=true&limit=100');
    expect(amend.body.data.length).toBeGreaterThan(0);
    expect(amend.body.data.every((x: any) => x.submission_type === 'D/A' && x.previous_accession)).toBe(true);
    const ops = await app.get('/v1/raises?is_pooled_fund=false&limit=100');
    expect(ops.body.data.every((x: any) => !x.is_pooled_fund && x.investment_fund_type === null)).toBe(true);
  });

  it('re-ingesting a filing into an existing partition merges by accession (no duplicate)', async () => {
    const before = (await app.get('/v1/raises?q=VEPF')).body.data;
    const dir = tempDir('formd-again-');
    const f = 'formd_vepf_viii_coinvest_2024_private_equity_fund_dissemination.nc';
    await symlink(fixturePath(`form-d/${f}`), join(dir, f));
    const again = await app.ingest(raises, { from: dir }, { skipDiff: true });
    expect(again.tables[0].partitions[0].value).toBe('2024Q1');
    const after = (await app.get('/v1/raises?q=VEPF')).body.data;
    expect(before.map((x: any) => x.accession)).toEqual(['0002002260-24-000001']);
    expect(after.map((x: any) => x.accession)).toEqual(['0002002260-24-000001']);
    // 40 demo filings + the .nc in 2024Q1; the 2009 filing sits in its own partition.
    expect(again.tables[0].partitions[0].rows).toBe(41);
    expect((await app.get('/v1/raises?limit=100')).body.data.length).toBe(42);
  });

  it('422 for min_amount < 0, a bad state and a bad boolean', async () => {
    const r = await app.get('/v1/raises?min_amount=-5&state=California&is_pooled_fund=perhaps');
    expect(r.status).toBe(422);
    expect(r.body.detail.map((d: any) => d.loc[1]).sort()).toEqual(['is_pooled_fund', 'min_amount', 'state']);
  });
});
