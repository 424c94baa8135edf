import { z } from 'zod';
import { defineList, f } from '../core/endpoint.ts';
import { crossFieldIssue, p } from '../core/params.ts';
import { formCrsTable } from '../../schemas/tables/form-crs.ts';
import { CRD_PATTERN, isoDate, num, str } from '../adv-common/records.ts';

const SOURCE = 'iapd_form_crs';

const FormCrs = z.object({
  filing_id: z.string().describe('Published filing/document id (or CRD|date|sub-type when none is published).'),
  firm_crd: z.string().nullable(),
  filer_cik: z.string().nullable(),
  filer_name: z.string(),
  sec_number: z.string().nullable(),
  form_sub_type: z.string().nullable(),
  filed_date: z.string(),
  disciplinary_history_flag: z.number().int().nullable().describe('1 = Yes to legal or disciplinary history.'),
  professionals: z.number().int().nullable().describe('Number of financial professionals, where published.'),
  document_url: z.string().nullable(),
  source: z.string(),
  source_url: z.string(),
});

const list = defineList({
  path: '/v1/form-crs',
  summary: 'Form CRS relationship-summary filings',
  description: 'Newest filings first. `filed_after` and `filed_before` are exclusive bounds (YYYY-MM-DD).',
  tag: 'Advisers',
  source: SOURCE,
  table: formCrsTable,
  params: {
    firm_crd: p.str({ pattern: CRD_PATTERN, patternText: '^\\d{1,10}$', description: 'Firm CRD.' }),
    filer_cik: p.cik({ description: 'Filer CIK, with or without leading zeros.' }),
    filer_name: p.str({ maxLength: 200, description: 'Case-insensitive substring of the filer name.' }),
    form_sub_type: p.str({ maxLength: 40, description: 'Sub-type, case-insensitive exact (Initial, Amendment …).' }),
    disciplinary_history_flag: p.int({ ge: 0, le: 1, description: '1: reports legal or disciplinary history; 0: does not.' }),
    filed_after: p.date({ description: 'Filed strictly after this date.' }),
    filed_before: p.date({ description: 'Filed strictly before this date.' }),
    min_professionals: p.int({ ge: 0, description: 'Minimum number of financial professionals.' }),
  },
  filters: {
    firm_crd: (v, b) => `"firm_crd" = ${b.param(v.replace(/^0+(?=\d)/, ''))}`,
    filer_cik: f.eq('filer_cik'),
    filer_name: f.contains('filer_name'),
    form_sub_type: f.ieq('form_sub_type'),
    disciplinary_history_flag: f.eq('disciplinary_history_flag'),
    filed_after: (v, b) => `"filed_date" > ${b.param(v)}::DATE`,
    filed_before: (v, b) => `"filed_date" < ${b.param(v)}::DATE`,
    min_professionals: f.gte('professionals'),
  },
  validate: (v) => [
    v.filed_after && v.filed_before && v.filed_after >= v.filed_before
      ? crossFieldIssue('filed_before', 'Value error, filed_before must be later than filed_after', v.filed_before, { filed_after: v.filed_after })
      : null,
  ],
  scope: 'all',
  orderBy: [{ column: 'filed_date', dir: 'desc' }, { column: 'filing_key', dir: 'asc' }],
  record: FormCrs,
  toRecord: (r) => ({
    filing_id: String(r.filing_key), firm_crd: str(r.firm_crd), filer_cik: str(r.filer_cik), filer_name: String(r.filer_name),
    sec_number: str(r.sec_number), form_sub_type: str(r.form_sub_type), filed_date: isoDate(r.filed_date)!,
    disciplinary_history_flag: num(r.disciplinary_history_flag), professionals: num(r.professionals), document_url: str(r.document_url),
    source: SOURCE, source_url: String(r.source_url),
  }),
  cost: 5,
});

export default [list];
