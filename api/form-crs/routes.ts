import { datePartitions, defineList, f } from '../core/endpoint.ts';
import { crdParam, crossFieldIssue, p, withoutLeadingZeros } from '../core/params.ts';
import { isoDate, num, str } from '../core/records.ts';
import { FormCrs } from '../../schemas/records/form-crs.ts';
import { formCrsTable } from '../../schemas/tables/form-crs.ts';
import { SOURCE } from '../../schemas/sources.ts';

const list = defineList({
  path: '/v1/form-crs',
  summary: 'Form CRS relationship-summary filings',
  description: 'Newest filings first. `filed_after` and `filed_before` are exclusive bounds (YYYY-MM-DD).',
  tag: 'Advisers',
  source: SOURCE.iapd_form_crs,
  table: formCrsTable,
  params: {
    firm_crd: crdParam({ description: 'Firm CRD.' }),
    filer_cik: p.cik({ description: 'Filer CIK, with or without leading zeros.' }),
    filer_name: p.str({ maxLength: 200, description: 'Case-insensitive substring of the filer name.' }),
    form_sub_type: p.str({ maxLength: 40, description: 'Sub-type, case-insensitive exact (Initial, Amendment …).' }),
    disciplinary_history_flag: p.int({ ge: 0, le: 1, description: '1: reports legal or disciplinary history; 0: does not.' }),
    filed_after: p.date({ description: 'Filed strictly after this date.' }),
    filed_before: p.date({ description: 'Filed strictly before this date.' }),
    min_professionals: p.int({ ge: 0, description: 'Minimum number of financial professionals.' }),
  },
  filters: {
    firm_crd: f.eqNormalized('firm_crd', withoutLeadingZeros),
    filer_cik: f.eq('filer_cik'),
    filer_name: f.contains('filer_name'),
    form_sub_type: f.ieq('form_sub_type'),
    disciplinary_history_flag: f.eq('disciplinary_history_flag'),
    filed_after: f.sql(['filed_date'], (v: string, b) => `"filed_date" > ${b.param(v)}::DATE`),
    filed_before: f.sql(['filed_date'], (v: string, b) => `"filed_date" < ${b.param(v)}::DATE`),
    min_professionals: f.gte('professionals'),
  },
  validate: (v) => [
    v.filed_after && v.filed_before && v.filed_after >= v.filed_before
      ? crossFieldIssue('filed_before', 'Value error, filed_before must be later than filed_after', v.filed_before, { filed_after: v.filed_after })
      : null,
  ],
  scope: 'all',
  // Newest month first: the month is the filing date's (the ingest derives it), so the order is the same as by date
  // alone, and a page reads the newest months until it is full instead of every month's file (docs/layouts.md).
  orderBy: [
    { column: 'filed_month', dir: 'desc' },
    { column: 'filed_date', dir: 'desc' },
    { column: 'filing_key', dir: 'asc' },
  ],
  walk: { windows: true, bounds: (v) => datePartitions((d) => d.slice(0, 7), v.filed_after, v.filed_before) },
  record: FormCrs,
  toRecord: (r) => ({
    filing_id: String(r.filing_key),
    firm_crd: str(r.firm_crd),
    filer_cik: str(r.filer_cik),
    filer_name: String(r.filer_name),
    sec_number: str(r.sec_number),
    form_sub_type: str(r.form_sub_type),
    filed_date: isoDate(r.filed_date)!,
    disciplinary_history_flag: num(r.disciplinary_history_flag),
    professionals: num(r.professionals),
    document_url: str(r.document_url),
    source: SOURCE.iapd_form_crs,
    source_url: String(r.source_url),
  }),
});

export default [list];
