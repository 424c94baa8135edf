import { datePartitions, defineList, f } from '../core/endpoint.ts';
import { p, rangeIssue } from '../core/params.ts';
import { isoDate, json, str } from '../core/records.ts';
import { LitigationRecord } from '../../schemas/records/litigation.ts';
import { litigationTable } from '../../schemas/tables/litigation.ts';
import { ACTION_TYPES, yearOf } from '../../ingest/sources/sec-web/index.ts';
import { amount, dateParams, releaseNumberFilter, releaseNumberParam } from '../enforcement/shared.ts';
import { SOURCE } from '../../schemas/sources.ts';

export default [
  defineList({
    path: '/v1/litigation',
    summary: 'Litigation releases (civil actions in federal court)',
    tag: 'Enforcement',
    source: SOURCE.sec_litigation_releases,
    table: litigationTable,
    params: {
      defendant: p.str({ description: 'Substring of a defendant name (case-insensitive).', maxLength: 200 }),
      title: p.str({ description: 'Substring of the release title (case-insensitive).', maxLength: 200 }),
      action_type: p.enum(ACTION_TYPES, { lower: true, description: 'What the release reports (derived from its text).' }),
      release_number: releaseNumberParam('LR', 'Litigation release number: `LR-26040`, `LR26040` or `26040`.'),
      ...dateParams('release date'),
    },
    filters: {
      defendant: f.contains('defendants'),
      title: f.contains('title'),
      action_type: f.eq('action_type'),
      release_number: releaseNumberFilter('release_number', 'LR'),
      date_from: f.gte('release_date'),
      date_to: f.lte('release_date'),
    },
    validate: (v) => [rangeIssue(v, 'date_from', 'date_to')],
    // Newest year first: the year is the date's (the ingest derives it), so the order is the same as by date alone,
    // and a page reads the newest years until it is full instead of every year's file (docs/layouts.md).
    orderBy: [
      { column: 'release_year', dir: 'desc' },
      { column: 'release_date', dir: 'desc' },
      { column: 'release_number', dir: 'asc' },
    ],
    walk: { windows: true, bounds: (v) => datePartitions(yearOf, v.date_from, v.date_to) },
    record: LitigationRecord,
    toRecord: (r) => ({
      release_number: String(r.release_number),
      date: isoDate(r.release_date)!,
      title: str(r.title),
      defendants: json<string[]>(r.defendants, []),
      more_defendants: r.more_defendants === true,
      action_type: str(r.action_type),
      summary: str(r.summary),
      court_case_number: str(r.court_case_number),
      other_release_numbers: json<string[]>(r.other_release_numbers, []),
      penalty: amount(r.penalty_usd, r.penalty_text),
      disgorgement: amount(r.disgorgement_usd, r.disgorgement_text),
      documents: json<{ title: string; url: string }[]>(r.documents, []),
      source: SOURCE.sec_litigation_releases,
      source_url: str(r.detail_url) ?? str(r.source_url),
    }),
  }),
];
