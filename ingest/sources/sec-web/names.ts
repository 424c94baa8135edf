import { cleanText } from '../common/normalize.ts';

/**
 * Respondent / defendant lists as titles print them: "A, B, and C", "A and B", "A; B", with commas that
 * belong to a name ("Lufkin Advisors, LLC", "Chauncey Forbush Lufkin, III", "Ni, CPA"). The regulator does
 * not mark entity vs individual, and a company name containing " and " is split (a known limit).
 */

const SUFFIX = new RegExp(
  [
    String.raw`^(?:inc|incorporated|llc|l\.l\.c|ltd|limited|lp|l\.p|llp|l\.l\.p|pllc|corp`,
    String.raw`|corporation|co|company|plc|p\.c|n\.a|s\.a|ag|gmbh|b\.v|n\.v|jr|sr|ii|iii`,
    String.raw`|iv|v|cpa|esq|md|phd|cfa)\.?$`,
  ].join(''),
  'i',
);
const ET_AL = /,?\s*\bet\.? al\.?$/i;
const CAPTION = /^(?:(?:SEC|Securities and Exchange Commission)\s+v\.?\s+|In the Matter of\s+)/i;

export interface NameList {
  names: string[];
  /** The title ended with "et al.": more parties than those named. */
  more: boolean;
}

export function splitNames(raw: string | null | undefined): NameList {
  const title = cleanText(raw);
  if (!title) return { names: [], more: false };
  let s = title.replace(CAPTION, '');
  const more = ET_AL.test(s);
  s = s.replace(ET_AL, '');
  const names: string[] = [];
  for (const group of s.split(/\s*;\s*/)) {
    const pieces = group
      .split(/\s*,\s*(?:and\s+)?|\s+and\s+/i)
      .map((p) => p.trim())
      .filter(Boolean);
    for (const piece of pieces) {
      if (names.length && SUFFIX.test(piece)) names[names.length - 1] += `, ${piece}`;
      else names.push(piece);
    }
  }
  return { names: names.map((n) => n.replace(/\s+/g, ' ')), more };
}
