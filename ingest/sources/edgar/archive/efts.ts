import { type FetchOptions, type HttpClient, UpstreamError } from '../../common/http.ts';
import { cikDigits, padCik } from '../../common/normalize.ts';

/**
 * The regulator's full-text search (EFTS, docs/formats/11-efts-full-text-search.md): query URLs, hit records, and a
 * walk that reads upstream pages of 100 (the fixed size) from an offset until a page of ours is full. Hits are
 * documents (`_id` = `adsh:filename`), so a filing may appear once per matching document.
 */

const EFTS_PAGE = 100;
/** Elasticsearch window: from + size ≤ 10,000. */
export const EFTS_WINDOW = 10_000;

export interface EftsQuery {
  q: string;
  forms?: string[];
  dateFrom?: string;
  dateTo?: string;
  ciks?: string[];
  items?: string[];
}

export interface EftsSource {
  adsh?: string;
  ciks?: string[];
  display_names?: string[];
  form?: string;
  root_forms?: string[];
  file_date?: string;
  period_ending?: string | null;
  file_type?: string | null;
  file_description?: string | null;
  items?: string[] | null;
  sequence?: number | string | null;
}

export interface EftsHit {
  _id: string;
  _score?: number | null;
  _source: EftsSource;
}

export interface EftsResponse {
  took?: number;
  hits: { total?: { value: number; relation: string }; hits: EftsHit[] };
}

export interface FullTextHit {
  accession: string;
  ciks: string[];
  entity_names: string[];
  tickers: string[];
  form: string | null;
  file_type: string | null;
  file_description: string | null;
  filed_date: string | null;
  period_ending: string | null;
  items: string[];
  file_name: string | null;
  url: string | null;
  score: number | null;
}

function eftsUrl(base: string, q: EftsQuery, from: number): string {
  const p = new URLSearchParams();
  p.set('q', q.q);
  if (q.forms?.length) p.set('forms', q.forms.join(','));
  if (q.dateFrom || q.dateTo) {
    p.set('dateRange', 'custom');
    p.set('startdt', q.dateFrom ?? '2001-01-01');
    p.set('enddt', q.dateTo ?? new Date().toISOString().slice(0, 10));
  }
  if (q.ciks?.length) p.set('ciks', q.ciks.map((c) => padCik(c)).join(','));
  if (q.items?.length) p.set('items', q.items.join(','));
  if (from > 0) p.set('from', String(from));
  return `${base.replace(/\/$/, '')}/LATEST/search-index?${p.toString()}`;
}

/** `TESLA, INC.  (TSLA, TSLA2)  (CIK 0001318605)` → name and tickers. */
export function parseDisplayName(s: string): { name: string; tickers: string[]; cik: string | null } {
  const cik = /\(CIK (\d{10})\)\s*$/.exec(s)?.[1] ?? null;
  let rest = s.replace(/\s*\(CIK \d{10}\)\s*$/, '');
  let tickers: string[] = [];
  const t = /\s{2}\(([^()]*)\)\s*$/.exec(rest);
  if (t) {
    tickers = t[1]!
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean);
    rest = rest.slice(0, t.index);
  }
  return { name: rest.trim(), tickers, cik };
}

export function toFullTextHit(hit: EftsHit, secBase: string): FullTextHit {
  const s = hit._source ?? {};
  const [adshFromId, fileName] = hit._id.includes(':') ? [hit._id.slice(0, hit._id.indexOf(':')), hit._id.slice(hit._id.indexOf(':') + 1)] : [hit._id, null];
  const accession = s.adsh ?? adshFromId;
  const names = (s.display_names ?? []).map(parseDisplayName);
  const ciks = (s.ciks ?? []).map((c) => padCik(c)).filter((c): c is string => !!c);
  const firstCik = cikDigits(ciks[0]);
  return {
    accession,
    ciks,
    entity_names: names.map((n) => n.name),
    tickers: [...new Set(names.flatMap((n) => n.tickers))],
    form: s.form ?? null,
    file_type: s.file_type ?? null,
    file_description: s.file_description ?? null,
    filed_date: s.file_date ?? null,
    period_ending: s.period_ending ?? null,
    items: s.items ?? [],
    file_name: fileName,
    url: firstCik && fileName ? `${secBase.replace(/\/$/, '')}/Archives/edgar/data/${Number(firstCik)}/${accession.replace(/-/g, '')}/${fileName}` : null,
    score: hit._score ?? null,
  };
}

export interface WalkResult {
  hits: EftsHit[];
  /** Upstream offset of the first hit not yet examined. */
  next: number;
  exhausted: boolean;
  total: { value: number; relation: string } | null;
  /** Milliseconds spent waiting for upstream responses (the bench's "upstream time"). */
  upstreamMs: number;
  pages: number;
}

/**
 * A search page as JSON. The service answers an HTML page with a 200 when it is overloaded or in maintenance: that is
 * the upstream failing (502 `upstream_unavailable`), not a bug of ours (it was a 500 from `JSON.parse`).
 */
function eftsJson(body: Buffer, contentType: string | null, url: string): EftsResponse {
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    throw new UpstreamError(`full-text search answered ${contentType ?? 'no content type'}, not JSON`, 'http', 200, url);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new UpstreamError('full-text search answered JSON that is not an object', 'http', 200, url);
  return json as EftsResponse;
}

/**
 * Reads upstream pages from `offset` until `limit` hits pass `keep`, the result set ends, the 10,000 window
 * ends, or `maxPages` pages were read (a page of ours then ends early, and its cursor resumes the walk).
 */
export async function walkEfts(
  http: HttpClient,
  base: string,
  query: EftsQuery,
  opts: { offset: number; limit: number; keep?: (h: EftsHit) => boolean; maxPages?: number; fetch?: FetchOptions },
): Promise<WalkResult> {
  const out: EftsHit[] = [];
  let from = opts.offset;
  let exhausted = false;
  let total: WalkResult['total'] = null;
  let upstreamMs = 0;
  let pages = 0;
  while (out.length < opts.limit && pages < (opts.maxPages ?? 5)) {
    const pageStart = Math.floor(from / EFTS_PAGE) * EFTS_PAGE;
    if (pageStart >= EFTS_WINDOW) {
      exhausted = true;
      break;
    }
    const t0 = performance.now();
    const url = eftsUrl(base, query, pageStart);
    const res = await http.get(url, { ...opts.fetch, accept: 'application/json' });
    upstreamMs += performance.now() - t0;
    pages++;
    const json = eftsJson(res.body, res.contentType, url);
    total = json.hits?.total ?? null;
    const hits = json.hits?.hits ?? [];
    let i = from - pageStart;
    for (; i < hits.length && out.length < opts.limit; i++) {
      if (!opts.keep || opts.keep(hits[i]!)) out.push(hits[i]!);
    }
    from = pageStart + i;
    if (hits.length < EFTS_PAGE && i >= hits.length) {
      exhausted = true;
      break;
    }
  }
  const cap = Math.min(EFTS_WINDOW, total?.value ?? EFTS_WINDOW);
  if (total?.relation === 'eq' && from >= cap) exhausted = true;
  return { hits: out, next: from, exhausted, total, upstreamMs, pages };
}
