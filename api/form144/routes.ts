import type { z } from 'zod';
import { defineList, f } from '../core/endpoint.ts';
import { p, rangeIssue } from '../core/params.ts';
import { isoDate, jsonList, num, str } from '../core/records.ts';
import { Form144Record } from '../../schemas/records/form144.ts';
import { form144Table } from '../../schemas/tables/form144.ts';
import { normalizeBrokerName } from '../../ingest/sources/edgar/index.ts';
import { SOURCE } from '../../schemas/sources.ts';

function toRecord(r: Record<string, unknown>): z.infer<typeof Form144Record> {
  return {
    accession: String(r.accession),
    row_seq: Number(r.row_seq),
    submission_type: str(r.submission_type),
    filed_date: isoDate(r.filed_date)!,
    issuer: { cik: String(r.issuer_cik), name: str(r.issuer_name), sec_file_number: str(r.sec_file_number) },
    person_name: str(r.person_name),
    relationships: jsonList<string>(r.relationships),
    class_of_securities: str(r.class_of_securities),
    broker_name: str(r.broker_name),
    broker_normalized_name: str(r.broker_normalized_name),
    broker_address: {
      street1: str(r.broker_street1),
      street2: str(r.broker_street2),
      city: str(r.broker_city),
      state_or_country: str(r.broker_state_or_country),
      zip_code: str(r.broker_zip_code),
    },
    units_to_be_sold: num(r.units_to_be_sold),
    aggregate_market_value: num(r.aggregate_market_value),
    units_outstanding: num(r.units_outstanding),
    approx_sale_date: isoDate(r.approx_sale_date),
    exchange: str(r.exchange),
    notice_date: isoDate(r.notice_date),
    plan_adoption_dates: jsonList<string>(r.plan_adoption_dates),
    securities_to_be_sold: jsonList(r.securities_to_be_sold),
    sold_past_3_months: jsonList(r.sold_past_3_months),
    remarks: str(r.remarks),
    signature: str(r.signature),
    source: SOURCE.sec_form_144,
    source_url: str(r.source_url),
  };
}

const list = defineList({
  path: '/v1/insider/form144',
  summary: 'Form 144 notices of proposed sales',
  description: 'One record per securities line (class and broker) of a Form 144 notice, newest filing first.',
  tag: 'Insider transactions',
  source: SOURCE.sec_form_144,
  table: form144Table,
  params: {
    issuer_cik: p.cik({ description: 'Issuer CIK.' }),
    broker_normalized_name: p.str({
      maxLength: 200,
      description: 'Broker name; normalized the same way as the stored key (case, punctuation, LLC/Inc/& Co folded), then matched as a substring.',
      example: 'Goldman Sachs & Co. LLC',
    }),
    class_of_securities: p.str({ maxLength: 100, description: 'Case-insensitive substring of the class title.' }),
    sale_date_from: p.date({ description: 'Earliest approximate sale date.' }),
    sale_date_to: p.date({ description: 'Latest approximate sale date.' }),
    min_market_value_usd: p.int({ ge: 0, description: 'Minimum aggregate market value, USD.' }),
    min_shares: p.int({ ge: 0, description: 'Minimum units to be sold.' }),
  },
  filters: {
    issuer_cik: f.eq('issuer_cik'),
    broker_normalized_name: f.sql(
      ['broker_normalized_name'],
      (v: string, b) => `contains("broker_normalized_name", ${b.param(normalizeBrokerName(v) ?? v.toLowerCase())})`,
    ),
    class_of_securities: f.contains('class_of_securities'),
    sale_date_from: f.gte('approx_sale_date'),
    sale_date_to: f.lte('approx_sale_date'),
    min_market_value_usd: f.gte('aggregate_market_value'),
    min_shares: f.gte('units_to_be_sold'),
  },
  validate: (v) => [rangeIssue(v, 'sale_date_from', 'sale_date_to')],
  // Newest quarter first: the quarter is the filing date's (the ingest derives it), so the order is the same as by
  // date alone, and a page reads the newest quarters until it is full instead of every quarter's file (docs/layouts.md).
  orderBy: [
    { column: 'filed_quarter', dir: 'desc' },
    { column: 'filed_date', dir: 'desc' },
    { column: 'accession', dir: 'desc' },
    { column: 'row_seq', dir: 'asc' },
  ],
  walk: { windows: true },
  record: Form144Record,
  toRecord,
});

export default [list];
