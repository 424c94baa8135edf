import { datePartitions, defineList, f } from '../core/endpoint.ts';
import { p, rangeIssue } from '../core/params.ts';
import { isoDate, json, str } from '../core/records.ts';
import { ACTION_KINDS, EnforcementRecord } from '../../schemas/records/enforcement.ts';
import { enforcementTable } from '../../schemas/tables/enforcement.ts';
import { amount, dateParams } from './shared.ts';
import { SOURCE } from '../../schemas/sources.ts';
import { yearOf } from '../../ingest/sources/sec-web/index.ts';

export default [
  defineList({
    path: '/v1/enforcement',
    summary: 'Enforcement actions (administrative proceedings and litigation releases)',
    description: 'One record per release; newest first. Penalty and disgorgement amounts are parsed from the release text, with the phrase kept.',
    tag: 'Enforcement',
    source: SOURCE.sec_enforcement,
    table: enforcementTable,
    params: {
      agency: p.str({ description: 'Publishing agency, case-insensitive (SEC).', maxLength: 20, example: 'SEC' }),
      respondent: p.str({ description: 'Substring of a respondent name (case-insensitive).', maxLength: 200 }),
      action_kind: p.enum(ACTION_KINDS, { lower: true, description: 'administrative_proceeding, litigation_release or aaer.' }),
      case_number: p.str({ description: 'Administrative file number (`3-21456`) or civil action number, exact (case-insensitive).', maxLength: 60 }),
      ...dateParams('release date'),
      penalty_min: p.float({ ge: 0, description: 'Minimum civil penalty stated, USD.' }),
    },
    filters: {
      agency: f.ieq('agency'),
      respondent: f.contains('title', 'respondents'),
      action_kind: f.eq('action_kind'),
      case_number: f.ieq('case_number'),
      date_from: f.gte('action_date'),
      date_to: f.lte('action_date'),
      penalty_min: f.gte('penalty_usd'),
    },
    validate: (v) => [rangeIssue(v, 'date_from', 'date_to')],
    // Newest year first: the year is the date's (the ingest derives it), so the order is the same as by date alone,
    // and a page reads the newest years until it is full instead of every year's file (docs/layouts.md).
    orderBy: [
      { column: 'action_year', dir: 'desc' },
      { column: 'action_date', dir: 'desc' },
      { column: 'action_id', dir: 'asc' },
    ],
    walk: { windows: true, bounds: (v) => datePartitions(yearOf, v.date_from, v.date_to) },
    record: EnforcementRecord,
    toRecord: (r) => ({
      id: String(r.action_id),
      agency: String(r.agency),
      action_kind: r.action_kind as (typeof ACTION_KINDS)[number],
      release_number: String(r.release_number),
      other_release_numbers: json<string[]>(r.other_release_numbers, []),
      case_number: str(r.case_number),
      date: isoDate(r.action_date)!,
      title: str(r.title),
      respondents: json<string[]>(r.respondents, []),
      summary: str(r.summary),
      penalty: amount(r.penalty_usd, r.penalty_text),
      disgorgement: amount(r.disgorgement_usd, r.disgorgement_text),
      documents: json<{ title: string; url: string }[]>(r.documents, []),
      source: SOURCE.sec_enforcement,
      source_url: str(r.detail_url) ?? str(r.source_url),
    }),
  }),
];
