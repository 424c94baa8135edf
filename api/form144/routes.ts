import { z } from 'zod';
import { defineList, f } from '../core/endpoint.ts';
import { p, rangeIssue } from '../core/params.ts';
import { form144Table } from '../../schemas/tables/form144.ts';
import { normalizeBrokerName } from '../../ingest/sources/edgar/index.ts';
import { isoDate, jsonArray, num, str } from '../insider-ownership-common/records.ts';

const SOURCE = 'sec_form_144';

const Form144Record = z.object({
  accession: z.string(),
  row_seq: z.number().int(),
  submission_type: z.string().nullable().describe('144 or 144/A.'),
  filed_date: z.string(),
  issuer: z.object({ cik: z.string(), name: z.string().nullable(), sec_file_number: z.string().nullable() }),
  person_name: z.string().nullable().describe('Person for whose account the securities are to be sold.'),
  relationships: z.array(z.string()),
  class_of_securities: z.string().nullable(),
  broker_name: z.string().nullable(),
  broker_normalized_name: z.string().nullable(),
  units_to_be_sold: z.number().nullable().describe('Proposed quantity, not an executed sale.'),
  aggregate_market_value: z.number().nullable().describe('USD.'),
  units_outstanding: z.number().nullable(),
  approx_sale_date: z.string().nullable(),
  exchange: z.string().nullable(),
  notice_date: z.string().nullable(),
  plan_adoption_dates: z.array(z.string()).describe('Rule 10b5-1 plan adoption dates.'),
  securities_to_be_sold: z.array(z.record(z.string(), z.unknown())),
  sold_past_3_months: z.array(z.record(z.string(), z.unknown())),
  remarks: z.string().nullable(),
  source: z.string(),
  source_url: z.string().nullable(),
});

function toRecord(r: Record<string, unknown>): z.infer<typeof Form144Record> {
  return {
    accession: String(r.accession), row_seq: Number(r.row_seq), submission_type: str(r.submission_type), filed_date: isoDate(r.filed_date)!,
    issuer: { cik: String(r.issuer_cik), name: str(r.issuer_name), sec_file_number: str(r.sec_file_number) },
    person_name: str(r.person_name), relationships: jsonArray<string>(r.relationships), class_of_securities: str(r.class_of_securities),
    broker_name: str(r.broker_name), broker_normalized_name: str(r.broker_normalized_name), units_to_be_sold: num(r.units_to_be_sold),
    aggregate_market_value: num(r.aggregate_market_value), units_outstanding: num(r.units_outstanding), approx_sale_date: isoDate(r.approx_sale_date),
    exchange: str(r.exchange), notice_date: isoDate(r.notice_date), plan_adoption_dates: jsonArray<string>(r.plan_adoption_dates),
    securities_to_be_sold: jsonArray(r.securities_to_be_sold), sold_past_3_months: jsonArray(r.sold_past_3_months), remarks: str(r.remarks),
    source: SOURCE, source_url: str(r.source_url),
  };
}

const list = defineList({
  path: '/v1/insider/form144',
  summary: 'Form 144 notices of proposed sales',
  description: 'One record per securities line (class and broker) of a Form 144 notice, newest filing first.',
  tag: 'Insider transactions',
  source: SOURCE,
  table: form144Table,
  params: {
    issuer_cik: p.cik({ description: 'Issuer CIK.' }),
    broker_normalized_name: p.str({ maxLength: 200, description: 'Broker name; normalized the same way as the stored key (case, punctuation, LLC/Inc/& Co folded), then matched as a substring.', example: 'Goldman Sachs & Co. LLC' }),
    class_of_securities: p.str({ maxLength: 100, description: 'Case-insensitive substring of the class title.' }),
    sale_date_from: p.date({ description: 'Earliest approximate sale date.' }),
    sale_date_to: p.date({ description: 'Latest approximate sale date.' }),
    min_market_value_usd: p.int({ ge: 0, description: 'Minimum aggregate market value, USD.' }),
    min_shares: p.int({ ge: 0, description: 'Minimum units to be sold.' }),
  },
  filters: {
    issuer_cik: f.eq('issuer_cik'),
    broker_normalized_name: f.sql((v, b) => `contains("broker_normalized_name", ${b.param(normalizeBrokerName(v) ?? v.toLowerCase())})`),
    class_of_securities: f.contains('class_of_securities'),
    sale_date_from: f.gte('approx_sale_date'),
    sale_date_to: f.lte('approx_sale_date'),
    min_market_value_usd: f.gte('aggregate_market_value'),
    min_shares: f.gte('units_to_be_sold'),
  },
  validate: (v) => [rangeIssue(v, 'sale_date_from', 'sale_date_to')],
  orderBy: [{ column: 'filed_date', dir: 'desc' }, { column: 'accession', dir: 'desc' }, { column: 'row_seq', dir: 'asc' }],
  record: Form144Record,
  toRecord,
  cost: 5,
});

export default [list];
