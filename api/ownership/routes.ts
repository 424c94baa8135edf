import type { z } from 'zod';
import { datePartitions, defineList, f } from '../core/endpoint.ts';
import { p, rangeIssue } from '../core/params.ts';
import { int, isoDate, jsonList, num, str } from '../core/records.ts';
import { OwnershipRecord } from '../../schemas/records/ownership.ts';
import { beneficialOwnershipTable } from '../../schemas/tables/ownership.ts';
import { SOURCE } from '../../schemas/sources.ts';
import { quarterOf } from '../../ingest/sources/common/index.ts';

function toRecord(r: Record<string, unknown>): z.infer<typeof OwnershipRecord> {
  return {
    accession: String(r.accession),
    row_seq: Number(r.row_seq),
    form_type: str(r.form_type),
    form_class: str(r.form_class),
    is_amendment: Boolean(r.is_amendment),
    amendment_no: int(r.amendment_no),
    previous_accession: str(r.previous_accession),
    structured: Boolean(r.structured),
    filed_date: isoDate(r.filed_date)!,
    event_date: isoDate(r.event_date),
    filer: { cik: str(r.filer_cik), name: str(r.filer_name) },
    subject: { cik: str(r.subject_cik), name: str(r.issuer_name), cusip: str(r.cusip), class_title: str(r.securities_class_title) },
    person: {
      cik: str(r.person_cik),
      name: str(r.person_name),
      citizenship: str(r.citizenship),
      type_of_reporting_person: str(r.type_of_reporting_person),
      member_of_group: str(r.member_of_group),
      fund_type: str(r.fund_type),
    },
    sole_voting_power: num(r.sole_voting_power),
    shared_voting_power: num(r.shared_voting_power),
    sole_dispositive_power: num(r.sole_dispositive_power),
    shared_dispositive_power: num(r.shared_dispositive_power),
    aggregate_amount: num(r.aggregate_amount),
    percent_of_class: num(r.percent_of_class),
    rule_designations: jsonList<string>(r.rule_designations),
    group_members: jsonList<string>(r.group_members),
    source: SOURCE.sec_schedule_13dg,
    source_url: str(r.source_url),
  };
}

const list = defineList({
  path: '/v1/ownership',
  summary: 'Beneficial ownership (Schedules 13D and 13G)',
  description:
    'One record per reporting person per Schedule 13D/13G filing, newest first: shares, voting and ' +
    'dispositive power, percent of class, event date. Structured XML since 2024-12-18; older SC 13D/G ' +
    'values are read from the cover page text (best-effort, `structured: false`).',
  tag: 'Beneficial ownership',
  source: SOURCE.sec_schedule_13dg,
  table: beneficialOwnershipTable,
  params: {
    cik_filer: p.cik({ description: 'CIK of the filer or of any reporting person.' }),
    cik_subject: p.cik({ description: 'CIK of the subject company (issuer).' }),
    issuer: p.str({ maxLength: 200, description: 'Case-insensitive substring of the issuer name.' }),
    person: p.str({ maxLength: 200, description: 'Case-insensitive substring of the reporting person name.' }),
    role: p.str({
      upper: true,
      pattern: /^[A-Z]{2}$/,
      patternText: '^[A-Za-z]{2}$',
      description: 'Type of reporting person code (IN, CO, PN, IA, HC, OO, BD, BK, IC, EP …).',
      example: 'IA',
    }),
    form_type: p.str({
      upper: true,
      maxLength: 20,
      description: 'Form type as filed, case-insensitive (SCHEDULE 13D, SCHEDULE 13G/A, SC 13D, SC 13G/A).',
      example: 'SCHEDULE 13G/A',
    }),
    form_class: p.enum(['13D', '13D/A', '13G', '13G/A'] as const, {
      upper: true,
      description: '13D vs 13G, original vs amendment; both the structured and the legacy families.',
    }),
    filed_from: p.date({ description: 'Earliest filing date.' }),
    filed_to: p.date({ description: 'Latest filing date.' }),
  },
  filters: {
    cik_filer: f.sql(['filer_cik', 'person_cik'], (v: string, b) => {
      const ph = b.param(v);
      return `("filer_cik" = ${ph} OR "person_cik" = ${ph})`;
    }),
    cik_subject: f.eq('subject_cik'),
    issuer: f.contains('issuer_name'),
    person: f.contains('person_name'),
    role: f.sql(['type_of_reporting_person'], (v: string, b) => `list_contains(string_split(coalesce("type_of_reporting_person", ''), ','), ${b.param(v)})`),
    form_type: f.sql(['form_type'], (v: string, b) => `upper("form_type") = ${b.param(v.replace(/\s+/g, ' '))}`),
    form_class: f.eq('form_class'),
    filed_from: f.gte('filed_date'),
    filed_to: f.lte('filed_date'),
  },
  validate: (v) => [rangeIssue(v, 'filed_from', 'filed_to')],
  // Newest quarter first: the quarter is the filing date's (the ingest derives it), so the order is the same as by
  // date alone, and a page reads the newest quarters until it is full instead of every quarter's file (docs/layouts.md).
  orderBy: [
    { column: 'filed_quarter', dir: 'desc' },
    { column: 'filed_date', dir: 'desc' },
    { column: 'accession', dir: 'desc' },
    { column: 'row_seq', dir: 'asc' },
  ],
  walk: { windows: true, bounds: (v) => datePartitions(quarterOf, v.filed_from, v.filed_to) },
  record: OwnershipRecord,
  toRecord,
});

export default [list];
