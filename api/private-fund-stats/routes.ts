import { defineList, f } from '../core/endpoint.ts';
import { p, rangeIssue } from '../core/params.ts';
import { isoDate, num, str } from '../core/records.ts';
import { StatRecord } from '../../schemas/records/private-fund-stats.ts';
import { privateFundStatsTable } from '../../schemas/tables/private-fund-stats.ts';
import { SOURCE } from '../../schemas/sources.ts';

const list = defineList({
  path: '/v1/private-fund-stats',
  summary: 'SEC Private Funds Statistics, long format (one cell per record)',
  description: 'Newest quarter first, then in table order (tab, row, column). Labels are matched case-insensitively and exactly.',
  tag: 'Advisers',
  source: SOURCE.sec_private_fund_stats,
  table: privateFundStatsTable,
  params: {
    quarter_end_date: p.date({ description: 'Quarter end, YYYY-MM-DD (e.g. 2025-12-31).' }),
    tab_name: p.str({ maxLength: 100, description: 'Worksheet name, e.g. "Table 1".' }),
    row_key: p.str({ maxLength: 200, description: 'Row label.' }),
    metric_key: p.str({ maxLength: 200, description: 'Column label.' }),
    min_value: p.float({ description: 'Minimum numeric value.' }),
    max_value: p.float({ description: 'Maximum numeric value; must be >= min_value.' }),
  },
  filters: {
    quarter_end_date: f.sql(['quarter_end_date'], (v: string, b) => `"quarter_end_date" = ${b.param(v)}::DATE`),
    tab_name: f.ieq('tab_name'),
    row_key: f.ieq('row_key'),
    metric_key: f.ieq('metric_key'),
    min_value: f.gte('value'),
    max_value: f.lte('value'),
  },
  validate: (v) => [rangeIssue(v, 'min_value', 'max_value')],
  scope: 'all',
  orderBy: [
    { column: 'quarter_end_date', dir: 'desc' },
    { column: 'tab_name', dir: 'asc' },
    { column: 'row_order', dir: 'asc' },
    { column: 'col_order', dir: 'asc' },
  ],
  record: StatRecord,
  toRecord: (r) => ({
    quarter_end_date: isoDate(r.quarter_end_date)!,
    tab_name: String(r.tab_name),
    table_title: str(r.table_title),
    row_key: String(r.row_key),
    metric_key: String(r.metric_key),
    value: num(r.value),
    value_raw: str(r.value_raw),
    source: SOURCE.sec_private_fund_stats,
    source_url: String(r.source_url),
  }),
});

export default [list];
