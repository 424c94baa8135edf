import { z } from 'zod';
import { defineList, defineRoute, f } from '../core/endpoint.ts';
import { entityUnresolved } from '../core/errors.ts';
import { p } from '../core/params.ts';
import { bool, json, str } from '../core/records.ts';
import { EntityRecord } from '../../schemas/records/entities.ts';
import { entitiesTable } from '../../schemas/tables/entities.ts';
import { SIC_PATTERN, STATE_PATTERN, TICKER_PATTERN, tickerFilter } from './filters.ts';
import { resolveEntity, suggestEntity, unresolvedMessage } from './resolve.ts';
import { SOURCE as LABEL } from '../../schemas/sources.ts';

const SOURCE = LABEL.sec_submissions;

function toRecord(r: Record<string, unknown>): z.infer<typeof EntityRecord> {
  return {
    cik: String(r.cik),
    name: String(r.name),
    ticker: str(r.ticker),
    tickers: json<string[]>(r.tickers, []),
    exchanges: json<(string | null)[]>(r.exchanges, []),
    sic: str(r.sic),
    sic_description: str(r.sic_description),
    state_of_incorp: str(r.state_of_incorp),
    state_of_incorp_description: str(r.state_of_incorp_description),
    fiscal_year_end: str(r.fiscal_year_end),
    entity_type: str(r.entity_type),
    category: str(r.category),
    ein: str(r.ein),
    phone: str(r.phone),
    website: str(r.website),
    business_address: json(r.business_address, null),
    mailing_address: json(r.mailing_address, null),
    former_names: json(r.former_names, []),
    detail_source: String(r.detail_source),
    updated_date: String(r.updated_date),
    source: SOURCE,
    source_url: String(r.source_url),
  };
}

const ResolvedRecord = EntityRecord.extend({
  match_confidence: z.number().describe('1.0 exact CIK/current ticker/current name; 0.95 ticker history or former name; 0.85 name without corporate suffixes; lower when ambiguous.'),
  ticker_history: z.array(z.object({ ticker: z.string(), exchange: z.string().nullable(), valid_from: z.string(), valid_to: z.string().nullable().describe('Exclusive; null while listed.') })),
  name_history: z.array(z.object({ name: z.string(), valid_from: z.string().nullable(), valid_to: z.string().nullable(), is_current: z.boolean() })),
});

export default [
  defineList({
    path: '/v1/entities',
    summary: 'Entity directory',
    description: 'Companies, funds and individuals known to the filing system, one per CIK, with tickers, SIC, state of incorporation and former names.',
    tag: 'Entities',
    source: SOURCE,
    table: entitiesTable,
    params: {
      cik: p.cik({ description: 'CIK with or without leading zeros.' }),
      ticker: p.str({ pattern: TICKER_PATTERN, patternText: TICKER_PATTERN.source, upper: true, description: 'Ticker, current or former (BRK.B and BRK-B both work).' }),
      q: p.str({ maxLength: 200, description: 'Substring of the current or a former name.' }),
      sic: p.str({ pattern: SIC_PATTERN, description: '4-digit SIC code.' }),
      entity_type: p.str({ lower: true, maxLength: 40, description: 'operating, other, investment, individual, …' }),
      state_of_incorp: p.str({ pattern: STATE_PATTERN, upper: true, description: 'Two-character state or EDGAR country code.' }),
    },
    filters: {
      cik: f.eq('cik'),
      ticker: tickerFilter(),
      // Former names are in entity_names (through the CIK).
      q: f.sql(['name', 'cik'], (v: string, b) => {
        const like = `%${v.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        const ph = b.param(like);
        return `("name" ILIKE ${ph} ESCAPE '\\' OR cik IN (SELECT cik FROM entity_names WHERE name ILIKE ${ph} ESCAPE '\\'))`;
      }),
      sic: f.sql(['sic'], (v: string, b) => `sic = ${b.param(v.padStart(4, '0'))}`),
      entity_type: f.ieq('entity_type'),
      state_of_incorp: f.eq('state_of_incorp'),
    },
    orderBy: [{ column: 'cik', dir: 'asc' }],
    record: EntityRecord,
    toRecord,
  }),

  defineRoute({
    method: 'get',
    path: '/v1/entities/{identifier}',
    summary: 'Resolve an identifier to the canonical entity',
    description: 'A ticker (current or former; a moved ticker resolves by `date`), a CIK with or without leading zeros, or a company name (current or former). Unresolvable: 404 `entity_unresolved` with a suggestion when a close match exists.',
    tag: 'Entities',
    source: SOURCE,
    pathParams: { identifier: p.str({ required: true, maxLength: 200 }) },
    params: { date: p.date({ description: 'Resolve as of this day (YYYY-MM-DD): which company held the ticker then.' }) },
    record: ResolvedRecord,
    cost: 2,
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
        services.lake.query('SELECT name, valid_from, valid_to, is_current FROM entity_names WHERE cik = $1 ORDER BY is_current DESC, valid_from DESC NULLS LAST', [hit.cik]),
      ]);
      const base = rows[0]
        ? toRecord(rows[0])
        : { ...toRecord({ cik: hit.cik, name: hit.name, ticker: hit.ticker, detail_source: 'filings', updated_date: '', source_url: `https://www.sec.gov/cgi-bin/browse-edgar?action=getcompany&CIK=${hit.cik}` }) };
      const record = {
        ...base,
        ticker: hit.ticker ?? base.ticker,
        match_confidence: hit.confidence,
        ticker_history: tickers.map((t) => ({ ticker: String(t.ticker), exchange: str(t.exchange), valid_from: String(t.valid_from), valid_to: str(t.valid_to) })),
        name_history: names.map((n) => ({ name: String(n.name), valid_from: str(n.valid_from), valid_to: str(n.valid_to), is_current: bool(n.is_current) ?? false })),
      };
      return { data: [record], page: { limit: 1, next_cursor: null, has_more: false }, source: SOURCE, query_echo: { identifier: id, ...(query.date ? { date: query.date } : {}) } };
    },
  }),
];
