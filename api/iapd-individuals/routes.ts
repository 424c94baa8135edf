import type { z } from 'zod';
import { defineList, f } from '../core/endpoint.ts';
import { crdParam, p, rangeIssue, withoutLeadingZeros } from '../core/params.ts';
import { isoDate, jsonList } from '../core/records.ts';
import { type Employment, Individual } from '../../schemas/records/iapd-individuals.ts';
import { iapdIndividualsTable } from '../../schemas/tables/iapd-individuals.ts';
import { SOURCE } from '../../schemas/sources.ts';

const scope = (what: string) =>
  p.str({
    upper: true,
    pattern: /^[A-Z]{1,20}$/,
    patternText: '^[A-Za-z]{1,20}$',
    description: `${what} scope, case-insensitive (ACTIVE, INACTIVE, NOTINSCOPE).`,
  });

const list = defineList({
  path: '/v1/iapd-individuals',
  summary: 'Investment adviser representatives (IAPD individual feed)',
  description: 'Newest feed snapshot, ordered by last name, first name, then CRD. Current employments are listed with their registrations.',
  tag: 'Advisers',
  source: SOURCE.iapd_individuals,
  table: iapdIndividualsTable,
  params: {
    name: p.str({ maxLength: 200, description: 'Case-insensitive substring of the full name.' }),
    last_name: p.str({ maxLength: 100, description: 'Last name, case-insensitive exact.' }),
    first_name: p.str({ maxLength: 100, description: 'First name, case-insensitive exact.' }),
    ind_source_id: crdParam({ description: 'Individual CRD.' }),
    ia_scope: scope('Investment adviser'),
    bc_scope: scope('Broker'),
    has_disclosure: p.int({ ge: 0, le: 1, description: '1: with disclosures; 0: without.' }),
    firm_count_min: p.int({ ge: 0, description: 'Minimum number of current employments.' }),
    firm_count_max: p.int({ ge: 0, description: 'Maximum number of current employments.' }),
    cal_date_from: p.date({ description: 'Industry start on or after (YYYY-MM-DD).' }),
    cal_date_to: p.date({ description: 'Industry start on or before (YYYY-MM-DD).' }),
    firm_crd: crdParam({ description: 'CRD of a current employer (join to /v1/advisers).' }),
  },
  filters: {
    name: f.contains('full_name'),
    last_name: f.ieq('last_name'),
    first_name: f.ieq('first_name'),
    ind_source_id: f.eqNormalized('ind_source_id', withoutLeadingZeros),
    ia_scope: f.eq('ia_scope'),
    bc_scope: f.eq('bc_scope'),
    has_disclosure: f.eq('has_disclosure'),
    firm_count_min: f.gte('firm_count'),
    firm_count_max: f.lte('firm_count'),
    cal_date_from: f.gte('cal_date'),
    cal_date_to: f.lte('cal_date'),
    // firm_crds is a JSON array of CRD strings: the quoted CRD matches whole elements only.
    firm_crd: f.sql(['firm_crds'], (v: string, b) => `"firm_crds" LIKE ${b.param(`%"${withoutLeadingZeros(v)}"%`)}`),
  },
  validate: (v) => [rangeIssue(v, 'firm_count_min', 'firm_count_max'), rangeIssue(v, 'cal_date_from', 'cal_date_to')],
  scope: 'latest_partition',
  orderBy: [
    { column: 'sort_name', dir: 'asc' },
    { column: 'ind_int', dir: 'asc' },
  ],
  record: Individual,
  toRecord: (r) => ({
    ind_source_id: String(r.ind_source_id),
    first_name: (r.first_name as string) ?? null,
    middle_name: (r.middle_name as string) ?? null,
    last_name: String(r.last_name),
    suffix: (r.suffix as string) ?? null,
    full_name: String(r.full_name),
    other_names: jsonList<string>(r.other_names),
    ia_scope: String(r.ia_scope),
    bc_scope: String(r.bc_scope),
    has_disclosure: Number(r.has_disclosure),
    disclosure_types: jsonList<string>(r.disclosure_types),
    firm_count: Number(r.firm_count),
    current_employments: jsonList<z.infer<typeof Employment>>(r.current_employments),
    exams: jsonList<{ code: string | null; name: string | null; date: string | null }>(r.exams),
    designations: jsonList<string>(r.designations),
    cal_date: isoDate(r.cal_date),
    snapshot_date: isoDate(r.snapshot_date)!,
    source: SOURCE.iapd_individuals,
    source_url: String(r.source_url),
  }),
});

export default [list];
