import { f, type Filter } from '../core/endpoint.ts';
import { p, type ParamDef } from '../core/params.ts';
import { normalizePersonName } from '../../ingest/sources/common/index.ts';
import { CONFIDENCE_FLOOR } from '../../ingest/sources/edgar/index.ts';

/** Shared by /v1/board, /v1/proxy/officers and /v1/compensation. */

/**
 * Person-name filter over the normalized name columns: the last name must match, and the first name
 * must match or be initial-compatible ("R Woolley" ↔ "Robert Woolley"); a one-word query matches last
 * names. Case, punctuation, suffixes (Jr., III) and middle initials never matter.
 */
export function personNameFilter(): Filter<string, 'name_last' | 'name_first' | 'name_middle'> {
  return f.sql(['name_last', 'name_first', 'name_middle'], (value: string, b) => {
    const n = normalizePersonName(value);
    if (!n) return 'false';
    if (!n.first) return `("name_last" = ${b.param(n.last)} OR "name_first" = ${b.param(n.last)})`;
    const last = b.param(n.last);
    if (n.first.length === 1) return `("name_last" = ${last} AND left("name_first", 1) = ${b.param(n.first)})`;
    const first = b.param(n.first);
    const initial = b.param(n.first[0]);
    return (
      `("name_last" = ${last} AND ("name_first" = ${first}` +
      ` OR (length("name_first") = 1 AND ("name_first" = ${initial} OR split_part(coalesce("name_middle", ''), ' ', 1) = ${first}))))`
    );
  });
}

/**
 * `min_confidence` with the serving floor as its default: rows the extractor was unsure of stay in the
 * lake (plain SQL sees them) but are served only to a caller who lowers the bar explicitly.
 */
export function minConfidenceParam(): ParamDef<number | undefined> {
  const base = p.float({
    ge: 0,
    le: 1,
    description: `Only rows with confidence >= this (0-1). Default ${CONFIDENCE_FLOOR}, the serving floor; 0 shows every extracted row.`,
  });
  return {
    ...base,
    zod: base.zod.transform((v) => v ?? CONFIDENCE_FLOOR) as unknown as ParamDef<number | undefined>['zod'],
    openapi: { ...base.openapi, default: CONFIDENCE_FLOOR },
  };
}

export const EIN_PATTERN = /^\d{2}-?\d{7}$/;
