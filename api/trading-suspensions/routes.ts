import { datePartitions, defineList, f } from '../core/endpoint.ts';
import { p, rangeIssue } from '../core/params.ts';
import { isoDate, json, str } from '../core/records.ts';
import { SuspensionRecord } from '../../schemas/records/trading-suspensions.ts';
import { tradingSuspensionsTable } from '../../schemas/tables/trading-suspensions.ts';
import { dateParams, releaseNumberFilter, releaseNumberParam } from '../enforcement/shared.ts';
import { SOURCE } from '../../schemas/sources.ts';
import { yearOf } from '../../ingest/sources/sec-web/index.ts';

export default [
  defineList({
    path: '/v1/trading-suspensions',
    summary: 'Trading suspension orders',
    tag: 'Enforcement',
    source: SOURCE.sec_trading_suspensions,
    table: tradingSuspensionsTable,
    params: {
      company: p.str({ description: 'Substring of the company name (case-insensitive).', maxLength: 200 }),
      release_number: releaseNumberParam('34', 'Exchange Act release number: `34-100512` or `100512`.'),
      ...dateParams('order date'),
    },
    filters: {
      company: f.contains('company', 'companies'),
      release_number: releaseNumberFilter('release_number', '34'),
      date_from: f.gte('suspension_date'),
      date_to: f.lte('suspension_date'),
    },
    validate: (v) => [rangeIssue(v, 'date_from', 'date_to')],
    // Newest year first: the year is the date's (the ingest derives it), so the order is the same as by date alone,
    // and a page reads the newest years until it is full instead of every year's file (docs/layouts.md).
    orderBy: [
      { column: 'suspension_year', dir: 'desc' },
      { column: 'suspension_date', dir: 'desc' },
      { column: 'release_number', dir: 'asc' },
    ],
    walk: { windows: true, bounds: (v) => datePartitions(yearOf, v.date_from, v.date_to) },
    record: SuspensionRecord,
    toRecord: (r) => ({
      release_number: String(r.release_number),
      date: isoDate(r.suspension_date)!,
      company: str(r.company),
      companies: json<string[]>(r.companies, []),
      tickers: json<string[]>(r.tickers, []),
      file_number: str(r.file_number),
      other_release_numbers: json<string[]>(r.other_release_numbers, []),
      summary: str(r.summary),
      documents: json<{ title: string; url: string }[]>(r.documents, []),
      source: SOURCE.sec_trading_suspensions,
      source_url: str(r.detail_url) ?? str(r.source_url),
    }),
  }),
];
