import { defineList, f } from '../core/endpoint.ts';
import { p, rangeIssue } from '../core/params.ts';
import { int, isoDate, json, str } from '../core/records.ts';
import { WhistleblowerRecord } from '../../schemas/records/whistleblower.ts';
import { whistleblowerTable } from '../../schemas/tables/whistleblower.ts';
import { releaseNumberFilter, releaseNumberParam } from '../enforcement/shared.ts';
import { SOURCE } from '../../schemas/sources.ts';

export default [
  defineList({
    path: '/v1/whistleblower',
    summary: 'Whistleblower award final orders',
    tag: 'Enforcement',
    source: SOURCE.sec_whistleblower,
    table: whistleblowerTable,
    params: {
      fiscal_year: p.int({ ge: 2011, le: 2100, description: 'U.S. federal fiscal year (FY2024 = 2023-10-01..2024-09-30); the program began in FY2011.' }),
      min_award_amount_usd: p.int({ ge: 0, description: 'Minimum stated award, USD.' }),
      max_award_amount_usd: p.int({ ge: 0, description: 'Maximum stated award, USD.' }),
      award_order_no: releaseNumberParam('34', 'Release number of the order: `34-101543` or `101543`.'),
      public_summary: p.str({ description: 'Substring of the public summary (case-insensitive).', maxLength: 200 }),
    },
    filters: {
      fiscal_year: f.eq('fiscal_year'),
      min_award_amount_usd: f.gte('award_amount_usd'),
      max_award_amount_usd: f.lte('award_amount_usd'),
      award_order_no: releaseNumberFilter('award_order_no', '34'),
      public_summary: f.contains('public_summary'),
    },
    validate: (v) => [rangeIssue(v, 'min_award_amount_usd', 'max_award_amount_usd')],
    // Newest fiscal year first: the fiscal year is the order date's (the ingest derives it; it grows with the date), so
    // the order is the same as by date alone, and a page reads the newest years until it is full (docs/layouts.md).
    orderBy: [
      { column: 'fiscal_year', dir: 'desc' },
      { column: 'order_date', dir: 'desc' },
      { column: 'award_order_no', dir: 'asc' },
    ],
    walk: { windows: true, bounds: (v) => (v.fiscal_year === undefined ? {} : { from: String(v.fiscal_year), to: String(v.fiscal_year) }) },
    record: WhistleblowerRecord,
    toRecord: (r) => ({
      award_order_no: String(r.award_order_no),
      date: isoDate(r.order_date)!,
      fiscal_year: Number(r.fiscal_year),
      title: str(r.title),
      decision: str(r.decision),
      award_amount_usd: int(r.award_amount_usd),
      award_amount_text: str(r.award_amount_text),
      public_summary: str(r.public_summary),
      other_release_numbers: json<string[]>(r.other_release_numbers, []),
      documents: json<{ title: string; url: string }[]>(r.documents, []),
      source: SOURCE.sec_whistleblower,
      source_url: str(r.detail_url) ?? str(r.source_url),
    }),
  }),
];
