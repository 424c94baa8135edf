import { z } from 'zod';
import { defineList, f } from '../core/endpoint.ts';
import { p, rangeIssue } from '../core/params.ts';
import { iapdIndividualsTable } from '../../schemas/tables/iapd-individuals.ts';
import { CRD_PATTERN, isoDate, jsonList } from '../adv-common/records.ts';

const SOURCE = 'iapd_individuals';

const Employment = z.object({
  firm_name: z.string().nullable(),
  firm_crd: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  country: z.string().nullable(),
  registrations: z.array(z.object({ authority: z.string().nullable(), category: z.string().nullable(), status: z.string().nullable(), date: z.string().nullable() })),
});

const Individual = z.object({
  ind_source_id: z.string().describe('Individual CRD.'),
  first_name: z.string().nullable(),
  middle_name: z.string().nullable(),
  last_name: z.string(),
  suffix: z.string().nullable(),
  full_name: z.string(),
  other_names: z.array(z.string()),
  ia_scope: z.string().describe('ACTIVE | INACTIVE (active investment adviser representative registration).'),
  bc_scope: z.string().describe('ACTIVE | NOTINSCOPE (current broker-dealer registration category).'),
  has_disclosure: z.number().int().describe('1 when any disclosure (DRP) flag is set.'),
  disclosure_types: z.array(z.string()),
  firm_count: z.number().int(),
  current_employments: z.array(Employment),
  exams: z.array(z.object({ code: z.string().nullable(), name: z.string().nullable(), date: z.string().nullable() })),
  designations: z.array(z.string()),
  cal_date: z.string().nullable().describe('Industry start: earliest registration date in the record.'),
  snapshot_date: z.string(),
  source: z.string(),
  source_url: z.string(),
});

const scope = (what: string) => p.str({ upper: true, pattern: /^[A-Z]{1,20}$/, patternText: '^[A-Za-z]{1,20}$', description: `${what} scope, case-insensitive (ACTIVE, INACTIVE, NOTINSCOPE).` });

const list = defineList({
  path: '/v1/iapd-individuals',
  summary: 'Investment adviser representatives (IAPD individual feed)',
  description: 'Newest feed snapshot, ordered by last name, first name, then CRD. Current employments are listed with their registrations.',
  tag: 'Advisers',
  source: SOURCE,
  table: iapdIndividualsTable,
  params: {
    name: p.str({ maxLength: 200, description: 'Case-insensitive substring of the full name.' }),
    last_name: p.str({ maxLength: 100, description: 'Last name, case-insensitive exact.' }),
    first_name: p.str({ maxLength: 100, description: 'First name, case-insensitive exact.' }),
    ind_source_id: p.str({ pattern: CRD_PATTERN, patternText: '^\\d{1,10}$', description: 'Individual CRD.' }),
    ia_scope: scope('Investment adviser'),
    bc_scope: scope('Broker'),
    has_disclosure: p.int({ ge: 0, le: 1, description: '1: with disclosures; 0: without.' }),
    firm_count_min: p.int({ ge: 0, description: 'Minimum number of current employments.' }),
    firm_count_max: p.int({ ge: 0, description: 'Maximum number of current employments.' }),
    cal_date_from: p.date({ description: 'Industry start on or after (YYYY-MM-DD).' }),
    cal_date_to: p.date({ description: 'Industry start on or before (YYYY-MM-DD).' }),
    firm_crd: p.str({ pattern: CRD_PATTERN, patternText: '^\\d{1,10}$', description: 'CRD of a current employer (join to /v1/advisers).' }),
  },
  filters: {
    name: f.contains('full_name'),
    last_name: f.ieq('last_name'),
    first_name: f.ieq('first_name'),
    ind_source_id: (v, b) => `"ind_source_id" = ${b.param(v.replace(/^0+(?=\d)/, ''))}`,
    ia_scope: f.eq('ia_scope'),
    bc_scope: f.eq('bc_scope'),
    has_disclosure: f.eq('has_disclosure'),
    firm_count_min: f.gte('firm_count'),
    firm_count_max: f.lte('firm_count'),
    cal_date_from: f.gte('cal_date'),
    cal_date_to: f.lte('cal_date'),
    firm_crd: (v, b) => `"firm_crds" LIKE ${b.param(`%"${v.replace(/^0+(?=\d)/, '')}"%`)}`,
  },
  validate: (v) => [rangeIssue(v, 'firm_count_min', 'firm_count_max'), rangeIssue(v, 'cal_date_from', 'cal_date_to')],
  scope: 'latest_partition',
  orderBy: [{ column: 'sort_name', dir: 'asc' }, { column: 'ind_int', dir: 'asc' }],
  record: Individual,
  toRecord: (r) => ({
    ind_source_id: String(r.ind_source_id), first_name: (r.first_name as string) ?? null, middle_name: (r.middle_name as string) ?? null,
    last_name: String(r.last_name), suffix: (r.suffix as string) ?? null, full_name: String(r.full_name), other_names: jsonList<string>(r.other_names),
    ia_scope: String(r.ia_scope), bc_scope: String(r.bc_scope), has_disclosure: Number(r.has_disclosure), disclosure_types: jsonList<string>(r.disclosure_types),
    firm_count: Number(r.firm_count), current_employments: jsonList<z.infer<typeof Employment>>(r.current_employments), exams: jsonList<{ code: string | null; name: string | null; date: string | null }>(r.exams), designations: jsonList<string>(r.designations),
    cal_date: isoDate(r.cal_date), snapshot_date: isoDate(r.snapshot_date)!, source: SOURCE, source_url: String(r.source_url),
  }),
  cost: 5,
});

export default [list];
