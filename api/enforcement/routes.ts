import { z } from 'zod';
import { defineList, f } from '../core/endpoint.ts';
import { p, rangeIssue } from '../core/params.ts';
import { enforcementTable } from '../../schemas/tables/enforcement.ts';
import { Amount, DocumentLink, amount, dateParams, day, json, str } from './shared.ts';

const ACTION_KINDS = ['administrative_proceeding', 'litigation_release', 'aaer'] as const;

const EnforcementRecord = z.object({
  id: z.string().describe('`<agency>:<release_number>`.'),
  agency: z.string().describe('Publishing agency (SEC).'),
  action_kind: z.enum(ACTION_KINDS),
  release_number: z.string().describe('e.g. `34-100512`, `LR-26040`.'),
  other_release_numbers: z.array(z.string()).describe('The same order under other Acts, AAER numbers.'),
  case_number: z.string().nullable().describe('Administrative file number `3-NNNNN` or the court civil action number.'),
  date: z.string().describe('Release date, YYYY-MM-DD.'),
  title: z.string().nullable().describe('Respondents line as published.'),
  respondents: z.array(z.string()),
  summary: z.string().nullable(),
  penalty: Amount.describe('Civil penalties stated in the text (sum of distinct amounts); null when none stated.'),
  disgorgement: Amount.describe('Disgorgement stated in the text; null when none stated.'),
  documents: z.array(DocumentLink),
  source: z.string(),
  source_url: z.string().nullable().describe('The release page (else the listing page it was read from).'),
});

export default [
  defineList({
    path: '/v1/enforcement',
    summary: 'Enforcement actions (administrative proceedings and litigation releases)',
    description: 'One record per release; newest first. Penalty and disgorgement amounts are parsed from the release text, with the phrase kept.',
    tag: 'Enforcement',
    source: 'sec_enforcement',
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
    orderBy: [{ column: 'action_date', dir: 'desc' }, { column: 'action_id', dir: 'asc' }],
    record: EnforcementRecord,
    toRecord: (r) => ({
      id: String(r.action_id),
      agency: String(r.agency),
      action_kind: r.action_kind as (typeof ACTION_KINDS)[number],
      release_number: String(r.release_number),
      other_release_numbers: json<string[]>(r.other_release_numbers, []),
      case_number: str(r.case_number),
      date: day(r.action_date)!,
      title: str(r.title),
      respondents: json<string[]>(r.respondents, []),
      summary: str(r.summary),
      penalty: amount(r.penalty_usd, r.penalty_text),
      disgorgement: amount(r.disgorgement_usd, r.disgorgement_text),
      documents: json<{ title: string; url: string }[]>(r.documents, []),
      source: 'sec_enforcement',
      source_url: str(r.detail_url) ?? str(r.source_url),
    }),
  }),
];
