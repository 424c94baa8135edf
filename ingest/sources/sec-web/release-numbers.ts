/**
 * The regulator's release-number families (docs/formats/13-sec-enforcement.md §1), normalized to the
 * hyphenated form it prints (`LR-26496`, `34-101794`, `IA-6543`, `AAER-4403`) because feeds and pages are
 * inconsistent: the litigation RSS carries `LR26018`, legacy URLs `lr26018`, some pages `Rel. No. 34-…`.
 */

export type ReleaseFamily = 'LR' | 'AAER' | '33' | '34' | 'IA' | 'IC';

/** `LR`/`AAER` appear glued or spaced (`LR26018`, `AAER 4403`); the numeric and Act families only hyphenated. */
const RELEASE = /\b(?:(LR|AAER)[-\s‐–]?|(IA|IC|33|34)[-‐–])(\d{3,6})(?:-s)?(?![\d])/gi;
/** Administrative file numbers tie every paper of one proceeding together. */
const FILE_NUMBER = /\b3-(\d{4,6})\b/g;
/** Federal civil action numbers: `1:24-cv-01234`, `24-cv-1234 (JMF)`, `24 Civ. 1234`, `07 CV 6709`. */
const CIVIL_ACTION = /\b(?:\d:)?\d{2}[-\s](?:cv|civ\.?|CV|CIV\.?)[-\s]\d{2,6}(?:[-\s][A-Z]{2,4})?\b/g;

export function normalizeReleaseNumber(raw: string | null | undefined): string | null {
  if (!raw) return null;
  RELEASE.lastIndex = 0;
  const m = RELEASE.exec(String(raw).trim());
  RELEASE.lastIndex = 0;
  if (!m) return null;
  return `${(m[1] ?? m[2]).toUpperCase()}-${m[3]}`;
}

/** Every release number in a text, normalized, first-seen order, without repeats. */
export function releaseNumbersIn(text: string | null | undefined): string[] {
  if (!text) return [];
  const out: string[] = [];
  for (const m of text.matchAll(RELEASE)) {
    const n = `${(m[1] ?? m[2]).toUpperCase()}-${m[3]}`;
    if (!out.includes(n)) out.push(n);
  }
  return out;
}

export function familyOf(release: string): ReleaseFamily | null {
  const m = release.match(/^(LR|AAER|IA|IC|33|34)-/);
  return (m?.[1] as ReleaseFamily) ?? null;
}

export function fileNumbersIn(text: string | null | undefined): string[] {
  if (!text) return [];
  const out: string[] = [];
  for (const m of text.matchAll(FILE_NUMBER)) {
    const n = `3-${m[1]}`;
    if (!out.includes(n)) out.push(n);
  }
  return out;
}

export function civilActionNumberIn(text: string | null | undefined): string | null {
  if (!text) return null;
  CIVIL_ACTION.lastIndex = 0;
  const m = CIVIL_ACTION.exec(text);
  CIVIL_ACTION.lastIndex = 0;
  return m ? m[0].replace(/\s+/g, ' ') : null;
}
