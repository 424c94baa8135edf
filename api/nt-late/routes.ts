import { datePartitions, defineList, f } from '../core/endpoint.ts';
import { p, rangeIssue } from '../core/params.ts';
import { str } from '../core/records.ts';
import { NtRecord } from '../../schemas/records/nt-late.ts';
import { ntLateTable } from '../../schemas/tables/nt-late.ts';
import { dateFrom, dateTo } from '../entities/filters.ts';
import { SOURCE } from '../../schemas/sources.ts';
import { quarterOf } from '../../ingest/sources/common/index.ts';

const FORM = /^[A-Za-z0-9][A-Za-z0-9 \-/.]{0,29}$/;

export default [
  defineList({
    path: '/v1/nt-late',
    summary: 'Late-filing notices (NT forms)',
    description: 'Form 12b-25 notifications of late filing taken from the filing index, newest first.',
    tag: 'Filings',
    source: SOURCE.sec_edgar_index,
    table: ntLateTable,
    params: {
      filer_cik: p.cik({ description: 'Filer CIK, with or without leading zeros.' }),
      filer_name: p.str({ maxLength: 200, description: 'Substring of the filer name.' }),
      late_for_form: p.str({ pattern: FORM, upper: true, description: 'The late report form: 10-K, 10-Q, 20-F, 11-K, N-CSR, …' }),
      form_type: p.str({ pattern: FORM, upper: true, description: 'Exact NT form type, e.g. NT 10-K or NT 10-Q/A.' }),
      filing_date_from: p.date({ description: 'Filed on or after (YYYY-MM-DD).' }),
      filing_date_to: p.date({ description: 'Filed on or before (YYYY-MM-DD).' }),
    },
    filters: {
      filer_cik: f.eq('filer_cik'),
      filer_name: f.contains('filer_name'),
      late_for_form: f.eq('late_for_form'),
      form_type: f.eq('form_type'),
      filing_date_from: dateFrom('filing_date', 'filed_quarter'),
      filing_date_to: dateTo('filing_date', 'filed_quarter'),
    },
    validate: (v) => [rangeIssue(v, 'filing_date_from', 'filing_date_to')],
    // Newest quarter first: the quarter is the filing date's (the ingest derives it), so the order is the same as by
    // date alone, and a page reads the newest quarters until it is full instead of every quarter's file (docs/layouts.md).
    orderBy: [
      { column: 'filed_quarter', dir: 'desc' },
      { column: 'filing_date', dir: 'desc' },
      { column: 'accession', dir: 'desc' },
      { column: 'filer_cik', dir: 'asc' },
    ],
    walk: { windows: true, bounds: (v) => datePartitions(quarterOf, v.filing_date_from, v.filing_date_to) },
    record: NtRecord,
    toRecord: (r) => ({
      accession: String(r.accession),
      filer_cik: String(r.filer_cik),
      filer_name: String(r.filer_name),
      form_type: String(r.form_type),
      late_for_form: String(r.late_for_form),
      is_amendment: Boolean(r.is_amendment),
      filing_date: String(r.filing_date),
      report_date: str(r.report_date),
      source: SOURCE.sec_edgar_index,
      source_url: String(r.index_url),
    }),
  }),
];
