/**
 * Person-name normalization shared by the proxy and Form 990 parsers and by the `person_name` /
 * `executive_name` / `name` filters, so "Parker A. Weil", "PARKER WEIL" and "Weil, Parker" meet.
 * The printed name is always kept beside these keys.
 */

export interface NormalizedName {
  /** The name as printed, footnote markers and honorifics removed. */
  clean: string;
  first: string;
  middle: string;
  last: string;
  /** Generational suffix (`jr`, `iii`…); credentials (`md`, `phd`) are dropped. */
  suffix: string | null;
  /** `first last`, lower-case ASCII: the join key across sources. */
  key: string;
}

const HONORIFICS = new Set(['mr', 'mrs', 'ms', 'miss', 'dr', 'prof', 'hon', 'rev', 'sir', 'dame', 'the']);
const GENERATIONAL = new Set(['jr', 'sr', 'ii', 'iii', 'iv', 'v', 'vi', '2nd', '3rd']);
const CREDENTIALS = new Set([
  'md',
  'phd',
  'esq',
  'cpa',
  'jd',
  'mba',
  'cfa',
  'dds',
  'rn',
  'dvm',
  'edd',
  'ret',
  'usn',
  'usa',
  'usmc',
  'cfp',
  'pe',
  'lcsw',
  'do',
  'mph',
  'ma',
  'ms',
  'dmin',
  'facs',
]);
const PARTICLES = new Set(['de', 'del', 'della', 'der', 'van', 'von', 'da', 'di', 'du', 'la', 'le', 'st', 'ten', 'ter', 'dos', 'das', 'bin', 'al']);

function ascii(s: string): string {
  return s.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
}

function token(s: string): string {
  return ascii(s)
    .toLowerCase()
    .replace(/[.'’`]/g, '')
    .replace(/[^a-z0-9-]/g, '');
}

const FOOTNOTE_TAIL = /(?:\s*(?:\((?:\d{1,2}|[a-z])\)|\[\d{1,2}\]|[*†‡§#]+|\d{1,2}))+\s*$/i;

export function normalizePersonName(printed: string): NormalizedName | null {
  let s = printed
    .replace(/[\s\u00a0]+/g, ' ')
    .replace(FOOTNOTE_TAIL, '')
    .trim();
  s = s
    .replace(/\((?:nominee|retir|former|deceased)[^)]*\)/gi, '')
    .replace(/\s+/g, ' ')
    .trim();
  // Nicknames in quotes or parentheses (`William "Bill" Smith`) are not part of the legal name.
  s = s
    .replace(/\s*["“”][^"“”]{1,20}["“”]\s*/g, ' ')
    .replace(/\s*\([A-Za-z]{2,15}\)\s*/g, ' ')
    .trim();
  if (!s || /\d{3,}/.test(s)) return null;

  let parts = s
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  let suffix: string | null = null;
  // Trailing comma parts that are suffixes or credentials (`Robert E. Bigelow, III`, `Jane Doe, M.D.`).
  while (parts.length > 1) {
    const t = parts[parts.length - 1].split(/\s+/).map(token);
    if (t.every((x) => GENERATIONAL.has(x) || CREDENTIALS.has(x))) {
      const g = t.find((x) => GENERATIONAL.has(x));
      if (g && !suffix) suffix = g;
      parts.pop();
    } else break;
  }
  // `LAST, FIRST M` (common in Form 990 e-files): swap when the shape is unambiguous.
  if (parts.length === 2 && parts[0].split(/\s+/).length <= 3 && parts[1].split(/\s+/).length <= 3 && /^[A-Za-z .'-]+$/.test(parts[1])) {
    parts = [`${parts[1]} ${parts[0]}`];
  }
  const clean = parts.join(', ').trim();
  let tokens = parts.join(' ').split(/\s+/).filter(Boolean);
  while (tokens.length && HONORIFICS.has(token(tokens[0]))) tokens = tokens.slice(1);
  while (tokens.length > 1) {
    const t = token(tokens[tokens.length - 1]);
    if (GENERATIONAL.has(t)) {
      suffix ??= t;
      tokens.pop();
    } else if (CREDENTIALS.has(t) && tokens.length > 2) tokens.pop();
    else break;
  }
  const norm = tokens.map(token).filter(Boolean);
  if (norm.length === 0) return null;
  if (norm.length === 1) return { clean, first: '', middle: '', last: norm[0], suffix, key: norm[0] };
  let lastStart = norm.length - 1;
  while (lastStart > 1 && PARTICLES.has(norm[lastStart - 1])) lastStart--;
  const first = norm[0];
  const middle = norm.slice(1, lastStart).join(' ');
  const last = norm.slice(lastStart).join(' ');
  return { clean: clean.replace(/^(?:(?:Mr|Mrs|Ms|Dr)\.?\s+)/i, ''), first, middle, last, suffix, key: `${first} ${last}` };
}

const NOT_A_PERSON_NAME = new RegExp(
  [
    String.raw`\d|[:;!?]|\b(and|of|the|for|to|in|with|by|our|inc|llc|corp|company|committee`,
    '|board|total|directors?|officers?|group|plan|fund|chair|chairman|chairwoman',
    String.raw`|executive|president|vice|lead|independent|senior|chief|nominee|trustee)\b`,
  ].join(''),
  'i',
);

/** Whether a string looks like a person's name (2–6 words, capitalized, no digits or sentence punctuation). */
export function looksLikePersonName(s: string): boolean {
  const t = s.replace(FOOTNOTE_TAIL, '').trim();
  if (t.length < 4 || t.length > 60) return false;
  if (NOT_A_PERSON_NAME.test(t)) return false;
  const words = t.replace(/,\s*(jr|sr|ii|iii|iv)\.?$/i, '').split(/\s+/);
  if (words.length < 2 || words.length > 6) return false;
  return words.every((w) => /^[A-Z][A-Za-z'’.-]*\.?$|^[A-Z]\.?$|^(de|del|van|von|da|di|la|le)$/.test(w));
}
