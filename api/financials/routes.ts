import type { z } from 'zod';
import { defineList, f, type SqlBuilder } from '../core/endpoint.ts';
import { p, rangeIssue } from '../core/params.ts';
import { num, str } from '../core/records.ts';
import { FactRecord } from '../../schemas/records/financials.ts';
import { financialFactsTable } from '../../schemas/tables/financials.ts';
import { cikBucket } from '../../ingest/sources/edgar/index.ts';
import { byCikBucket, TICKER_PATTERN, tickerFilter } from '../entities/filters.ts';
import { SOURCE as LABEL } from '../../schemas/sources.ts';

export const SOURCE = LABEL.sec_xbrl_companyfacts;

const CONCEPT = /^([A-Za-z][A-Za-z0-9-]*:)?[A-Za-z_][A-Za-z0-9_.-]*$/;
const UNIT = /^[A-Za-z0-9_\-/.*]{1,40}$/;
const FORM = /^[A-Za-z0-9][A-Za-z0-9 \-/.]{0,29}$/;
/** Taxonomies tried, in this order, for a concept given without a prefix (`Revenues`). */
const DEFAULT_TAXONOMIES = ['us-gaap', 'ifrs-full', 'dei', 'srt'];

/** `us-gaap:Revenues` → itself; `Revenues` → the same tag in the usual taxonomies (exact values, so pruning works). */
function conceptFilter(v: string, b: SqlBuilder): string {
  const list = v.includes(':') ? [v] : DEFAULT_TAXONOMIES.map((t) => `${t}:${v}`);
  return `concept IN (${list.map((c) => b.param(c)).join(', ')})`;
}

export const conceptParam = () =>
  p.str({
    pattern: CONCEPT,
    patternText: CONCEPT.source,
    description: 'XBRL concept in namespaced form (us-gaap:Revenues); a bare tag matches it in us-gaap, ifrs-full, dei or srt.',
  });

function factRecord(r: Record<string, unknown>): z.infer<typeof FactRecord> {
  const cik = String(r.cik);
  return {
    cik,
    entity_name: String(r.entity_name),
    concept: String(r.concept),
    taxonomy: String(r.taxonomy),
    label: str(r.label),
    unit: String(r.unit),
    period_start: str(r.period_start),
    period_end: String(r.period_end),
    period_days: Number(r.period_days),
    value: Number(r.value),
    fiscal_year: num(r.fiscal_year),
    fiscal_period: str(r.fiscal_period),
    form: str(r.form),
    accession: String(r.accession),
    filed: String(r.filed),
    frame: str(r.frame),
    is_latest: Boolean(r.is_latest),
    source: SOURCE,
    source_url: `https://www.sec.gov/Archives/edgar/data/${Number(cik)}/${String(r.accession).replace(/-/g, '')}/${r.accession}-index.htm`,
  };
}

export const listParams = {
  cik: p.cik({ description: 'CIK with or without leading zeros.' }),
  concept: conceptParam(),
  ticker: p.str({ pattern: TICKER_PATTERN, patternText: TICKER_PATTERN.source, upper: true, description: 'Ticker (current or former) of the company.' }),
  form: p.str({ pattern: FORM, upper: true, description: 'Form of the reporting filing: 10-K, 10-Q, 10-K/A, 20-F …' }),
  fiscal_year: p.int({ ge: 1990, le: 2100, description: 'Fiscal year of the reporting filing.' }),
  q: p.str({ maxLength: 200, description: 'Substring of the company name.' }),
  concept_q: p.str({ maxLength: 200, description: 'Substring of the concept name or its label.' }),
  filed_from: p.date({ description: 'Filed on or after.' }),
  filed_to: p.date({ description: 'Filed on or before.' }),
  period_end_from: p.date({ description: 'Period (or instant) ending on or after.' }),
  period_end_to: p.date({ description: 'Period (or instant) ending on or before.' }),
  unit: p.str({ pattern: UNIT, description: 'Unit: USD, shares, USD/shares, pure, EUR … (case-insensitive).' }),
  latest: p.bool({ description: 'true: only the latest-filed value of each concept/unit/period (amendments and restatements win).' }),
};

type Q = { [K in keyof typeof listParams]?: unknown };
export const rangeChecks = (v: Q) => [rangeIssue(v, 'filed_from', 'filed_to'), rangeIssue(v, 'period_end_from', 'period_end_to')];

export const sharedFilters = {
  concept: f.sql(['concept'], conceptFilter),
  form: f.eq('form'),
  fiscal_year: f.eq('fiscal_year'),
  concept_q: f.contains('concept', 'label'),
  filed_from: f.sql(['filed'], (v: string, b) => `filed >= ${b.param(v)}::DATE`),
  filed_to: f.sql(['filed'], (v: string, b) => `filed <= ${b.param(v)}::DATE`),
  period_end_from: f.sql(['period_end'], (v: string, b) => `period_end >= ${b.param(v)}::DATE`),
  period_end_to: f.sql(['period_end'], (v: string, b) => `period_end <= ${b.param(v)}::DATE`),
  unit: f.ieq('unit'),
  latest: f.flag('is_latest'),
};

export default [
  defineList({
    path: '/v1/financials',
    summary: 'XBRL financial facts',
    description:
      'Every non-dimensional XBRL fact per reporting filing (company facts data). A value re-reported by ' +
      'later filings appears once per filing; `latest=true` keeps the latest-filed one per ' +
      'concept/unit/period.',
    tag: 'Financials',
    source: SOURCE,
    table: financialFactsTable,
    params: listParams,
    filters: {
      ...sharedFilters,
      cik: f.sql(['cik_bucket', 'cik'], (v: string, b) => `cik_bucket = ${b.param(cikBucket(v))} AND cik = ${b.param(v)}`),
      // The ticker's CIKs also bound the CIK buckets the facts are partitioned by.
      ticker: tickerFilter(byCikBucket),
      q: f.contains('entity_name'),
    },
    validate: rangeChecks,
    orderBy: [
      { column: 'cik', dir: 'asc' },
      { column: 'concept', dir: 'asc' },
      { column: 'unit', dir: 'asc' },
      { column: 'period_end', dir: 'asc' },
      { column: 'period_days', dir: 'asc' },
      { column: 'accession', dir: 'asc' },
    ],
    record: FactRecord,
    toRecord: factRecord,
  }),
];
