import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { fixturePath, hasFixtures } from '../support/fixtures.ts';
import def13f from '../../ingest/datasets/13f/dataset.ts';
import holdings13fRoutes from '../../api/13f/routes.ts';
import { logQueries } from '../support/query-log.ts';
import { tempDir } from '../support/temp-dir.ts';

describe.skipIf(!hasFixtures)('13F end to end: real 2013Q2 data set subset + real XML filings', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ routes: holdings13fRoutes });
    const s = await app.ingest(def13f, { from: fixturePath('datasets/form13f_2013q2') }, { skipDiff: true });
    expect(s.badRows).toBe(0);
    // Single XML filings go through the same pipeline (one folder per file, as a download would store them).
    const dir = tempDir('xml13f-');
    await copyFile(fixturePath('13f/13f-hr_acorn_creek_capital_2024Q4_dissemination.nc'), join(dir, '0001951757-25-000093.nc'));
    await app.ingest(def13f, { from: dir }, { skipDiff: true });
  });
  afterAll(async () => app?.close());

  it('filings_13f rows carry the SIGNATURE, OTHERMANAGER2 and OTHERMANAGER members (HSBC 13F-HR/A)', async () => {
    const [row] = await app.services.lake.query(
      'SELECT signature_name, signature_title, signature_phone, signature, signature_city, signature_state_or_country, ' +
        'CAST(signature_date AS VARCHAR) AS signature_date, other_included_managers, other_managers FROM filings_13f WHERE accession_number = $1',
      ['0001085146-13-001075'],
    );
    expect(row).toMatchObject({
      signature_name: 'J. S. LEACH',
      signature_title: 'HEAD OF REGULATORY REPORTING',
      signature_phone: '44-0-20-7992-3688',
      signature: '/s/ J. S. Leach',
      signature_city: 'LONDON',
      signature_state_or_country: 'X0',
      signature_date: '2013-06-21',
      other_managers: null,
    });
    const included = JSON.parse(String(row!.other_included_managers));
    // Ordered by sequence number (the member lists 1, 17, 2, 3 …).
    expect(included.slice(0, 3).map((m: any) => [m.sequence_number, m.name])).toEqual([
      [1, 'HSBC BANK USA, N.A.'],
      [2, 'HSBC GLOBAL ASSET MANAGEMENT (HONG KONG) LTD'],
      [3, 'HSBC INTERNATIONAL TRUSTEE LTD'],
    ]);
    expect(included[0]).toEqual({
      sequence_number: 1,
      cik: null,
      form13f_file_number: null,
      crd_number: null,
      sec_file_number: null,
      name: 'HSBC BANK USA, N.A.',
    });
    // OTHERMANAGER (cover page), in OTHERMANAGER_SK order.
    const [scotia] = await app.services.lake.query('SELECT other_managers FROM filings_13f WHERE accession_number = $1', ['0000009631-13-000008']);
    expect(JSON.parse(String(scotia!.other_managers)).map((m: any) => [m.cik, m.form13f_file_number, m.name])).toEqual([
      ['0001335644', '028-11461', 'SCOTIA CAPITAL INC.'],
      ['0001483272', '028-13705', 'Scotia Asset Management L.P.'],
      ['0001335382', '028-11459', 'BANK OF NOVA SCOTIA TRUST CO'],
    ]);
  });

  it('RESTATEMENT replaces the original: 0001569205 2013Q1 serves the restated shares, VALUE ×1000', async () => {
    const r = await app.get('/v1/holdings?manager=1569205&cusip=169905106');
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveLength(1);
    expect(r.body.data[0]).toMatchObject({
      issuer: 'CHOICE HOTELS INTL INC',
      accession_number: '0001387131-13-002344',
      shares: 1021549,
      value_usd: 42645000,
      amendment_effect: 'restatement',
      is_current: true,
      period: '2013Q1',
      value_unit: { decision: 'thousands' },
    });
    const all = await app.get('/v1/holdings?manager=1569205&cusip=169905106&include_superseded=true');
    expect(all.body.data.map((d: { accession_number: string }) => d.accession_number).sort()).toEqual(['0001387131-13-002055', '0001387131-13-002344']);
  });

  it('NEW HOLDINGS amendments add: manager 1453072 2012Q4 keeps both amendments, never double-counted', async () => {
    const r = await app.get('/v1/managers?q=');
    expect(r.status).toBe(200);
    const all: any[] = [];
    let cursor: string | null = null;
    do {
      const page = await app.get(`/v1/managers?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      all.push(...page.body.data);
      cursor = page.body.page.next_cursor;
    } while (cursor);
    const q4 = all.find((m) => m.cik === '0001453072' && m.period === '2012Q4');
    expect(q4).toMatchObject({ holdings_count: 2, amendment_count: 2, total_value_usd: (270 + 31226) * 1000 });
    const q3 = all.find((m) => m.cik === '0001453072' && m.period === '2012Q3');
    expect(q3).toMatchObject({ holdings_count: 2, total_value_usd: 233504 * 1000, accession_number: '0001164691-13-000063' });
    expect(new Set(all.map((m) => `${m.cik}|${m.period}`)).size).toBe(all.length);
  });

  it('a 2013 filer in dollars is not scaled (Clearwire lines of 0001132716)', async () => {
    const r = await app.get('/v1/holdings?manager=1132716');
    expect(r.body.data.map((d: { value_usd: number }) => d.value_usd).sort((a: number, b: number) => a - b)).toEqual([927000, 8302000]);
    expect(r.body.data[0].value_unit.decision).toBe('dollars');
  });

  it('XML filing through the same pipeline: Acorn Creek 2024Q4 totals 194,611,845 USD over 77 lines', async () => {
    const r = await app.get('/v1/managers?q=acorn%20creek');
    expect(r.body.data).toHaveLength(1);
    expect(r.body.data[0]).toMatchObject({
      cik: '0001994827',
      period: '2024Q4',
      holdings_count: 77,
      total_value_usd: 194611845,
      value_unit: 'dollars',
      filing_date: '2025-01-22',
    });
    expect(r.body.data[0].source_url).toBe('https://www.sec.gov/Archives/edgar/data/1994827/000195175725000093/0001951757-25-000093-index.htm');
  });

  it('filters: issuer substring, min_value, aum_min; cursor pages do not overlap', async () => {
    const r = await app.get('/v1/holdings?issuer=apple&limit=5');
    expect(r.body.data.length).toBeGreaterThan(0);
    for (const d of r.body.data) expect(d.issuer.toLowerCase()).toContain('apple');
    const big = await app.get('/v1/holdings?min_value=100000000&limit=100');
    for (const d of big.body.data) expect(d.value_usd).toBeGreaterThanOrEqual(100000000);
    const rich = await app.get('/v1/managers?aum_min=1000000000');
    for (const d of rich.body.data) expect(d.total_value_usd).toBeGreaterThanOrEqual(1e9);
    const p1 = await app.get('/v1/holdings?limit=3');
    const p2 = await app.get(`/v1/holdings?limit=3&cursor=${encodeURIComponent(p1.body.page.next_cursor)}`);
    expect(p2.status).toBe(200);
    const key = (d: any) => `${d.accession_number}|${d.cusip}|${d.shares}`;
    expect(p2.body.data.map(key).filter((k: string) => p1.body.data.map(key).includes(k))).toEqual([]);
    expect(p1.body.data[2].cusip <= p2.body.data[0].cusip).toBe(true);
  });

  it('bad input is a 422 naming the parameter; no match is an empty_result', async () => {
    const a = await app.get('/v1/holdings?min_value=-5');
    expect(a.status).toBe(422);
    expect(a.body.detail[0].loc).toEqual(['query', 'min_value']);
    const b = await app.get('/v1/holdings?cusip=12%3B4');
    expect(b.status).toBe(422);
    expect(b.body.detail[0].loc).toEqual(['query', 'cusip']);
    const c = await app.get('/v1/managers?aum_min=abc');
    expect(c.status).toBe(422);
    const e = await app.get('/v1/holdings?cusip=000000000');
    expect(e.status).toBe(200);
    expect(e.body.warnings[0].code).toBe('empty_result');
  });
});

describe('13F sample data set (mixed units, amendments) end to end', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ routes: holdings13fRoutes });
    await app.ingestSample(def13f, { seed: 7, scale: 0.2 });
  });
  afterAll(async () => app?.close());

  it('a mixed period: filers in thousands and in dollars end up in comparable USD', async () => {
    const rows: any[] = [];
    let cursor: string | null = null;
    do {
      const page = await app.get(`/v1/managers?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      rows.push(...page.body.data);
      cursor = page.body.page.next_cursor;
    } while (cursor);
    const units = new Set(rows.map((r) => r.value_unit));
    expect(units.has('thousands')).toBe(true);
    expect(units.has('dollars')).toBe(true);
    const avg = (u: string) => {
      const xs = rows.filter((r) => r.value_unit === u && r.holdings_count > 0);
      return xs.reduce((a, r) => a + r.total_value_usd / r.holdings_count, 0) / xs.length;
    };
    // Same universe and share sizes: per-line USD averages agree within an order of magnitude.
    expect(avg('thousands') / avg('dollars')).toBeGreaterThan(0.1);
    expect(avg('thousands') / avg('dollars')).toBeLessThan(10);
    expect(rows.some((r) => r.report_type === '13F NOTICE' && r.holdings_count === 0)).toBe(true);
  });

  it('two consecutive quarters for the same managers: the 13F diff yields all four event types', async () => {
    const periods = await app.services.lake.query(`SELECT period, count(DISTINCT manager_cik)::INTEGER AS n FROM holdings_13f GROUP BY 1 ORDER BY 1`, []);
    expect(periods.map((p) => p.period)).toEqual(['2024Q3', '2024Q4']);
    expect(periods[0].n).toBe(periods[1].n);
    const types = await app.services.lake.query(`SELECT DISTINCT event_type FROM events WHERE event_type LIKE 'sec.13f.%' ORDER BY 1`, []);
    expect(types.map((t) => t.event_type)).toEqual([
      'sec.13f.holding_added',
      'sec.13f.holding_removed',
      'sec.13f.position_decreased',
      'sec.13f.position_increased',
    ]);
    // The restated manager's events compare against the restatement, not the superseded original.
    const restated = await app.services.lake.query(
      `SELECT DISTINCT e.accession FROM events e JOIN filings_13f f ON f.accession_number = e.accession
       WHERE e.event_type LIKE 'sec.13f.%' AND f.amendment_effect = 'original' AND NOT f.is_current`,
      [],
    );
    expect(restated).toEqual([]);
  });

  it('?manager=<name substring> resolves to manager CIKs first; echo and cursor keep the name as sent', async () => {
    const m = (await app.get('/v1/managers?limit=1')).body.data[0];
    const part = m.name.split(' ').slice(0, 2).join(' ').toLowerCase();
    const p1 = await app.get(`/v1/holdings?manager=${encodeURIComponent(part)}&limit=20`);
    expect(p1.status, JSON.stringify(p1.body).slice(0, 500)).toBe(200);
    expect(p1.body.query_echo.manager).toBe(part);
    expect(p1.body.data.length).toBeGreaterThan(0);
    for (const d of p1.body.data) expect(d.manager_name.toLowerCase()).toContain(part);
    const p2 = await app.get(`/v1/holdings?manager=${encodeURIComponent(part)}&limit=20&cursor=${encodeURIComponent(p1.body.page.next_cursor)}`);
    expect(p2.status).toBe(200);
    for (const d of p2.body.data) expect(d.manager_name.toLowerCase()).toContain(part);
    let n = 0;
    let cursor: string | null = null;
    do {
      const page = await app.get(`/v1/holdings?manager=${Number(m.cik)}&period=${m.period}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      n += page.body.data.length;
      cursor = page.body.page.next_cursor;
    } while (cursor);
    expect(n).toBe(m.holdings_count);
    const none = await app.get('/v1/holdings?manager=no%25such_manager');
    expect(none.status).toBe(200);
    expect(none.body.warnings[0].code).toBe('empty_result');
  });

  it('?manager=<name> looks its managers up once a request, in the quarter asked for; the holdings reads bind their CIKs', async () => {
    const m = (await app.get('/v1/managers?limit=1')).body.data[0];
    const part = m.name.split(' ').slice(0, 2).join(' ').toLowerCase();
    const sql = logQueries(app.services.lake);
    const r = await app.get(`/v1/holdings?manager=${encodeURIComponent(part)}&period=${m.period}&limit=5`);
    expect(r.status).toBe(200);
    expect(r.body.data.length).toBeGreaterThan(0);
    const lookups = sql.filter((s) => s.includes('managers_13f'));
    expect(lookups).toHaveLength(1);
    expect(lookups[0]).toContain('"period" =');
    expect(sql.filter((s) => !s.includes('managers_13f') && /"manager_cik" (= \$|IN \()/.test(s)).length).toBeGreaterThan(0);
    // A CIK spells out its key: no lookup at all.
    sql.length = 0;
    expect((await app.get(`/v1/holdings?manager=${Number(m.cik)}&limit=5`)).status).toBe(200);
    expect(sql.some((s) => s.includes('managers_13f'))).toBe(false);
  });

  it('positions split over two lines (SOLE + DFND) stay two lines of the same CUSIP', async () => {
    const rows = await app.services.lake.query(
      'SELECT count(*)::INTEGER AS n FROM (SELECT accession_number, cusip FROM holdings_13f GROUP BY ALL ' +
        'HAVING count(*) = 2 AND count(DISTINCT investment_discretion) = 2)',
      [],
    );
    expect(rows[0].n).toBeGreaterThan(0);
  });

  it('unmapped CUSIPs are listed in their table when no entity directory exists', async () => {
    const rows = await app.services.lake.query(`SELECT count(*)::INTEGER AS n, any_value(reason) AS reason FROM unmapped_cusips_13f`, []);
    expect(Number(rows[0].n)).toBeGreaterThan(100);
    expect(rows[0].reason).toBe('no_entity_directory');
  });
});
