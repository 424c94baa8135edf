import { defineList, f } from '../core/endpoint.ts';
import { p } from '../core/params.ts';
import { bool, int, isoDate, jsonList, str } from '../core/records.ts';
import { BoardMember } from '../../schemas/records/board.ts';
import { boardMembersTable } from '../../schemas/tables/board.ts';
import { EIN_PATTERN, minConfidenceParam, personNameFilter } from './common.ts';
import { SOURCE } from '../../schemas/sources.ts';

export default [
  defineList({
    path: '/v1/board',
    summary: 'Board members, officers and key employees from company proxies and Form 990 returns',
    description:
      'One row per person per proxy statement (directors) or per 990 return (everyone listed in Part VII / ' +
      'the EZ and PF officer lists). `person_name` matches across sources: case, punctuation, suffixes and ' +
      'middle initials are ignored, a first-name initial matches the full first name.',
    tag: 'Board and compensation',
    source: SOURCE['sec_proxy+irs_990'],
    table: boardMembersTable,
    params: {
      source_type: p.enum(['sec_proxy', 'irs_990'] as const, { lower: true, description: '`sec_proxy` or `irs_990`.' }),
      sec_cik: p.cik({ description: 'Issuer CIK (proxies).' }),
      ein: p.str({ pattern: EIN_PATTERN, patternText: '^\\d{2}-?\\d{7}$', description: 'Employer identification number, 9 digits (dash optional).' }),
      organization_name: p.str({ maxLength: 200, description: 'Substring of the company or organization name.' }),
      person_name: p.str({
        maxLength: 200,
        description: 'A person\'s name in any case/order form ("Parker A. Weil", "WEIL, PARKER"); a single word matches last names.',
      }),
      role: p.enum(['director', 'officer', 'key_employee', 'highest_compensated', 'former', 'institutional_trustee', 'listed'] as const, {
        lower: true,
        description: 'Rows having this role (among all roles of the row).',
      }),
      min_confidence: minConfidenceParam(),
    },
    filters: {
      source_type: f.eq('source_type'),
      sec_cik: f.eq('sec_cik'),
      ein: f.eqNormalized('ein', (v) => v.replace(/-/g, '')),
      organization_name: f.contains('organization_name'),
      person_name: personNameFilter(),
      role: f.sql(['roles'], (v: string, b) => `list_contains(string_split("roles", ','), ${b.param(v)})`),
      min_confidence: f.gte('confidence'),
    },
    orderBy: [
      { column: 'name_last', dir: 'asc' },
      { column: 'org_id', dir: 'asc' },
      { column: 'record_id', dir: 'asc' },
    ],
    record: BoardMember,
    toRecord: (r) => ({
      source_type: r.source_type as 'sec_proxy' | 'irs_990',
      sec_cik: str(r.sec_cik),
      ein: str(r.ein),
      organization_name: String(r.organization_name),
      person_name: String(r.person_name),
      person_name_normalized: String(r.name_key),
      title: str(r.title),
      role: String(r.role),
      roles: String(r.roles).split(',').filter(Boolean),
      is_director: bool(r.is_director),
      is_officer: bool(r.is_officer),
      is_key_employee: bool(r.is_key_employee),
      is_highest_compensated: bool(r.is_highest_compensated),
      is_former: bool(r.is_former),
      is_institutional_trustee: bool(r.is_institutional_trustee),
      is_independent: bool(r.is_independent),
      age: int(r.age),
      director_since: int(r.director_since),
      average_hours_per_week: int(r.average_hours_per_week),
      average_hours_related_orgs: int(r.average_hours_related_orgs),
      reportable_comp_usd: int(r.reportable_comp_usd),
      reportable_comp_related_usd: int(r.reportable_comp_related_usd),
      other_comp_usd: int(r.other_comp_usd),
      benefit_program_usd: int(r.benefit_program_usd),
      expense_allowance_usd: int(r.expense_allowance_usd),
      fiscal_year: Number(r.fiscal_year),
      period_end: isoDate(r.period_end),
      form_type: str(r.form_type),
      accession_number: str(r.accession_number),
      object_id: str(r.object_id),
      filed_date: isoDate(r.filed_date),
      confidence: Number(r.confidence),
      found_in: jsonList(r.found_in),
      source: String(r.source_type),
      source_url: str(r.source_url),
    }),
  }),
];
