import { padCik } from '../../ingest/sources/common/index.ts';
import { excerptOf, extractItem, primaryDocument } from '../../ingest/sources/edgar/index.ts';
import { cyberIncidentRecord } from '../../schemas/records/full-text.ts';
import { defineRoute } from '../core/endpoint.ts';
import { LIVE_UPSTREAM_STATUSES } from '../core/errors.ts';
import { p, pagingParams, rangeIssue } from '../core/params.ts';
import { cikListParam } from '../full-text/live-params.ts';
import { readOffsetCursor, writeOffsetCursor } from '../full-text/offset-cursor.ts';
import { allIncidents, CYBER_ITEM, MAX_PAGES } from './incidents.ts';
import { SOURCE as LABEL } from '../../schemas/sources.ts';

const SOURCE = LABEL.sec_8k_item_1_05;
const PATH = '/v1/cyber-incidents';

export default defineRoute({
  method: 'get',
  path: PATH,
  summary: 'Material cybersecurity incidents (8-K Item 1.05), live',
  description:
    '8-K and 8-K/A filings that report Item 1.05 (filings that merely mention it and voluntary Item 8.01 ' +
    "notes are excluded), newest first, with an excerpt of the item. Sourced live from the regulator's " +
    'full-text index and the filings themselves.',
  tag: 'Full-text search and feeds',
  source: SOURCE,
  params: {
    date_from: p.date({ description: 'Filed on or after (YYYY-MM-DD).' }),
    date_to: p.date({ description: 'Filed on or before (YYYY-MM-DD).' }),
    ciks: cikListParam,
    ...pagingParams(25),
  },
  validate: (v) => [rangeIssue(v, 'date_from', 'date_to')],
  record: cyberIncidentRecord,
  cost: { min: 5, max: 20 },
  otherStatuses: LIVE_UPSTREAM_STATUSES,
  async handler({ query, services, setCost }) {
    const offset = readOffsetCursor(services, PATH, query);
    const ciks = query.ciks?.map((c) => padCik(c)!) ?? [];
    const all = await allIncidents(services, { dateFrom: query.date_from, dateTo: query.date_to, ciks });
    const page = all.incidents.slice(offset, offset + query.limit!);
    const warnings: { code: string; message: string }[] = [];
    let fetched = 0;
    const store = services.filings;
    const data = await Promise.all(
      page.map(async (inc) => {
        const cik = String(Number(inc.ciks[0] ?? inc.accession.slice(0, 10)));
        const indexUrl =
          `${services.settings.SEC_BASE_URL.replace(/\/$/, '')}/Archives/edgar/data/${cik}/` + `${inc.accession.replace(/-/g, '')}/${inc.accession}-index.htm`;
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
      }),
    );
    setCost(Math.min(20, 5 + fetched));
    const next = offset + page.length;
    const hasMore = next < all.incidents.length;
    if (all.truncated)
      warnings.push({ code: 'upstream_truncated', message: `Only the first ${MAX_PAGES * 100} upstream hits were read; narrow date_from/date_to.` });
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
