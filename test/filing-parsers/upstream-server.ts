import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { basename } from 'node:path';
import { fixturePath } from '../support/fixtures.ts';
import type { Endpoint } from '../../api/core/endpoint.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';

/**
 * A local stand-in for www.sec.gov and efts.sec.gov that serves the REAL fixture files in the archive's URL
 * layout (`/Archives/edgar/data/{cik}/{acc18}/…`). Nothing is synthesized except what the real server itself
 * generates: the directory listing `index.json` (from the files present) and EFTS paging/filtering, which are
 * applied to the real hits of the recorded search response. Fault switches simulate outages and slowness.
 */

export interface ArchiveFiling {
  cik: number;
  accession: string;
  /** File name in the archive → fixture path (relative to fixtures/edgar). */
  files: Record<string, string>;
}

/** Fixtures placed at their real accession (from the MANIFEST or the file's own header). */
const FILINGS: ArchiveFiling[] = [
  // Filing index page + primary document (index page lists the types; documents fetched one by one).
  {
    cik: 72333,
    accession: '0000072333-23-000015',
    files: {
      '0000072333-23-000015-index.htm': '8k/8k_nordstrom_2023-03-01_filing_index.html',
      'jwn-20230301.htm': '8k/8k_nordstrom_2023-03-01_item5.02_9.01_primary.htm',
    },
  },
  // Index page + full submission (the .txt is what the primary document is read from when asked).
  {
    cik: 796343,
    accession: '0000796343-23-000044',
    files: {
      '0000796343-23-000044-index.htm': '8k/8k_adobe_2023-03-15_filing_index.html',
      '0000796343-23-000044.txt': '8k/8k_adobe_2023-03-15_items2.02_9.01_full_submission.txt',
      'adbe-20230315.htm': '8k/8k_adobe_2023-03-15_primary.htm',
    },
  },
  // Legacy 10-Q: index page lists unnamed documents; bodies live only in the .txt.
  {
    cik: 320193,
    accession: '0000912057-00-023442',
    files: {
      '0000912057-00-023442-index.htm': '10q/10q_apple_computer_2000-04-01_filing_index.html',
      '0000912057-00-023442.txt': '10q/10q_apple_computer_2000-04-01_full_submission.txt',
    },
  },
  // Full submission only (no index page): manifest from the SGML.
  { cik: 1364742, accession: '0001193125-23-048785', files: { '0001193125-23-048785.txt': '8k/8k_blackrock_2023-02-24_item5.02_full_submission.txt' } },
  { cik: 1326801, accession: '0001628280-25-058337', files: { '0001628280-25-058337.txt': '8k/8k_meta_2025-12-19_item5.02_full_submission.txt' } },
  { cik: 66740, accession: '0000066740-24-000023', files: { '0000066740-24-000023.txt': '8k/8k_3m_2024-03-08_item8.01_full_submission.txt' } },
  {
    cik: 1847360,
    accession: '0000943374-24-000509',
    files: { '0000943374-24-000509.txt': '8k/8k_1895_bancorp_wisconsin_2024-12-20_item5.02_full_submission.txt' },
  },
  {
    cik: 1173313,
    accession: '0001213900-25-032135',
    files: { '0001213900-25-032135.txt': '8k/8k_abvc_biopharma_2025-04-15_items2.02_4.02_7.01_9.01_full_submission.txt' },
  },
  { cik: 1109357, accession: '0000950137-05-004969', files: { '0000950137-05-004969.txt': '8k/8k_exelon_2005-04-26_item5.02_full_submission.txt' } },
  { cik: 913951, accession: '0001011438-98-000429', files: { '0001011438-98-000429.txt': '8k/8k_aames_capital_1998-12-15_full_submission.txt' } },
  {
    cik: 1779026,
    accession: '0001779026-23-000027',
    files: { '0001779026-23-000027.txt': '10k/10k_carmax_auto_owner_trust_2019-3_fy2023_abs_full_submission.txt' },
  },
  { cik: 876134, accession: '0001010412-10-000078', files: { '0001010412-10-000078.txt': '10k/10k_tgfin_holdings_fy2009_full_submission.txt' } },
  { cik: 1318605, accession: '0001564590-20-004475', files: { '0001564590-20-004475.txt': '10k/10k_tesla_fy2019_header_minimal.txt' } },
  { cik: 1462356, accession: '0000320193-22-000061', files: { '0000320193-22-000061.txt': 'ownership/form4_apple_adams_2022-05-04_full_submission.txt' } },
  {
    cik: 1214935,
    accession: '0001240812-07-000005',
    files: { '0001240812-07-000005.txt': 'ownership/form4_nicholas_applegate_lemesevski_2007-08-17_P_purchase_full_submission.txt' },
  },
  // Dissemination-feed .nc files are what the archive's .txt holds for these accessions.
  { cik: 880984, accession: '0001493152-25-001317', files: { '0001493152-25-001317.txt': '8k/8k_acorn_energy_2025-01-06_items5.02_9.01_dissemination.nc' } },
  { cik: 1860782, accession: '0001562180-25-000280', files: { '0001562180-25-000280.txt': 'ownership/form4_2seventybio_snow_2025-01-06_dissemination.nc' } },
  // Primary documents alone: only the directory listing describes them. Self-filed (accession prefix = filer CIK);
  // Apple's file name is the real one, the others keep the fixture's name (their archive names are not recorded).
  { cik: 320193, accession: '0000320193-24-000123', files: { 'aapl-20240928.htm': '10k/10k_apple_fy2024_2024-11-01_primary.htm' } },
  {
    cik: 887919,
    accession: '0000887919-21-000012',
    files: { '8k_0000887919-21-000012_items8.01_9.01_primary.htm': '8k/8k_0000887919-21-000012_items8.01_9.01_primary.htm' },
  },
  {
    cik: 1000180,
    accession: '0001000180-10-000003',
    files: { '8k_sandisk_2010-01-28_items2.02_9.01_primary.htm': '8k/8k_sandisk_2010-01-28_items2.02_9.01_primary.htm' },
  },
];

export interface UpstreamStats {
  requests: number;
  paths: string[];
}

export interface Upstream {
  url: string;
  stats: UpstreamStats;
  /** `down`: every request 503; `slow`: answers after `slowMs`; `throttle`: 429; `html`: an HTML error page with a 200. */
  mode: 'ok' | 'down' | 'slow' | 'throttle' | 'html';
  slowMs: number;
  /** Extra delay on every EFTS answer (the bench's "upstream time"). */
  eftsDelayMs: number;
  /** Hits answered for ANY phrase, before the filters (cases the recording lacks, e.g. an Item 1.05 8-K). */
  extraHits: Hit[];
  close(): Promise<void>;
}

const EFTS_FIXTURE = 'efts/efts_search-index_q_climate_change_forms_8-K.json';

export interface Hit {
  _id: string;
  _source: Record<string, any>;
}

async function efts(url: URL, extraHits: Hit[]): Promise<{ status: number; body: string }> {
  const fixture = JSON.parse(await readFile(fixturePath(EFTS_FIXTURE), 'utf8'));
  let hits: Hit[] = fixture.hits.hits;
  const q = url.searchParams;
  const forms = q.get('forms')?.split(',').filter(Boolean);
  const ciks = q.get('ciks')?.split(',').filter(Boolean);
  const items = q.get('items')?.split(',').filter(Boolean);
  const start = q.get('startdt');
  const end = q.get('enddt');
  // The recording answers "climate change" in 8-Ks; other phrases have no recording, so they match nothing.
  const phrase = (q.get('q') ?? '').toLowerCase().replace(/"/g, '').trim();
  if (phrase !== 'climate change') hits = [];
  hits = [...extraHits, ...hits];
  if (forms) hits = hits.filter((h) => (h._source.root_forms ?? [h._source.form]).some((f: string) => forms.includes(f)));
  if (ciks) hits = hits.filter((h) => (h._source.ciks ?? []).some((c: string) => ciks.includes(c)));
  if (items) hits = hits.filter((h) => (h._source.items ?? []).some((i: string) => items.includes(i)));
  if (start) hits = hits.filter((h) => h._source.file_date >= start);
  if (end) hits = hits.filter((h) => h._source.file_date <= end);
  const filtered = hits.length !== fixture.hits.hits.length || extraHits.length > 0;
  const from = Number(q.get('from') ?? 0);
  const page = hits.slice(from, from + 100);
  const total = filtered ? { value: hits.length, relation: 'eq' } : fixture.hits.total;
  return { status: 200, body: JSON.stringify({ ...fixture, hits: { ...fixture.hits, total, hits: page } }) };
}

async function archive(path: string): Promise<{ status: number; body: Buffer | string; type: string }> {
  const m = /^\/Archives\/edgar\/data\/(\d+)\/(\d{18})\/(.*)$/.exec(path);
  if (!m) return { status: 404, body: 'Not Found', type: 'text/plain' };
  const [, cik, acc18, file] = m;
  // Like the real archive: reachable under each party's CIK, not under an accession prefix that is not a party.
  const filing = FILINGS.find((f) => String(f.cik) === cik && f.accession.replace(/-/g, '') === acc18);
  if (!filing) return { status: 404, body: 'Not Found', type: 'text/plain' };
  if (file === 'index.json') {
    const item = [];
    for (const [name, rel] of Object.entries(filing.files)) {
      const st = await stat(fixturePath(rel));
      item.push({ 'last-modified': st.mtime.toISOString().slice(0, 19).replace('T', ' '), name, type: 'text.gif', size: String(st.size) });
    }
    return {
      status: 200,
      body: JSON.stringify({ directory: { item, name: `/Archives/edgar/data/${cik}/${acc18}`, 'parent-dir': `/Archives/edgar/data/${cik}` } }),
      type: 'application/json',
    };
  }
  const rel = filing.files[decodeURIComponent(file!)];
  if (!rel) return { status: 404, body: 'Not Found', type: 'text/plain' };
  return { status: 200, body: await readFile(fixturePath(rel)), type: basename(rel).endsWith('.json') ? 'application/json' : 'text/html' };
}

export async function startUpstream(): Promise<Upstream> {
  const stats: UpstreamStats = { requests: 0, paths: [] };
  let server: Server;
  const state: Upstream = {
    url: '',
    stats,
    mode: 'ok',
    slowMs: 5_000,
    eftsDelayMs: 0,
    extraHits: [],
    close: () =>
      new Promise((r) => {
        server.closeAllConnections?.();
        server.close(() => r());
      }),
  };
  server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    stats.requests++;
    const url = new URL(req.url ?? '/', 'http://localhost');
    stats.paths.push(url.pathname + url.search);
    if (state.mode === 'down') {
      res.writeHead(503).end('Service Unavailable');
      return;
    }
    if (state.mode === 'throttle') {
      res.writeHead(429).end('Request Rate Threshold Exceeded');
      return;
    }
    if (state.mode === 'html') {
      // What a proxy in front of the regulator answers during maintenance: a 200 with a page, whatever was asked.
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body><h1>Service maintenance</h1></body></html>');
      return;
    }
    if (state.mode === 'slow') await new Promise((r) => setTimeout(r, state.slowMs));
    try {
      if (url.pathname === '/LATEST/search-index') {
        if (state.eftsDelayMs) await new Promise((r) => setTimeout(r, state.eftsDelayMs));
        const r = await efts(url, state.extraHits);
        res.writeHead(r.status, { 'content-type': 'application/json' }).end(r.body);
        return;
      }
      const r = await archive(url.pathname);
      res.writeHead(r.status, { 'content-type': r.type }).end(r.body);
    } catch (err) {
      if (!res.headersSent) res.writeHead(500).end(String(err));
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

/** A test app mounting `routes` whose www.sec.gov and EFTS base URLs are this archive; no retries and a short timeout, so faults surface at once. */
export async function startAppOverArchive(routes: readonly Endpoint[]): Promise<{ up: Upstream; app: TestApp }> {
  const up = await startUpstream();
  const app = await createTestApp({ routes, env: { SEC_BASE_URL: up.url, SEC_EFTS_BASE_URL: up.url, HTTP_TIMEOUT_MS: '1000', HTTP_RETRIES: '0' } });
  return { up, app };
}
