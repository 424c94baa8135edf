import { z } from 'zod';
import { defineList, f } from '../core/endpoint.ts';
import { p, rangeIssue } from '../core/params.ts';
import { ntLateTable } from '../../schemas/tables/nt-late.ts';
import { dateFrom, dateTo, str } from '../entities/records.ts';

const SOURCE = 'sec_edgar_index';
const FORM = /^[A-Za-z0-9][A-Za-z0-9 \-/.]{0,29}$/;

const NtRecord = z.object({
  accession: z.string(),
  filer_cik: z.string(),
  filer_name: z.string(),
  form_type: z.string().describe('NT 10-K, NT 10-Q/A, …'),
  late_for_form: z.string().describe('The report announced as late (10-K, 10-Q, 20-F, 11-K, N-CSR, N-CEN …).'),
  is_amendment: z.boolean(),
  filing_date: z.string(),
  report_date: z.string().nullable().describe('Period of the late report, when the submissions data gives it.'),
  source: z.string(),
  source_url: z.string(),
});

export default [
  defineList({
    path: '/v1/nt-late',
    summary: 'Late-filing notices (NT forms)',
    description: 'Form 12b-25 notifications of late filing taken from the filing index, newest first.',
    tag: 'Filings',
    source: SOURCE,
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
      filing_date_from: f.sql(dateFrom('filing_date', 'filed_quarter')),
      filing_date_to: f.sql(dateTo('filing_date', 'filed_quarter')),
    },
    validate: (v) => [rangeIssue(v, 'filing_date_from', 'filing_date_to')],
    orderBy: [{ column: 'filing_date', dir: 'desc' }, { column: 'accession', dir: 'desc' }, { column: 'filer_cik', dir: 'asc' }],
    record: NtRecord,
    toRecord: (r) => ({
      accession: String(r.accession), filer_cik: String(r.filer_cik), filer_name: String(r.filer_name), form_type: String(r.form_type),
      late_for_form: String(r.late_for_form), is_amendment: Boolean(r.is_amendment), filing_date: String(r.filing_date),
      report_date: str(r.report_date), source: SOURCE, source_url: String(r.index_url),
    }),
    cost: 5,
  }),
];
