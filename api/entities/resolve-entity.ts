import { ResolvedEntityRecord } from '../../schemas/records/entity-resolution.ts';
import { SOURCE as LABEL } from '../../schemas/sources.ts';
import { defineRoute } from '../core/endpoint.ts';
import { entityUnresolved } from '../core/errors.ts';
import { p } from '../core/params.ts';
import { bool, str } from '../core/records.ts';
import { resolveEntity, suggestEntity, unresolvedMessage } from './resolve.ts';
import { toRecord } from './routes.ts';

const SOURCE = LABEL.sec_submissions;

export default defineRoute({
  method: 'get',
  path: '/v1/entities/{identifier}',
  summary: 'Resolve an identifier to the canonical entity',
  description:
    'A ticker (current or former; a moved ticker resolves by `date`), a CIK with or without leading zeros, ' +
    'or a company name (current or former). Unresolvable: 404 `entity_unresolved` with a suggestion when a ' +
    'close match exists.',
  tag: 'Entities',
  source: SOURCE,
  pathParams: { identifier: p.str({ required: true, maxLength: 200 }) },
  params: { date: p.date({ description: 'Resolve as of this day (YYYY-MM-DD): which company held the ticker then.' }) },
  record: ResolvedEntityRecord,
  cost: 2,
  errors: ['entity_unresolved'],
  async handler({ path, query, services }) {
    const id = String(path.identifier);
    const hit = await resolveEntity(services, id, { date: query.date });
    if (!hit) {
      const s = await suggestEntity(services, id);
      throw entityUnresolved(unresolvedMessage(id, s), s ? (s.ticker ?? s.cik) : undefined);
    }
    const [rows, tickers, names] = await Promise.all([
      services.lake.query('SELECT * FROM entities WHERE cik = $1 LIMIT 1', [hit.cik]),
      services.lake.query('SELECT ticker, exchange, valid_from, valid_to FROM entity_tickers WHERE cik = $1 ORDER BY valid_from, ticker', [hit.cik]),
      services.lake.query(
        'SELECT name, valid_from, valid_to, is_current FROM entity_names WHERE cik = $1 ORDER BY is_current DESC, valid_from DESC NULLS LAST',
        [hit.cik],
      ),
    ]);
    const base = rows[0]
      ? toRecord(rows[0])
      : {
          ...toRecord({
            cik: hit.cik,
            name: hit.name,
            ticker: hit.ticker,
            detail_source: 'filings',
            updated_date: '',
            source_url: `https://www.sec.gov/cgi-bin/browse-edgar?action=getcompany&CIK=${hit.cik}`,
          }),
        };
    const record = {
      ...base,
      ticker: hit.ticker ?? base.ticker,
      match_confidence: hit.confidence,
      ticker_history: tickers.map((t) => ({
        ticker: String(t.ticker),
        exchange: str(t.exchange),
        valid_from: String(t.valid_from),
        valid_to: str(t.valid_to),
      })),
      name_history: names.map((n) => ({
        name: String(n.name),
        valid_from: str(n.valid_from),
        valid_to: str(n.valid_to),
        is_current: bool(n.is_current) ?? false,
      })),
    };
    return {
      data: [record],
      page: { limit: 1, next_cursor: null, has_more: false },
      source: SOURCE,
      query_echo: { identifier: id, ...(query.date ? { date: query.date } : {}) },
    };
  },
});
