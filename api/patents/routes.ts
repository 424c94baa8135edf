import type { z } from 'zod';
import { defineList, f } from '../core/endpoint.ts';
import { p, rangeIssue } from '../core/params.ts';
import { int, isoDate, json, str } from '../core/records.ts';
import { type Party, PatentRecord } from '../../schemas/records/patents.ts';
import { patentGrantsTable, patentPageOrder } from '../../schemas/tables/patents.ts';
import { SOURCE } from '../../schemas/sources.ts';

/** `US 11,540,449 B2`, `D0656308`, `re49876` → the stored PatentsView form. */
function canonicalPatentNumber(raw: string): string | null {
  const m = raw
    .toUpperCase()
    .replace(/[\s,.-]/g, '')
    .match(/^(?:US)?([A-Z]{0,2}?)0*(\d{1,8})(?:[ABSPEH]\d?)?$/);
  return m ? `${m[1]}${m[2]}` : null;
}

const PATENT_NUMBER = /^(US)?\s*[A-Za-z]{0,2}[\d,]{1,11}(\s*[A-Za-z]\d?)?$/;

export default [
  defineList({
    path: '/v1/uspto-patent-grants',
    summary: 'USPTO patent grants (weekly full-text grant files)',
    description: 'Newest grants first. `assignee*` filters apply to the first assignee, except `assignee`, which matches any assignee name.',
    tag: 'Patents',
    source: SOURCE.uspto_patent_grants,
    table: patentGrantsTable,
    params: {
      patent_number: p.str({
        pattern: PATENT_NUMBER,
        patternText: '^(US)?[A-Z]{0,2}[0-9,]{1,11}([A-Z][0-9]?)?$',
        maxLength: 30,
        description: 'Patent number; `11540449`, `US 11,540,449 B2`, `D656308` and `D0656308` are the same.',
        example: '11540449',
      }),
      title: p.str({ description: 'Substring of the title (case-insensitive).', maxLength: 200 }),
      assignee: p.str({ description: 'Substring of any assignee name (case-insensitive).', maxLength: 200 }),
      assignee_state: p.str({ pattern: /^[A-Z]{2}$/, upper: true, description: 'Two-letter US state of the first assignee.', example: 'CA' }),
      assignee_country: p.str({ pattern: /^[A-Z]{2}$/, upper: true, description: 'ISO-2 country of the first assignee.', example: 'US' }),
      kind_code: p.str({ pattern: /^[A-Z]\d?$/, upper: true, description: 'WIPO kind code: B1, B2, S1, P2, P3, E, H1.', example: 'B2' }),
      application_number: p.str({
        pattern: /^[\d/,\s]{6,14}$/,
        patternText: '^[0-9/, ]{6,14}$',
        description: 'Application number: `29379369` or `29/379,369`.',
        example: '29379369',
      }),
      grant_year: p.int({ ge: 1976, le: 2100, description: 'Year of the grant date.' }),
      grant_date_from: p.date({ description: 'Earliest grant date (inclusive).' }),
      grant_date_to: p.date({ description: 'Latest grant date (inclusive).' }),
      claims_count_min: p.int({ ge: 0, description: 'Minimum number of claims.' }),
    },
    filters: {
      patent_number: f.eqNormalized('patent_number', (v) => canonicalPatentNumber(v) ?? v),
      title: f.contains('title'),
      assignee: f.contains('assignee_names'),
      assignee_state: f.eq('assignee_state'),
      assignee_country: f.eq('assignee_country'),
      kind_code: f.eq('kind_code'),
      application_number: f.eqNormalized('application_number', (v) => v.replace(/\D/g, '')),
      grant_year: f.eq('grant_year'),
      grant_date_from: f.gte('grant_date'),
      grant_date_to: f.lte('grant_date'),
      claims_count_min: f.gte('claims_count'),
    },
    validate: (v) => [rangeIssue(v, 'grant_date_from', 'grant_date_to')],
    // Newest year first: the year is the grant date's (ingest/datasets/patents/dataset.ts), so the order is the same as
    // by date alone, and a page reads the newest years until it is full (docs/layouts.md).
    orderBy: [{ column: 'grant_year', dir: 'desc' }, ...patentPageOrder],
    walk: { windows: true, bounds: (v) => grantYears(v.grant_year, v.grant_date_from, v.grant_date_to) },
    record: PatentRecord,
    toRecord: (r) => ({
      patent_number: String(r.patent_number),
      kind_code: str(r.kind_code),
      patent_type: str(r.patent_type),
      title: str(r.title),
      grant_date: isoDate(r.grant_date)!,
      application_number: str(r.application_number),
      application_date: isoDate(r.application_date),
      claims_count: int(r.claims_count),
      figures_count: int(r.figures_count),
      citations_count: int(r.citations_count),
      cpc_main: str(r.cpc_main),
      ipc_main: str(r.ipc_main),
      assignee: str(r.assignee),
      assignee_state: str(r.assignee_state),
      assignee_country: str(r.assignee_country),
      assignee_cik: str(r.assignee_cik),
      assignees: json<z.infer<typeof Party>[]>(r.assignees, []),
      inventors: json<z.infer<typeof Party>[]>(r.inventors, []),
      abstract: str(r.abstract),
      source: SOURCE.uspto_patent_grants,
      // Local imports (`--from`) have no URL: the weekly file's canonical bulk-data address is the provenance.
      source_url:
        str(r.source_url) ??
        `https://bulkdata.uspto.gov/data/patent/grant/redbook/fulltext/${String(r.grant_date).slice(0, 4)}/${String(r.source_file).replace(/\.xml$/i, '.zip')}`,
    }),
  }),
];

/** The grant years a page can find rows in: the year asked, narrowed by the grant-date bounds. */
function grantYears(year: number | undefined, from: string | undefined, to: string | undefined): { from?: string; to?: string } {
  const lows = [year, from && Number(from.slice(0, 4))].filter((y): y is number => typeof y === 'number');
  const highs = [year, to && Number(to.slice(0, 4))].filter((y): y is number => typeof y === 'number');
  return { from: lows.length ? String(Math.max(...lows)) : undefined, to: highs.length ? String(Math.min(...highs)) : undefined };
}
