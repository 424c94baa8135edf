import { padCik } from '../../ingest/sources/common/index.ts';
import { EFTS_WINDOW, toFullTextHit, walkEfts, type EftsHit } from '../../ingest/sources/edgar/index.ts';
import { fullTextRecord } from '../../schemas/records/full-text.ts';
import { defineRoute } from '../core/endpoint.ts';
import { ValidationError, LIVE_UPSTREAM_STATUSES } from '../core/errors.ts';
import { p, pagingParams, rangeIssue } from '../core/params.ts';
import { cikListParam, LIVE_FETCH } from './live-params.ts';
import { readOffsetCursor, writeOffsetCursor } from './offset-cursor.ts';
import { SOURCE as LABEL } from '../../schemas/sources.ts';

/** `/v1/full-text`: the regulator's full-text search proxied live, paged by a signed upstream offset. */

const SOURCE = LABEL.sec_efts;
const PATH = '/v1/full-text';

export default defineRoute({
  method: 'get',
  path: PATH,
  summary: 'Full-text search over filing bodies (live)',
  description:
    "The regulator's full-text search (filings since 2001), fetched live. `q`: keywords or a quoted exact " +
    'phrase. One record per matching document (a filing whose main document and exhibits match appears ' +
    'once per document). The upstream serves at most 10,000 hits per query: narrow the date range to reach ' +
    'more.',
  tag: 'Full-text search and feeds',
  source: SOURCE,
  params: {
    q: p.str({ required: true, maxLength: 500, description: 'Keywords, or a quoted exact phrase ("material weakness").' }),
    forms: p.csv({
      upper: true,
      item: /^[A-Z0-9][A-Z0-9 \-/]{0,19}$/,
      itemText: 'form type such as 10-K, 8-K/A, SC 13G',
      description: 'Comma-separated form types (10-K,8-K).',
    }),
    date_from: p.date({ description: 'Filed on or after (YYYY-MM-DD).' }),
    date_to: p.date({ description: 'Filed on or before (YYYY-MM-DD).' }),
    ciks: cikListParam,
    ...pagingParams(10),
  },
  validate: (v) => [rangeIssue(v, 'date_from', 'date_to')],
  record: fullTextRecord,
  cost: { min: 3, max: 5 },
  otherStatuses: LIVE_UPSTREAM_STATUSES,
  async handler({ query, services, setCost }) {
    if (!query.q!.replace(/"/g, '').trim()) {
      throw new ValidationError([{ loc: ['query', 'q'], msg: 'Field required', type: 'missing', input: query.q }]);
    }
    const offset = readOffsetCursor(services, PATH, query);
    const ciks = query.ciks?.map((c) => padCik(c)!) ?? [];
    const keep = ciks.length ? (h: EftsHit) => (h._source.ciks ?? []).some((c) => ciks.includes(padCik(c)!)) : undefined;
    const walk = await walkEfts(
      services.http,
      services.settings.SEC_EFTS_BASE_URL,
      {
        q: query.q!,
        forms: query.forms,
        dateFrom: query.date_from,
        dateTo: query.date_to,
        ciks,
      },
      { offset, limit: query.limit!, keep, fetch: { ...LIVE_FETCH, timeoutMs: Math.min(services.settings.HTTP_TIMEOUT_MS, 20_000) } },
    );
    setCost(walk.pages > 1 ? 5 : 3);
    const hasMore = !walk.exhausted;
    const warnings = [];
    if (walk.total?.relation === 'gte' && walk.next >= EFTS_WINDOW) {
      warnings.push({ code: 'upstream_window', message: 'The regulator serves at most 10,000 hits per query; narrow date_from/date_to to reach the rest.' });
    }
    const data = walk.hits.map((h) => toFullTextHit(h, services.settings.SEC_BASE_URL));
    if (!data.length) warnings.push({ code: 'empty_result', message: 'No records match the query.' });
    return {
      data,
      page: { limit: query.limit!, next_cursor: hasMore ? writeOffsetCursor(services, PATH, query, walk.next) : null, has_more: hasMore },
      as_of: services.now().toISOString(),
      source: SOURCE,
      query_echo: {
        q: query.q,
        forms: query.forms ?? null,
        date_from: query.date_from ?? null,
        date_to: query.date_to ?? null,
        ciks: ciks.length ? ciks : null,
        limit: query.limit,
        upstream_total: walk.total?.value ?? null,
        upstream_total_relation: walk.total?.relation ?? null,
      },
      warnings,
    };
  },
});
