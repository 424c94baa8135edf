import { z } from 'zod';
import { defineRoute } from '../core/endpoint.ts';
import { p, pagingParams, rangeIssue } from '../core/params.ts';
import type { Services } from '../core/services.ts';
import { padCik } from '../../ingest/sources/common/index.ts';
import { excerptOf } from '../../ingest/sources/edgar/index.ts';
import { walkEfts, type EftsHit } from '../../ingest/sources/edgar/index.ts';
import { extractItem } from '../../ingest/sources/edgar/index.ts';
import { primaryDocument } from '../../ingest/sources/edgar/index.ts';
import { filingStore } from '../filing-parsers/routes.ts';
import { cikListParam, LIVE_FETCH, readOffsetCursor, writeOffsetCursor } from '../full-text/routes.ts';

/**
 * `/v1/cyber-incidents`: 8-K / 8-K/A filings that REPORT Item 1.05. The full-text index is asked for 8-Ks with
 * the item and the phrase; a hit is kept only when the filing's declared items (the header, which EFTS returns
 * as `items`) contain 1.05 — a filing that merely mentions the item, or files a voluntary note under 8.01, is
 * not one. Hits are documents, so they are grouped per filing and served newest first; the item's excerpt is
 * read from the primary document through the filing cache.
 */

const SOURCE = 'sec_8k_item_1_05';
const PATH = '/v1/cyber-incidents';
const CYBER_ITEM = '1.05';
/** Pages of 100 upstream hits read per query (the feed is small: a few hundred filings since 2023-12-18). */
const MAX_PAGES = 20;
const TTL_MS = 10 * 60_000;

/** True when the hit's filing declares Item 1.05 (not a mention, not an 8.01 voluntary note). */
export function reportsCyberIncident(hit: EftsHit): boolean {
  const form = (hit._source.form ?? '').toUpperCase();
  return form.startsWith('8-K') && (hit._source.items ?? []).includes(CYBER_ITEM);
}

interface Incident {
  accession: string;
  form: string;
  company: string | null;
  ciks: string[];
  filed_date: string | null;
  period_ending: string | null;
  items: string[];
}

function incidentsOf(hits: EftsHit[]): Incident[] {
  const byAcc = new Map<string, Incident>();
  for (const h of hits) {
    if (!reportsCyberIncident(h)) continue;
    const s = h._source;
    const acc = s.adsh ?? h._id.split(':')[0]!;
    if (byAcc.has(acc)) continue;
    byAcc.set(acc, {
      accession: acc,
      form: s.form ?? '8-K',
      company: s.display_names?.[0]?.replace(/\s*\(CIK \d{10}\)\s*$/, '').replace(/\s{2}\([^()]*\)\s*$/, '').trim() ?? null,
      ciks: (s.ciks ?? []).map((c) => padCik(c)!).filter(Boolean),
      filed_date: s.file_date ?? null,
      period_ending: s.period_ending ?? null,
      items: s.items ?? [],
    });
  }
  return [...byAcc.values()].sort((a, b) => (b.filed_date ?? '').localeCompare(a.filed_date ?? '') || b.accession.localeCompare(a.accession));
}

const cache = new Map<string, { at: number; incidents: Incident[]; truncated: boolean }>();

async function allIncidents(services: Services, q: { dateFrom?: string; dateTo?: string; ciks: string[] }) {
  const key = JSON.stringify(q);
  const hit = cache.get(key);
  if (hit && services.now().getTime() - hit.at < TTL_MS) return hit;
  const walk = await walkEfts(services.http, services.settings.SEC_EFTS_BASE_URL, {
    q: `"Item ${CYBER_ITEM}"`, forms: ['8-K'], items: [CYBER_ITEM], dateFrom: q.dateFrom, dateTo: q.dateTo, ciks: q.ciks,
  }, { offset: 0, limit: Number.MAX_SAFE_INTEGER, keep: reportsCyberIncident, maxPages: MAX_PAGES, fetch: { ...LIVE_FETCH, timeoutMs: Math.min(services.settings.HTTP_TIMEOUT_MS, 20_000) } });
  const entry = { at: services.now().getTime(), incidents: incidentsOf(walk.hits), truncated: !walk.exhausted };
  cache.set(key, entry);
  return entry;
}

const CyberRecord = z.object({
  accession: z.string(),
  form: z.string().describe('8-K or 8-K/A.'),
  company: z.string().nullable(),
  ciks: z.array(z.string()),
  filed_date: z.string().nullable(),
  period_ending: z.string().nullable().describe('Date of the event (period of report).'),
  items: z.array(z.string()).describe('Every item the filing reports.'),
  excerpt: z.string().nullable().describe('Start of the Item 1.05 text; null when the document could not be read.'),
  url: z.string().nullable().describe('Primary document URL.'),
  index_url: z.string(),
});

const cyber = defineRoute({
  method: 'get',
  path: PATH,
  summary: 'Material cybersecurity incidents (8-K Item 1.05), live',
  description: '8-K and 8-K/A filings that report Item 1.05 (filings that merely mention it and voluntary Item 8.01 notes are excluded), newest first, with an excerpt of the item. Sourced live from the regulator\'s full-text index and the filings themselves.',
  tag: 'Full-text search and feeds',
  source: SOURCE,
  params: {
    date_from: p.date({ description: 'Filed on or after (YYYY-MM-DD).' }),
    date_to: p.date({ description: 'Filed on or before (YYYY-MM-DD).' }),
    ciks: cikListParam,
    ...pagingParams(25),
  },
  validate: (v) => [rangeIssue(v, 'date_from', 'date_to')],
  record: CyberRecord,
  cost: { min: 5, max: 20 },
  async handler({ query, services, setCost }) {
    const offset = readOffsetCursor(services, PATH, query);
    const ciks = query.ciks?.map((c) => padCik(c)!) ?? [];
    const all = await allIncidents(services, { dateFrom: query.date_from, dateTo: query.date_to, ciks });
    const page = all.incidents.slice(offset, offset + query.limit!);
    const warnings: { code: string; message: string }[] = [];
    let fetched = 0;
    const store = filingStore(services);
    const data = await Promise.all(page.map(async (inc) => {
      const cik = String(Number(inc.ciks[0] ?? inc.accession.slice(0, 10)));
      const indexUrl = `${services.settings.SEC_BASE_URL.replace(/\/$/, '')}/Archives/edgar/data/${cik}/${inc.accession.replace(/-/g, '')}/${inc.accession}-index.htm`;
      try {
        const m = await store.manifest(inc.accession, inc.ciks[0]);
        const doc = primaryDocument(m);
        if (!doc) return { ...inc, excerpt: null, url: null, index_url: m.index_url };
        const { text, fetchedBytes } = await store.documentText(m, doc);
        if (fetchedBytes || !m.cached) fetched++;
        const section = extractItem(text, '8-K', CYBER_ITEM);
        return { ...inc, excerpt: section ? excerptOf(section.text, 500) : null, url: doc.url, index_url: m.index_url };
      } catch (err) {
        warnings.push({ code: 'excerpt_unavailable', message: `${inc.accession}: ${(err as Error).message}` });
        return { ...inc, excerpt: null, url: null, index_url: indexUrl };
      }
    }));
    setCost(Math.min(20, 5 + fetched));
    const next = offset + page.length;
    const hasMore = next < all.incidents.length;
    if (all.truncated) warnings.push({ code: 'upstream_truncated', message: `Only the first ${MAX_PAGES * 100} upstream hits were read; narrow date_from/date_to.` });
    if (!data.length) warnings.push({ code: 'empty_result', message: 'No records match the query.' });
    return {
      data,
      page: { limit: query.limit!, next_cursor: hasMore ? writeOffsetCursor(services, PATH, query, next) : null, has_more: hasMore },
      as_of: new Date(all.at).toISOString(),
      source: SOURCE,
      query_echo: { date_from: query.date_from ?? null, date_to: query.date_to ?? null, ciks: ciks.length ? ciks : null, limit: query.limit },
      warnings,
    };
  },
});

export default [cyber];
