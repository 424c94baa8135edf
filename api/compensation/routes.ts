import { defineList, f } from '../core/endpoint.ts';
import { p, rangeIssue } from '../core/params.ts';
import { bool, int, isoDate, str } from '../core/records.ts';
import { Compensation } from '../../schemas/records/compensation.ts';
import { proxyCompensationTable } from '../../schemas/tables/proxy.ts';
import { minConfidenceParam, personNameFilter } from '../board/common.ts';
import { SOURCE } from '../../schemas/sources.ts';

export default [
  defineList({
    path: '/v1/compensation',
    summary: 'Executive (and director) compensation from DEF 14A compensation tables',
    tag: 'Board and compensation',
    source: SOURCE.sec_proxy,
    table: proxyCompensationTable,
    params: {
      issuer_name: p.str({ maxLength: 200, description: 'Substring of the issuer name.' }),
      filer_cik: p.cik(),
      executive_name: p.str({ maxLength: 200, description: 'Person name, matched on normalized first/last name.' }),
      fiscal_year: p.int({ ge: 1990, le: 2100 }),
      min_fiscal_year: p.int({ ge: 1990, le: 2100 }),
      max_fiscal_year: p.int({ ge: 1990, le: 2100 }),
      min_total_usd: p.int({ ge: 0 }),
      accession_number: p.accession(),
      min_confidence: minConfidenceParam(),
    },
    filters: {
      issuer_name: f.contains('issuer_name'),
      filer_cik: f.eq('filer_cik'),
      executive_name: personNameFilter(),
      fiscal_year: f.eq('fiscal_year'),
      min_fiscal_year: f.gte('fiscal_year'),
      max_fiscal_year: f.lte('fiscal_year'),
      min_total_usd: f.gte('total_usd'),
      accession_number: f.eq('accession_number'),
      min_confidence: f.gte('confidence'),
    },
    validate: (v) => [rangeIssue(v, 'min_fiscal_year', 'max_fiscal_year')],
    orderBy: [
      { column: 'filer_cik', dir: 'asc' },
      { column: 'fiscal_year', dir: 'desc' },
      { column: 'record_id', dir: 'asc' },
    ],
    record: Compensation,
    toRecord: (r) => ({
      filer_cik: String(r.filer_cik),
      issuer_name: str(r.issuer_name),
      accession_number: str(r.accession_number),
      filed_date: isoDate(r.filed_date),
      proxy_fiscal_year: Number(r.proxy_fiscal_year),
      table_kind: r.table_kind as 'summary_compensation' | 'director_compensation' | 'fund_compensation',
      executive_name: String(r.executive_name),
      executive_name_normalized: String(r.name_key),
      title: str(r.title),
      is_director: Boolean(r.is_director),
      fiscal_year: Number(r.fiscal_year),
      salary_usd: int(r.salary_usd),
      bonus_usd: int(r.bonus_usd),
      stock_awards_usd: int(r.stock_awards_usd),
      option_awards_usd: int(r.option_awards_usd),
      non_equity_incentive_usd: int(r.non_equity_incentive_usd),
      pension_deferred_usd: int(r.pension_deferred_usd),
      other_usd: int(r.other_usd),
      fees_cash_usd: int(r.fees_cash_usd),
      aggregate_comp_usd: int(r.aggregate_comp_usd),
      total_usd: int(r.total_usd),
      total_checks: bool(r.total_checks),
      pvp_verified: Boolean(r.pvp_verified),
      pvp_compensation_actually_paid_usd: int(r.pvp_compensation_actually_paid_usd),
      confidence: Number(r.confidence),
      source: SOURCE.sec_proxy,
      source_url: str(r.source_url),
    }),
  }),
];
