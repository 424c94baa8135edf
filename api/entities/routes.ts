import type { z } from 'zod';
import { defineList, f } from '../core/endpoint.ts';
import { p } from '../core/params.ts';
import { json, str } from '../core/records.ts';
import { EntityRecord } from '../../schemas/records/entities.ts';
import { entitiesTable } from '../../schemas/tables/entities.ts';
import { byCikBucket, SIC_PATTERN, STATE_PATTERN, TICKER_PATTERN, tickerFilter } from './filters.ts';
import { SOURCE as LABEL } from '../../schemas/sources.ts';

const SOURCE = LABEL.sec_submissions;

/** A directory row as the API's entity record (also the base of `/v1/entities/{identifier}`). */
export function toRecord(r: Record<string, unknown>): z.infer<typeof EntityRecord> {
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
      ticker: p.str({
        pattern: TICKER_PATTERN,
        patternText: TICKER_PATTERN.source,
        upper: true,
        description: 'Ticker, current or former (BRK.B and BRK-B both work).',
      }),
      q: p.str({ maxLength: 200, description: 'Substring of the current or a former name.' }),
      sic: p.str({ pattern: SIC_PATTERN, description: '4-digit SIC code.' }),
      entity_type: p.str({ lower: true, maxLength: 40, description: 'operating, other, investment, individual, …' }),
      state_of_incorp: p.str({ pattern: STATE_PATTERN, upper: true, description: 'Two-character state or EDGAR country code.' }),
    },
    filters: {
      cik: f.eq('cik'),
      ticker: tickerFilter(byCikBucket),
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
];
