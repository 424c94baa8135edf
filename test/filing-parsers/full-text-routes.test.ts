import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/harness.ts';
import { fixturePath, hasFixtures } from '../support/fixtures.ts';
import cyberIncidentsRoutes from '../../api/cyber-incidents/routes.ts';
import fullTextRoutes from '../../api/full-text/routes.ts';
import { startAppOverArchive, type Upstream } from './upstream-server.ts';
import { parseDisplayName, toFullTextHit, type EftsHit } from '../../ingest/sources/edgar/archive/efts.ts';
import { reportsCyberIncident } from '../../api/cyber-incidents/incidents.ts';

const FIXTURE = 'efts/efts_search-index_q_climate_change_forms_8-K.json';

describe.skipIf(!hasFixtures)('EFTS hit mapping on the recorded response', () => {
  it('display_names: name, tickers and CIK (two spaces before each parenthesis)', () => {
    expect(parseDisplayName('CANADIAN PACIFIC RAILWAY LTD/CN  (CP)  (CIK 0000016875)')).toEqual({
      name: 'CANADIAN PACIFIC RAILWAY LTD/CN',
      tickers: ['CP'],
      cik: '0000016875',
    });
  });

  it('first hit: accession, file name from _id, document URL under the first CIK', async () => {
    const json = JSON.parse(await readFile(fixturePath(FIXTURE), 'utf8'));
    const hit = toFullTextHit(json.hits.hits[0] as EftsHit, 'https://www.sec.gov');
    expect(hit).toEqual({
      accession: '0000950142-20-002702',
      ciks: ['0000016875'],
      entity_names: ['CANADIAN PACIFIC RAILWAY LTD/CN'],
      tickers: ['CP'],
      form: '8-K',
      file_type: 'EX-99.1',
      file_description: 'EXHIBIT 99.1',
      filed_date: '2020-12-08',
      period_ending: '2020-12-08',
      items: ['8.01', '9.01'],
      file_name: 'eh200118123_ex9901.htm',
      url: 'https://www.sec.gov/Archives/edgar/data/16875/000095014220002702/eh200118123_ex9901.htm',
      score: 10.828796,
    });
  });

  it('cyber filter: no recorded 8-K reports Item 1.05, so every hit (8.01 notes included) is excluded', async () => {
    const json = JSON.parse(await readFile(fixturePath(FIXTURE), 'utf8'));
    const hits = json.hits.hits as EftsHit[];
    expect(hits.filter((h) => (h._source.items ?? []).includes('8.01')).length).toBe(16);
    expect(hits.filter(reportsCyberIncident)).toEqual([]);
    const reported = { ...hits[0]!, _source: { ...hits[0]!._source, items: ['1.05', '9.01'] } };
    expect(reportsCyberIncident(reported)).toBe(true);
  });
});

describe.skipIf(!hasFixtures)('/v1/full-text and /v1/cyber-incidents over real HTTP', () => {
  let up: Upstream;
  let app: TestApp;
  beforeAll(async () => {
    ({ up, app } = await startAppOverArchive([...fullTextRoutes, ...cyberIncidentsRoutes]));
  });
  afterAll(async () => {
    await app?.close();
    await up?.close();
  });

  it('proxies the query with forms and maps hits; default limit 10; cursor walks on', async () => {
    const r = await app.get('/v1/full-text?q=%22climate%20change%22&forms=8-K');
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveLength(10);
    expect(r.body.page).toMatchObject({ limit: 10, has_more: true });
    expect(r.body.data[0].accession).toBe('0000950142-20-002702');
    expect(r.body.query_echo).toMatchObject({ q: '"climate change"', forms: ['8-K'], upstream_total: 10000, upstream_total_relation: 'gte' });
    const sent = up.stats.paths.filter((p) => p.startsWith('/LATEST/search-index')).at(-1)!;
    expect(new URL(sent, 'http://x').searchParams.get('forms')).toBe('8-K');
    expect(r.headers.get('x-credits-charged')).toBe('3');

    const seen = new Set<string>(r.body.data.map((d: any) => `${d.accession}:${d.file_name}`));
    let pages = 1;
    let c2 = r.body.page.next_cursor;
    while (c2) {
      const n = await app.get(`/v1/full-text?q=%22climate%20change%22&forms=8-K&cursor=${encodeURIComponent(c2)}`);
      expect(n.status).toBe(200);
      for (const d of n.body.data) seen.add(`${d.accession}:${d.file_name}`);
      c2 = n.body.page.next_cursor;
      pages++;
    }
    // 100 recorded hits, 10 per page; the walk ends on the empty upstream page after them.
    expect(seen.size).toBe(100);
    expect(pages).toBe(11);
  });

  it('ciks and date filters are sent upstream and re-checked on the hits', async () => {
    const r = await app.get('/v1/full-text?q=climate%20change&ciks=16875&date_from=2020-01-01&date_to=2020-12-31&limit=100');
    expect(r.status).toBe(200);
    expect(r.body.data.length).toBeGreaterThan(0);
    for (const d of r.body.data) {
      expect(d.ciks).toContain('0000016875');
      expect(d.filed_date >= '2020-01-01' && d.filed_date <= '2020-12-31').toBe(true);
    }
    const sent = new URL(up.stats.paths.at(-1)!, 'http://x').searchParams;
    expect(sent.get('ciks')).toBe('0000016875');
    expect(sent.get('dateRange')).toBe('custom');
    expect(sent.get('startdt')).toBe('2020-01-01');
  });

  it('no match is 200 with empty_result', async () => {
    const r = await app.get('/v1/full-text?q=climate%20change&ciks=1');
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual([]);
    expect(r.body.warnings[0].code).toBe('empty_result');
  });

  it('a cursor is bound to its query', async () => {
    const r = await app.get('/v1/full-text?q=climate%20change&forms=8-K');
    const other = await app.get(`/v1/full-text?q=climate%20change&forms=10-K&cursor=${encodeURIComponent(r.body.page.next_cursor)}`);
    expect(other.status).toBe(422);
    const wider = await app.get(`/v1/full-text?q=climate%20change&forms=8-K&limit=20&cursor=${encodeURIComponent(r.body.page.next_cursor)}`);
    expect(wider.status).toBe(200);
    expect(wider.body.data[0].accession).toBe(
      r.body.data.length ? (await app.get('/v1/full-text?q=climate%20change&forms=8-K&limit=11')).body.data[10].accession : '',
    );
  });

  it('422s: missing q, reversed dates, bad limit, bad cik, forged cursor', async () => {
    expect((await app.get('/v1/full-text')).status).toBe(422);
    const rev = await app.get('/v1/full-text?q=x&date_from=2024-02-01&date_to=2024-01-01');
    expect(rev.status).toBe(422);
    expect(rev.body.detail[0].loc).toEqual(['query', 'date_to']);
    expect((await app.get('/v1/full-text?q=x&limit=101')).status).toBe(422);
    expect((await app.get('/v1/full-text?q=x&ciks=abc')).status).toBe(422);
    const forged = await app.get('/v1/full-text?q=x&cursor=eyJrIjpbNV19.abc');
    expect(forged.status).toBe(422);
    expect(forged.body.detail[0].loc).toEqual(['query', 'cursor']);
  });

  it('upstream outage is 502, never a hang', async () => {
    up.mode = 'down';
    try {
      const r = await app.get('/v1/full-text?q=outage');
      expect(r.status).toBe(502);
      expect(r.body.error.code).toBe('upstream_unavailable');
      const c = await app.get('/v1/cyber-incidents?date_from=2099-01-01');
      expect(c.status).toBe(502);
    } finally {
      up.mode = 'ok';
    }
  });

  it('cyber-incidents: asks for 8-Ks reporting Item 1.05 and keeps none of the recorded non-1.05 hits', async () => {
    const r = await app.get('/v1/cyber-incidents?date_from=2024-01-01&ciks=320193');
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual([]);
    expect(r.body.warnings.map((w: any) => w.code)).toContain('empty_result');
    const sent = new URL(up.stats.paths.filter((p) => p.startsWith('/LATEST/')).at(-1)!, 'http://x').searchParams;
    expect(sent.get('items')).toBe('1.05');
    expect(sent.get('forms')).toBe('8-K');
    expect(sent.get('q')).toBe('"Item 1.05"');
    expect(sent.get('ciks')).toBe('0000320193');
    expect(sent.get('startdt')).toBe('2024-01-01');
    expect((await app.get('/v1/cyber-incidents?date_from=2024-05-01&date_to=2024-01-01')).status).toBe(422);
  });

  it('cyber-incidents: a filing that reports Item 1.05 is listed with its company, date and document; an 8.01 mention is not', async () => {
    // The recording holds no Item 1.05 8-K: the upstream answers two extra hits in its own format, one reporting the
    // item and one that only mentions cybersecurity under Item 8.01. The first points at a real archived filing.
    const base = { root_forms: ['8-K'], form: '8-K', file_type: '8-K', sequence: 1, inc_states: ['DE'], sics: ['7370'] };
    up.extraHits = [
      {
        _id: '0001628280-25-058337:meta-20251219.htm',
        _source: {
          ...base,
          ciks: ['0001326801'],
          adsh: '0001628280-25-058337',
          file_date: '2025-12-19',
          period_ending: '2025-12-19',
          display_names: ['Meta Platforms, Inc.  (META)  (CIK 0001326801)'],
          items: ['1.05', '9.01'],
        },
      },
      {
        _id: '0000066740-24-000023:mmm-20240308.htm',
        _source: {
          ...base,
          ciks: ['0000066740'],
          adsh: '0000066740-24-000023',
          file_date: '2025-12-20',
          period_ending: '2025-12-20',
          display_names: ['3M CO  (MMM)  (CIK 0000066740)'],
          items: ['8.01'],
        },
      },
    ];
    try {
      const r = await app.get('/v1/cyber-incidents?date_from=2025-12-01&date_to=2025-12-31');
      expect(r.status).toBe(200);
      expect(r.body.data).toHaveLength(1);
      expect(r.body.data[0]).toMatchObject({
        accession: '0001628280-25-058337',
        company: 'Meta Platforms, Inc.',
        filed_date: '2025-12-19',
        ciks: ['0001326801'],
      });
      expect(r.body.data[0].items).toContain('1.05');
      expect(r.body.data[0].index_url).toContain('/Archives/edgar/data/1326801/000162828025058337/');
      // This archived filing's text reports Item 5.02, not 1.05: the excerpt is null rather than invented.
      expect(r.body.data[0].excerpt).toBeNull();
    } finally {
      up.extraHits = [];
    }
  });
});
