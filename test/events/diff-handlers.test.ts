import { copyFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { fixturePath, fixturesSkipReason, hasFixtures } from '../support/fixtures.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { countedQueries } from '../support/counted-queries.ts';
import dataset13f from '../../ingest/datasets/13f/dataset.ts';
import datasetFilingSections from '../../ingest/datasets/filing-sections/dataset.ts';
import datasetFilings from '../../ingest/datasets/filings/dataset.ts';
import datasetInsider from '../../ingest/datasets/insider/dataset.ts';
import datasetProxy from '../../ingest/datasets/proxy/dataset.ts';
import datasetRaises from '../../ingest/datasets/raises/dataset.ts';
import { thirteenFDiff, thirteenFHandler } from '../../ingest/events/handlers/thirteenf.ts';
import { openLakeReader } from '../../ingest/lake/reader.ts';
import { runDiffStage } from '../../ingest/events/diff-stage.ts';
import { formDHandler } from '../../ingest/events/handlers/formd.ts';
import { proxyHandler } from '../../ingest/events/handlers/proxy.ts';
import { textChangesHandler } from '../../ingest/events/handlers/text-changes.ts';
import type { ChangedTable, DiffHandler } from '../../ingest/events/handler.ts';

/**
 * Every event type from real-format input: real fixtures where they carry the case, otherwise files we
 * write in the regulator's published format. Each test asserts the event, its importance and its dedup key.
 */

async function events(app: TestApp, where = 'true', params: unknown[] = []) {
  // A backfill or append runs outside the app: its views take the commit in at the next catalog check, asked for now.
  await app.services.lake.refresh();
  return app.services.lake.query(`SELECT * FROM events WHERE ${where} ORDER BY seq`, params);
}

/** A submissions JSON (data.sec.gov/submissions/CIK##########.json layout) with the given filings. */
function submissionsJson(cik: string, name: string, ticker: string, filings: { acc: string; form: string; date: string; items?: string }[]) {
  const col = <T>(f: (x: (typeof filings)[number]) => T) => filings.map(f);
  return JSON.stringify({
    cik,
    entityType: 'operating',
    sic: '3571',
    sicDescription: 'Electronic Computers',
    name,
    tickers: [ticker],
    exchanges: ['Nasdaq'],
    ein: '000000000',
    fiscalYearEnd: '1231',
    stateOfIncorporation: 'DE',
    formerNames: [],
    filings: {
      recent: {
        accessionNumber: col((x) => x.acc),
        filingDate: col((x) => x.date),
        reportDate: col((x) => x.date),
        acceptanceDateTime: col((x) => `${x.date}T16:05:00.000Z`),
        act: col(() => '34'),
        form: col((x) => x.form),
        fileNumber: col(() => '001-00001'),
        filmNumber: col(() => '24000001'),
        items: col((x) => x.items ?? ''),
        core_type: col((x) => x.form),
        size: col(() => 123456),
        isXBRL: col(() => 1),
        isInlineXBRL: col(() => 1),
        primaryDocument: col((x) => `doc-${x.acc}.htm`),
        primaryDocDescription: col((x) => x.form),
      },
      files: [],
    },
  });
}

/** Queries the handler of the last `draftedKeys` ran (streamed reads aside). */
let handlerQueries = 0;

/**
 * The dedup keys a handler drafts for `changed`, its SQL drafts run over a reader of the app's lake: what the live
 * lane's batches ask of it when they name their filings (`ChangedTable.accessions`).
 */
async function draftedKeys(app: TestApp, handler: DiffHandler, changed: ChangedTable[]): Promise<string[]> {
  const lake = await openLakeReader(app.settings.lakeDir, [], {}, { serving: false });
  try {
    const counted = countedQueries(lake);
    const out = await handler.run({ lake: counted.lake, settings: app.settings, log: () => undefined }, changed);
    handlerQueries = counted.queries();
    const keys = (out.drafts ?? []).map((d) => d.dedup_key);
    for (const s of out.sql ?? []) keys.push(...(await lake.query(s.sql, s.params)).map((r) => String(r.dedup_key)));
    return keys.sort();
  } finally {
    await lake.close();
  }
}

describe('events from the filing index (8-K items, S-1, new/amended filings)', () => {
  let app: TestApp;
  let dir: string;
  beforeAll(async () => {
    app = await createTestApp({ routes: [] });
    dir = join(app.dataDir, 'subs');
    await mkdir(dir, { recursive: true });
    await writeFile(
      join(dir, 'CIK0001999001.json'),
      submissionsJson('0001999001', 'Example Holdings Inc', 'EXHO', [
        { acc: '0001999001-24-000001', form: '8-K', date: '2024-02-01', items: '4.01,9.01' },
        { acc: '0001999001-24-000002', form: '8-K', date: '2024-02-05', items: '1.03' },
        { acc: '0001999001-24-000003', form: '8-K', date: '2024-02-07', items: '1.05,7.01' },
        { acc: '0001999001-24-000004', form: '8-K', date: '2024-02-09', items: '3.01' },
        { acc: '0001999001-24-000005', form: 'S-1', date: '2024-02-12' },
        { acc: '0001999001-24-000006', form: 'S-1/A', date: '2024-03-01' },
      ]),
    );
  });
  afterAll(() => app.close());

  it('8-K items 4.01, 1.03, 1.05, 3.01 and S-1 / S-1/A from submissions data', async () => {
    const s = await app.ingest(datasetFilings, { from: dir });
    expect(s.events.appended).toBeGreaterThan(0);
    const want: [string, string, string][] = [
      ['sec.8k.auditor_change', '0001999001-24-000001', 'high'],
      ['sec.8k.bankruptcy_or_receivership', '0001999001-24-000002', 'high'],
      ['sec.8k.cybersecurity_incident', '0001999001-24-000003', 'high'],
      ['sec.8k.delisting_notice', '0001999001-24-000004', 'high'],
      ['sec.s1.new_registration', '0001999001-24-000005', 'high'],
      ['sec.s1.amended_registration', '0001999001-24-000006', 'medium'],
      ['sec.filing.new', '0001999001-24-000001', 'low'],
      ['sec.filing.amended', '0001999001-24-000006', 'low'],
    ];
    for (const [type, acc, importance] of want) {
      const [e] = await events(app, 'dedup_key = $1', [`${type}|${acc}`]);
      expect(e, type).toBeDefined();
      expect(e).toMatchObject({ event_type: type, importance, confidence: 1, accession: acc, entity_cik: '0001999001' });
    }
    const [cyber] = await events(app, "event_type = 'sec.8k.cybersecurity_incident'");
    expect(JSON.parse(String(cyber.details))).toMatchObject({ form: '8-K', item: '1.05' });
    const ev = JSON.parse(String(cyber.evidence))[0];
    expect(ev).toMatchObject({ source_type: 'sec_filing_index', section: 'Item 1.05' });
    expect(ev.excerpt_sha256).toMatch(/^[0-9a-f]{64}$/);
    // 7.01 is not in the taxonomy: no event for it.
    expect((await events(app, "accession = '0001999001-24-000003' AND event_type LIKE 'sec.8k.%'")).length).toBe(1);
  });

  it('ingesting the same input twice adds no event', async () => {
    const before = (await events(app)).length;
    const s = await app.ingest(datasetFilings, { from: dir });
    expect(s.events.appended).toBe(0);
    expect((await events(app)).length).toBe(before);
  });

  it('a crash after the lake write but before the events append is healed by the next run', async () => {
    const { appendEvents } = await import('../../ingest/events/writer.ts');
    const { backfillEvents } = await import('../../ingest/events/backfill.ts');
    const before = (await events(app)).length;
    // Remove nothing; a backfill over the period recomputes and must find nothing missing.
    const s = await backfillEvents(app.settings, '2024-01-01', '2024-03-31', { quiet: true });
    expect(s.appended).toBe(0);
    expect(await appendEvents(app.settings, [])).toBe(0);
    expect((await events(app)).length).toBe(before);
  });
});

describe.skipIf(!hasFixtures)('events from real fixtures', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ routes: [] });
  });
  afterAll(() => app.close());

  it("8-K material agreement, results of operations and executive change from Tesla's real submissions JSON", async () => {
    const dir = join(app.dataDir, 'tesla');
    await mkdir(dir, { recursive: true });
    await copyFile(fixturePath('xbrl-api/submissions_CIK0001318605_tesla.json'), join(dir, 'CIK0001318605.json'));
    await app.ingest(datasetFilings, { from: dir });
    for (const type of ['sec.8k.material_agreement', 'sec.8k.results_of_operations', 'sec.8k.executive_change']) {
      const rows = await events(app, 'event_type = $1', [type]);
      expect(rows.length, type).toBeGreaterThan(0);
      expect(rows[0]).toMatchObject({ importance: 'medium', entity_cik: '0001318605', confidence: 1 });
      expect(String(rows[0].dedup_key)).toBe(`${type}|${rows[0].accession}`);
    }
    const amended = await events(app, "event_type = 'sec.filing.amended' AND json_extract_string(details, '$.form') = '10-K/A'");
    expect(amended.length).toBeGreaterThan(0);
    expect(amended[0].importance).toBe('medium');
  });

  it('Form 4 buy (P), sell (S) and option exercise (M) from real ownership filings', async () => {
    await app.ingest(datasetInsider, { from: fixturePath('ownership') });
    const [buy] = await events(app, "event_type = 'sec.form4.insider_buy'");
    expect(buy).toMatchObject({ entity_cik: '0001214935', importance: 'low', dedup_key: 'sec.form4.insider_buy|0001240812-07-000005' });
    expect(JSON.parse(String(buy.details))).toMatchObject({ trans_code: 'P', shares: 300, value_usd: 3525 });
    const [sell] = await events(app, "event_type = 'sec.form4.insider_sell'");
    // Katherine Adams, Apple, 2022-05-04: seven sales at weighted-average prices, 25,000 shares in all.
    expect(sell).toMatchObject({
      entity_cik: '0000320193',
      importance: 'medium',
      accession: '0000320193-22-000061',
      dedup_key: 'sec.form4.insider_sell|0000320193-22-000061',
    });
    expect(JSON.parse(String(sell.details))).toMatchObject({ shares: 25000, transactions: 7, value_usd: 4042887.94 });
    const [exercise] = await events(app, "event_type = 'sec.form4.option_exercise'");
    expect(exercise).toMatchObject({ entity_cik: '0001617553', importance: 'low', dedup_key: 'sec.form4.option_exercise|0001617553-25-000024' });
    expect(JSON.parse(String(exercise.details))).toMatchObject({ shares: 60732, transactions: 4 });
  });

  it('Form D new offering and amendment from real Form D XML in its submission container', async () => {
    const dir = join(app.dataDir, 'formd');
    await mkdir(dir, { recursive: true });
    const wrap = async (fixture: string, acc: string, form: string, filed: string, cik: string, name: string) => {
      const xml = await readFile(fixturePath(fixture), 'utf8');
      await writeFile(
        join(dir, `${acc}.txt`),
        `<SEC-DOCUMENT>${acc}.txt : ${filed}
<SEC-HEADER>${acc}.hdr.sgml : ${filed}
ACCESSION NUMBER:		${acc}
CONFORMED SUBMISSION TYPE:	${form}
PUBLIC DOCUMENT COUNT:		1
FILED AS OF DATE:		${filed}

FILER:

	COMPANY DATA:
		COMPANY CONFORMED NAME:			${name}
		CENTRAL INDEX KEY:			${cik}
</SEC-HEADER>
<DOCUMENT>
<TYPE>${form}
<SEQUENCE>1
<FILENAME>primary_doc.xml
<TEXT>
<XML>
${xml.replace(/^<\?xml[^>]*>\s*/, '')}
</XML>
</TEXT>
</DOCUMENT>
</SEC-DOCUMENT>
`,
      );
    };
    await wrap(
      'form-d/formd_a_shepherds_finance_2023_operating_company_amendment.xml',
      '0001544190-23-000001',
      'D/A',
      '20230131',
      '0001544190',
      "Shepherd's Finance, LLC",
    );
    await wrap('form-d/formd_1685_38th_reit_2023_primary_doc.xml', '0001961089-23-000001', 'D', '20230127', '0001961089', '1685 38th REIT L.L.C.');
    await app.ingest(datasetRaises, { from: dir });
    const [amended] = await events(app, "event_type = 'sec.formd.offering_amended'");
    expect(amended).toMatchObject({ entity_cik: '0001544190', importance: 'low', dedup_key: 'sec.formd.offering_amended|0001544190-23-000001' });
    expect(JSON.parse(String(amended.details))).toMatchObject({ form: 'D/A', total_offering_amount_usd: 8000000, total_amount_sold_usd: 5725051 });
    const [reit] = await events(app, "event_type = 'sec.formd.new_offering'");
    expect(reit).toMatchObject({ entity_cik: '0001961089', importance: 'low', dedup_key: 'sec.formd.new_offering|0001961089-23-000001' });
    expect(JSON.parse(String(reit.details))).toMatchObject({ form: 'D', total_offering_amount_usd: 125000 });
    // A live batch naming one of the notices drafts that notice alone, not its whole quarter.
    const quarter = { table: 'form_d_offerings', partitions: ['2023Q1'] };
    expect((await draftedKeys(app, formDHandler, [quarter])).length).toBeGreaterThan(1);
    expect(await draftedKeys(app, formDHandler, [{ ...quarter, accessions: ['0001961089-23-000001'] }])).toEqual([reit.dedup_key]);
  });

  it('13F holding added / removed / increased / decreased, quarter over quarter, from a real 13F-HR and its next quarter', async () => {
    const q3 = await readFile(fixturePath('13f/13f-hr_lts_one_management_2023Q3_full_submission.txt'), 'utf8');
    const blocks = q3.split('<ns1:infoTable>');
    const head = blocks[0];
    const rows = blocks.slice(1).map((b) => `<ns1:infoTable>${b.replace(/\s*<\/ns1:informationTable>[\s\S]*$/, '')}`);
    const tail = q3.slice(q3.lastIndexOf('</ns1:informationTable>'));
    const scale = (row: string, k: number) => row.replace(/<ns1:(value|sshPrnamt|Sole)>(\d+)</g, (_m, tag, n) => `<ns1:${tag}>${Math.round(Number(n) * k)}<`);
    // Q4: the first holding sold out, the second doubled, the third halved, a new CUSIP bought.
    const added = rows[3].replace(/<ns1:cusip>[^<]+</, '<ns1:cusip>88160R101<').replace(/<ns1:nameOfIssuer>[^<]+</, '<ns1:nameOfIssuer>TESLA INC<');
    const q4Rows = [scale(rows[1], 2), scale(rows[2], 0.5), ...rows.slice(3), added];
    const q4 = (head + q4Rows.join('') + tail)
      .replaceAll('0001894188-23-000007', '0001894188-24-000002')
      .replaceAll('20231114', '20240214')
      .replaceAll('20230930', '20231231')
      .replaceAll('09-30-2023', '12-31-2023');
    const dir = join(app.dataDir, '13f');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, '0001894188-23-000007.txt'), q3);
    await writeFile(join(dir, '0001894188-24-000002.txt'), q4);
    await app.ingest(dataset13f, { from: dir });
    const all = await events(app, "event_type LIKE 'sec.13f.%'");
    const byType = (t: string) => all.filter((e) => e.event_type === t);
    expect(byType('sec.13f.holding_removed').map((e) => JSON.parse(String(e.details)).cusip)).toEqual(['023135106']);
    expect(byType('sec.13f.position_increased').map((e) => JSON.parse(String(e.details)).cusip)).toEqual(['22160N109']);
    expect(byType('sec.13f.position_decreased')).toHaveLength(1);
    const add = byType('sec.13f.holding_added');
    expect(add.map((e) => JSON.parse(String(e.details)).cusip)).toEqual(['88160R101']);
    expect(add[0].dedup_key).toBe('sec.13f.holding_added|0001894188|88160R101|2023Q4');
    expect(add[0].accession).toBe('0001894188-24-000002');
    const amzn = byType('sec.13f.holding_removed')[0];
    expect(JSON.parse(String(amzn.details))).toMatchObject({ shares_before: 137500, value_before_usd: 17479000, period: '2023Q4', previous_period: '2023Q3' });
    expect(amzn.importance).toBe('medium');
    // Re-ingesting both quarters adds nothing.
    const again = await app.ingest(dataset13f, { from: dir });
    expect(again.events.appended).toBe(0);
  });
});

describe('events from generated filings in the real formats', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ routes: [] });
  });
  afterAll(() => app.close());

  it('10-K risk factors and MD&A, 10-Q MD&A changes (full submission text)', async () => {
    await app.ingestSample(datasetFilingSections);
    const rows = await events(app, "event_type IN ('sec.10k.risk_factor_changed', 'sec.10k.mda_changed', 'sec.10q.mda_changed')");
    expect(new Set(rows.map((r) => r.event_type))).toEqual(new Set(['sec.10k.risk_factor_changed', 'sec.10k.mda_changed', 'sec.10q.mda_changed']));
    const rf = rows.find((r) => r.event_type === 'sec.10k.risk_factor_changed' && r.entity_cik === '0001901555')!;
    const d = JSON.parse(String(rf.details));
    expect(d.added_paragraphs[0]).toMatch(/^A cybersecurity incident/);
    expect(d.removed_count).toBe(1);
    expect(d.similarity).toBeLessThan(0.8);
    expect(rf.importance).toBe('medium');
    expect(rf.confidence).toBeLessThan(1);
    expect(rf.dedup_key).toBe(`sec.10k.risk_factor_changed|${rf.accession}`);
    // A live batch naming one filing compares that filing's sections alone, not its whole year.
    const year = [{ table: 'filing_sections', partitions: [String(rf.occurred_at).slice(0, 4)] }];
    const ofYear = await draftedKeys(app, textChangesHandler, year);
    expect(ofYear).toContain(rf.dedup_key);
    expect(ofYear.length).toBeGreaterThan(1);
    const ofFiling = rows.filter((r) => r.accession === rf.accession).map((r) => String(r.dedup_key));
    expect(await draftedKeys(app, textChangesHandler, [{ ...year[0], accessions: [String(rf.accession)] }])).toEqual(ofFiling.sort());
  });

  it('proxy board and executive compensation changes between consecutive proxies (DEF 14A full submissions)', async () => {
    await app.ingestSample(datasetProxy);
    const [board] = await events(app, "event_type = 'sec.proxy.board_changed' AND entity_cik = '0000900000'");
    expect(board).toMatchObject({
      importance: 'medium',
      confidence: 0.95,
      accession: '0000900000-24-000001',
      dedup_key: 'sec.proxy.board_changed|0000900000-24-000001',
    });
    expect(JSON.parse(String(board.details))).toMatchObject({
      joined: ['Grace K. Garcia'],
      left: ['Elena C. Ellis'],
      previous_accession: '0000900000-23-000001',
      board_size_after: 5,
    });
    const [comp] = await events(app, "event_type = 'sec.proxy.executive_compensation_changed' AND entity_cik = '0000900002'");
    expect(comp).toMatchObject({ importance: 'medium', dedup_key: 'sec.proxy.executive_compensation_changed|0000900002-24-000003' });
    // Executives whose total moved less than 10% are not listed.
    expect(JSON.parse(String(comp.details)).changes).toEqual([{ name: 'Grace C. Kim', total_before: 2171861, total_after: 3515958, change_pct: 61.89 }]);
    // Every pair's directors and executives are read in one query each (and the proxies in one), not two per pair.
    const years = await app.services.lake.query('SELECT DISTINCT CAST(proxy_fiscal_year AS VARCHAR) AS y FROM proxy_officers ORDER BY 1');
    const changed = ['proxy_officers', 'proxy_compensation'].map((table) => ({ table, partitions: years.map((r) => String(r.y)) }));
    const proxyEvents = await events(app, "event_type LIKE 'sec.proxy.%'");
    expect(proxyEvents.length).toBeGreaterThan(2);
    expect(await draftedKeys(app, proxyHandler, changed)).toEqual(proxyEvents.map((e) => String(e.dedup_key)).sort());
    expect(handlerQueries).toBe(3);
  });
});

if (!hasFixtures) console.warn(`[events] ${fixturesSkipReason}`);

/**
 * The 13F diff aggregates numbers only and takes each event's text from one line of the pair (docs/events.md,
 * "Memory"). Checked event by event against the lines themselves, on the 13F sample's two quarters (amendments that
 * restate and that add holdings among them): the accession is the latest of the pair's filings, the evidence URL that
 * filing's, the names some line's of the pair, the shares and value the pair's sums.
 */
describe('13F diff text from the pair’s own lines', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
    const dir = join(app.dataDir, 'samples', '13f');
    await dataset13f.sample!(dir, { seed: 7, scale: 1 });
    await app.ingest(dataset13f, { from: dir });
  });
  afterAll(() => app?.close());

  it('every event agrees with the lines of its pair', async () => {
    const all = await events(app, "event_type LIKE 'sec.13f.%'");
    expect(all.length).toBeGreaterThan(100);
    const [check] = await app.services.lake.query(
      `WITH e AS (
         SELECT event_type, entity_cik AS manager, entity_name, accession, details::JSON AS d, evidence::JSON AS ev FROM events
         WHERE event_type LIKE 'sec.13f.%'),
       l AS (SELECT period, manager_cik, cusip, shares, value_usd, accession_number, source_url, manager_name, issuer_name
         FROM holdings_13f WHERE is_current AND coalesce(put_call, '') = ''),
       side AS (
         SELECT e.*, CASE WHEN event_type = 'sec.13f.holding_removed' THEN (d->>'previous_period') ELSE (d->>'period') END AS period FROM e),
       pair AS (
         SELECT s.event_type, s.entity_name, s.accession, s.d, s.ev, max(l.accession_number) AS latest, max(l.source_url) AS url,
                list(DISTINCT l.manager_name) AS managers, list(DISTINCT l.issuer_name) AS issuers, sum(l.shares) AS shares, sum(l.value_usd) AS value
         FROM side s JOIN l ON l.period = s.period AND l.manager_cik = s.manager AND l.cusip = (s.d->>'cusip')
         GROUP BY ALL)
       SELECT count(*)::INTEGER AS n,
              count(*) FILTER (WHERE accession = latest)::INTEGER AS latest_accession,
              count(*) FILTER (WHERE (ev->0->>'url') = url)::INTEGER AS its_url,
              count(*) FILTER (WHERE list_contains(managers, entity_name))::INTEGER AS a_manager_name,
              count(*) FILTER (WHERE (d->>'issuer_name') IS NULL OR list_contains(issuers, (d->>'issuer_name')))::INTEGER AS an_issuer_name,
              count(*) FILTER (WHERE (CASE WHEN event_type = 'sec.13f.holding_removed' THEN (d->>'shares_before')::DOUBLE
                                      ELSE (d->>'shares_after')::DOUBLE END) = shares)::INTEGER AS its_shares
       FROM pair`,
    );
    expect(check.n).toBe(all.length);
    expect(check).toEqual({
      n: all.length,
      latest_accession: all.length,
      its_url: all.length,
      a_manager_name: all.length,
      an_issuer_name: all.length,
      its_shares: all.length,
    });
  });

  /**
   * The diff runs one statement per slice of managers (docs/events.md, "Memory"): slices of a few hundred lines here
   * must draft exactly what one statement drafts, read from the manager-sorted copy or, in a lake without it, from
   * holdings_13f.
   */
  it('drafts the same events in manager slices as in one statement, from either table', async () => {
    const lake = await openLakeReader(app.settings.lakeDir, [], {}, { serving: false });
    onTestFinished(() => lake.close());
    const ctx = { lake, settings: app.settings, log: () => undefined };
    const changed = [{ table: 'holdings_13f', partitions: ['2024Q4'] }];
    const drafted = async (handler: ReturnType<typeof thirteenFDiff>, c: typeof ctx) => {
      const { sql = [] } = await handler.run(c, changed);
      const rows: Record<string, unknown>[] = [];
      // The evidence's retrieved_at is the handler's clock: fixed, so that the runs compare.
      for (const s of sql) rows.push(...(await lake.query(s.sql, ['2026-01-01T00:00:00.000Z', ...(s.params ?? []).slice(1)])));
      return { statements: sql.length, rows: rows.map((r) => JSON.stringify(r)).sort() };
    };
    const whole = await drafted(thirteenFDiff(), ctx);
    expect(whole.statements).toBe(1);
    expect(whole.rows.length).toBeGreaterThan(100);
    const sliced = await drafted(thirteenFDiff(300), ctx);
    expect(sliced.statements).toBeGreaterThan(5);
    expect(sliced.rows).toEqual(whole.rows);
    // A lake without the manager-sorted copy: the slices read holdings_13f.
    const noCopy = { ...ctx, lake: { ...lake, partitions: (t: string) => (t === 'holdings_13f_by_manager' ? [] : lake.partitions(t)) } };
    const fallback = await drafted(thirteenFDiff(300), noCopy);
    expect(fallback.statements).toBe(sliced.statements);
    expect(fallback.rows).toEqual(whole.rows);

    // A live batch names its filings: one statement over their managers drafts exactly those managers' events.
    const filed = await lake.query("SELECT accession_number, cik FROM filings_13f WHERE period = '2024Q4' AND is_current ORDER BY accession_number LIMIT 3");
    const managers = new Set(filed.map((r) => String(r.cik)));
    const live = async (accessions: string[]) => {
      const { sql = [] } = await thirteenFHandler.run(ctx, [{ table: 'holdings_13f', partitions: ['2024Q4'], accessions }]);
      const rows: Record<string, unknown>[] = [];
      for (const s of sql) rows.push(...(await lake.query(s.sql, ['2026-01-01T00:00:00.000Z', ...(s.params ?? []).slice(1)])));
      return { statements: sql.length, rows: rows.map((r) => JSON.stringify(r)).sort() };
    };
    const batch = await live(filed.map((r) => String(r.accession_number)));
    expect(batch.statements).toBe(1);
    const theirs = whole.rows.filter((r) => managers.has(String(JSON.parse(r).entity_cik)));
    expect(theirs.length).toBeGreaterThan(0);
    expect(batch.rows).toEqual(theirs);
    // Filings with no 13F among them: nothing to diff.
    expect(await live(['0000000000-26-000001'])).toEqual({ statements: 0, rows: [] });
  });

  it('runs within the ingest memory limit, spilling to a scratch folder it removes; out of memory, it appends nothing', async () => {
    const count = async () => Number((await events(app, "event_type LIKE 'sec.13f.%'")).length);
    const before = await count();
    const changed = [{ table: 'holdings_13f', partitions: ['2024Q4'] }];
    // The same limit as an ingest's work database: too small a one fails the stage, leaving the feed as it was.
    await expect(runDiffStage({ ...app.settings, INGEST_MEMORY_LIMIT: '1KB' }, changed, { quiet: true })).rejects.toThrow(
      /Out of Memory[\s\S]*This ran within 1KB \(INGEST_MEMORY_LIMIT\)/,
    );
    expect(await count()).toBe(before);
    // Unset, the ingesting dataset's own limit applies (13F: 768MB); INGEST_MEMORY_LIMIT, set, wins over it.
    await expect(runDiffStage(app.settings, changed, { quiet: true, datasetMemoryLimit: '1KB' })).rejects.toThrow(
      /Out of Memory[\s\S]*This ran within 1KB \(the dataset's default\)/,
    );
    expect(await runDiffStage({ ...app.settings, INGEST_MEMORY_LIMIT: '1GB' }, changed, { quiet: true, datasetMemoryLimit: '1KB' })).toMatchObject({
      appended: 0,
    });
    // Rerun within the default limit, as a roll-forward would: every key is known, nothing is appended twice.
    expect(await runDiffStage(app.settings, changed, { quiet: true })).toEqual({ handlers: 1, drafted: before, appended: 0 });
    expect(await count()).toBe(before);
    expect((await readdir(join(app.dataDir, '.work'))).filter((f) => f.startsWith('diff-'))).toEqual([]);
  });
});
