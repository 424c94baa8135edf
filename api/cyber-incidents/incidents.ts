import { padCik } from '../../ingest/sources/common/index.ts';
import { walkEfts, type EftsHit } from '../../ingest/sources/edgar/index.ts';
import type { Services } from '../core/services.ts';
import { LIVE_FETCH } from '../full-text/live-params.ts';

/**
 * `/v1/cyber-incidents`: 8-K / 8-K/A filings that REPORT Item 1.05. The full-text index is asked for 8-Ks with
 * the item and the phrase; a hit is kept only when the filing's declared items (the header, which EFTS returns
 * as `items`) contain 1.05 — a filing that merely mentions the item, or files a voluntary note under 8.01, is
 * not one. Hits are documents, so they are grouped per filing and served newest first; the item's excerpt is
 * read from the primary document through the filing cache.
 */

export const CYBER_ITEM = '1.05';
/** Pages of 100 upstream hits read per query (the feed is small: a few hundred filings since 2023-12-18). */
export const MAX_PAGES = 20;
const TTL_MS = 10 * 60_000;

/** True when the hit's filing declares Item 1.05 (not a mention, not an 8.01 voluntary note). */
export function reportsCyberIncident(hit: EftsHit): boolean {
  const form = (hit._source.form ?? '').toUpperCase();
  return form.startsWith('8-K') && (hit._source.items ?? []).includes(CYBER_ITEM);
}

export interface Incident {
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
      company:
        s.display_names?.[0]
          ?.replace(/\s*\(CIK \d{10}\)\s*$/, '')
          .replace(/\s{2}\([^()]*\)\s*$/, '')
          .trim() ?? null,
      ciks: (s.ciks ?? []).map((c) => padCik(c)!).filter(Boolean),
      filed_date: s.file_date ?? null,
      period_ending: s.period_ending ?? null,
      items: s.items ?? [],
    });
  }
  return [...byAcc.values()].sort((a, b) => (b.filed_date ?? '').localeCompare(a.filed_date ?? '') || b.accession.localeCompare(a.accession));
}

const cache = new Map<string, { at: number; incidents: Incident[]; truncated: boolean }>();

export async function allIncidents(services: Services, q: { dateFrom?: string; dateTo?: string; ciks: string[] }) {
  // Keyed by the upstream too: two apps in one process (tests) over different full-text services never share answers.
  const key = JSON.stringify([services.settings.SEC_EFTS_BASE_URL, q]);
  const hit = cache.get(key);
  if (hit && services.now().getTime() - hit.at < TTL_MS) return hit;
  const walk = await walkEfts(
    services.http,
    services.settings.SEC_EFTS_BASE_URL,
    {
      q: `"Item ${CYBER_ITEM}"`,
      forms: ['8-K'],
      items: [CYBER_ITEM],
      dateFrom: q.dateFrom,
      dateTo: q.dateTo,
      ciks: q.ciks,
    },
    {
      offset: 0,
      limit: Number.MAX_SAFE_INTEGER,
      keep: reportsCyberIncident,
      maxPages: MAX_PAGES,
      fetch: { ...LIVE_FETCH, timeoutMs: Math.min(services.settings.HTTP_TIMEOUT_MS, 20_000) },
    },
  );
  const entry = { at: services.now().getTime(), incidents: incidentsOf(walk.hits), truncated: !walk.exhausted };
  cache.set(key, entry);
  return entry;
}
