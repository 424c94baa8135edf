import { quarterOf } from '../../sources/common/normalize.ts';
import type { IndexLine } from '../../sources/edgar/bulk/idx.ts';
import { filingUrls } from '../../sources/edgar/bulk/idx.ts';
import type { SubmissionFiling } from '../../sources/edgar/bulk/submissions.ts';

const ENRICHED = [
  'report_date',
  'acceptance_datetime',
  'items',
  'primary_document',
  'primary_doc_description',
  'size',
  'is_xbrl',
  'is_inline_xbrl',
  'act',
  'file_number',
  'film_number',
] as const;

/**
 * One filing row from what this run saw (an index line and/or a submissions entry) and what the lake already
 * holds for the key (`prev`): index facts (conformed company name) and submissions facts (items, acceptance…)
 * each survive a later run that only sees the other source, so the daily index never erases enrichment.
 */
export function buildFilingRow(idx: IndexLine | null, sub: (SubmissionFiling & { entityName: string }) | null, prev: Record<string, unknown> | null) {
  const accession = (idx?.accession ?? sub?.accession)!;
  const cik = (idx?.cik ?? sub?.cik)!;
  const prevSource = String(prev?.detail_source ?? '');
  const prevHasIndex = prevSource.includes('index');
  const prevHasSubs = prevSource.includes('submissions');
  const form = idx?.form ?? sub?.form ?? String(prev?.form);
  const filed = idx?.filedDate ?? sub?.filed_date ?? String(prev?.filed_date);
  const enriched: Record<string, unknown> = {};
  for (const k of ENRICHED) enriched[k] = sub ? sub[k] : prevHasSubs ? (prev![k] ?? null) : null;
  const company = idx?.company ?? (prevHasIndex ? String(prev!.company) : null) ?? sub?.entityName ?? String(prev?.company ?? cik);
  const hasIndex = !!idx || prevHasIndex;
  const hasSubs = !!sub || prevHasSubs;
  const urls = filingUrls(cik, accession, (enriched.primary_document as string | null) ?? null);
  return {
    accession,
    cik,
    company,
    form,
    base_form: form.replace(/\/A$/i, ''),
    is_amendment: /\/A$/i.test(form),
    filed_date: filed,
    filed_quarter: quarterOf(filed),
    ...(enriched as {
      report_date: string | null;
      acceptance_datetime: string | null;
      items: string | null;
      primary_document: string | null;
      primary_doc_description: string | null;
      size: number | null;
      is_xbrl: boolean | null;
      is_inline_xbrl: boolean | null;
      act: string | null;
      file_number: string | null;
      film_number: string | null;
    }),
    ...urls,
    detail_source: hasIndex && hasSubs ? 'index+submissions' : hasIndex ? 'index' : 'submissions',
  };
}

export const filingKey = (accession: string, cik: string) => `${accession}|${cik}`;
