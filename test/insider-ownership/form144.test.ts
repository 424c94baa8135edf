import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixturePath, hasFixtures, readFixture } from '../support/fixtures.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { Form144XmlError, parseForm144Xml } from '../../ingest/sources/edgar/ownership/form144-xml.ts';
import { normalizeBrokerName } from '../../ingest/sources/edgar/ownership/broker.ts';
import form144 from '../../ingest/datasets/form144/dataset.ts';
import form144Routes from '../../api/form144/routes.ts';
import { tempDir } from '../support/temp-dir.ts';

describe.skipIf(!hasFixtures)('Form 144 XML parser (real Apple / Maestri notice, ns2: prefixes)', () => {
  it('reads issuer, seller, relationship, the securities line, acquisition, past sales and plan date', async () => {
    const n = parseForm144Xml(await readFixture('form144/form144_apple_maestri_2023-04-13.xml'), { accession: '0001921094-23-000001' });
    expect([n.submission_type, n.is_amendment, n.filer_cik, n.issuer_cik, n.issuer_name, n.sec_file_number]).toEqual([
      '144',
      false,
      '0001513362',
      '0000320193',
      'Apple Inc.',
      '001-36743',
    ]);
    expect([n.person_name, n.relationships]).toEqual(['Luca Maestri', ['Director']]);
    expect(n.lines).toEqual([
      {
        class_of_securities: 'Common',
        broker_name: 'Goldman Sachs & Co. LLC',
        broker_normalized_name: 'goldman sachs',
        broker_street1: '200 West Street',
        broker_street2: null,
        broker_city: 'New York',
        broker_state: 'NY',
        broker_zip: '10282',
        units_to_be_sold: 69996,
        aggregate_market_value: 11588537.76,
        units_outstanding: 15821946000,
        approx_sale_date: '2023-04-13',
        exchange: 'NASD',
      },
    ]);
    expect(n.securities_to_be_sold).toEqual([
      {
        class_of_securities: 'Common',
        acquired_date: '2023-03-31',
        nature_of_acquisition: 'Acquired as compensation Restricted Stock Units',
        acquired_from: 'The Issuer',
        is_gift: false,
        amount: 69996,
        payment_date: '2023-03-31',
        nature_of_payment: 'Compensation',
      },
    ]);
    expect(n.nothing_to_report_past_3_months).toBe(false);
    expect(n.sold_past_3_months).toEqual([
      { seller: 'Luca Maestri', class_of_securities: 'Common', sale_date: '2023-04-06', amount: 200, gross_proceeds: 32932 },
    ]);
    expect([n.notice_date, n.plan_adoption_dates, n.signature]).toEqual(['2023-04-13', ['2022-11-15'], 'Goldman Sachs & Co. LLC on behalf of Luca Maestri']);
    expect(n.remarks).toMatch(/^The sales of shares set forth herein are made in connection with a selling plan dated 11-15-22/);
    expect(n.accession).toBe('0001921094-23-000001');
  });

  it('placeholder plan adoption dates (01/02/1933) are dropped', async () => {
    const xml = (await readFixture('form144/form144_apple_maestri_2023-04-13.xml')).replace('11/15/2022', '01/02/1933');
    expect(parseForm144Xml(xml).plan_adoption_dates).toEqual([]);
  });

  it('a Form D is refused', async () => {
    expect(() => parseForm144Xml(`<edgarSubmission><offeringData/></edgarSubmission>`)).toThrow(Form144XmlError);
  });
});

describe('broker name normalization', () => {
  it('folds case, punctuation, & and legal suffixes', () => {
    expect(normalizeBrokerName('Goldman Sachs & Co. LLC')).toBe('goldman sachs');
    expect(normalizeBrokerName('GOLDMAN SACHS & CO LLC')).toBe('goldman sachs');
    expect(normalizeBrokerName('Charles Schwab & Co., Inc.')).toBe('charles schwab');
    expect(normalizeBrokerName('J.P. Morgan Securities LLC')).toBe('jp morgan securities');
    expect(normalizeBrokerName('GOLDMAN SACHS & CO., L.L.C.')).toBe('goldman sachs');
    expect(normalizeBrokerName('The Vanguard Group, Inc.')).toBe('vanguard group');
    expect(normalizeBrokerName('')).toBeNull();
  });
});

describe.skipIf(!hasFixtures)('/v1/insider/form144 over demo notices (real format) and the real notice', () => {
  let app: TestApp;
  let summary: Awaited<ReturnType<TestApp['ingest']>>;
  beforeAll(async () => {
    app = await createTestApp({ routes: form144Routes });
    const dir = tempDir('f144-');
    await form144.sample!(dir, { seed: 5, scale: 1 });
    await symlink(fixturePath('form144/form144_apple_maestri_2023-04-13.xml'), join(dir, 'form144_apple_maestri_2023-04-13.xml'));
    summary = await app.ingest(form144, { from: dir }, { skipDiff: true });
  });
  afterAll(async () => app?.close());

  it('a bare XML without its container names no accession: counted as a bad row, never guessed', () => {
    expect(summary.badRows).toBe(1);
    expect(summary.badRowSamples[0]).toMatchObject({ file: 'form144_apple_maestri_2023-04-13.xml', reason: 'missing accession' });
    expect(summary.rowsWritten).toBe(30);
  });

  it('broker_normalized_name matches every spelling of a broker', async () => {
    const r = await app.get('/v1/insider/form144?broker_normalized_name=GOLDMAN%20SACHS%20%26%20CO.%2C%20L.L.C.&limit=100');
    expect(r.status).toBe(200);
    expect(r.body.data.length).toBeGreaterThan(0);
    expect(new Set(r.body.data.map((x: any) => x.broker_normalized_name))).toEqual(new Set(['goldman sachs']));
    expect(new Set(r.body.data.map((x: any) => x.broker_name)).size).toBeGreaterThanOrEqual(1);
    // The broker's address and the notice signature are kept on every line.
    expect(r.body.data[0].broker_address).toEqual({ street1: '200 West Street', street2: null, city: 'New York', state_or_country: 'NY', zip_code: '10282' });
    expect(r.body.data[0].signature).toMatch(/ on behalf of /);
  });

  it('numeric and date filters; issuer filter', async () => {
    const r = await app.get(
      '/v1/insider/form144?issuer_cik=320193&min_shares=20000&min_market_value_usd=1000000&sale_date_from=2024-03-01&sale_date_to=2024-12-31&limit=100',
    );
    expect(r.status).toBe(200);
    for (const x of r.body.data) {
      expect(x.issuer.cik).toBe('0000320193');
      expect(x.units_to_be_sold).toBeGreaterThanOrEqual(20000);
      expect(x.aggregate_market_value).toBeGreaterThanOrEqual(1000000);
      expect(x.approx_sale_date >= '2024-03-01' && x.approx_sale_date <= '2024-12-31').toBe(true);
    }
    const c = await app.get('/v1/insider/form144?class_of_securities=class%20a&limit=100');
    expect(c.body.data.every((x: any) => x.class_of_securities === 'Class A Common Stock')).toBe(true);
  });

  it('422 on reversed sale dates and negative minimums', async () => {
    const r = await app.get('/v1/insider/form144?sale_date_from=2024-05-01&sale_date_to=2024-04-01&min_shares=-1');
    expect(r.status).toBe(422);
    expect(r.body.detail.map((d: any) => d.loc[1])).toEqual(['min_shares']);
    const r2 = await app.get('/v1/insider/form144?sale_date_from=2024-05-01&sale_date_to=2024-04-01');
    expect(r2.status).toBe(422);
    expect(r2.body.detail[0].loc).toEqual(['query', 'sale_date_to']);
  });
});
