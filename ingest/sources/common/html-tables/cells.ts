/**
 * Cell-level reading of financial tables as filers print them: `$` and `)` in cells of their own,
 * footnote markers glued to names and numbers, dashes meaning zero.
 */

const DASH = /^[-–—‒―]+$/;
/** Trailing footnote references: `(1)`, `(1)(2)`, `(a)`, `*`, `†`, `[3]`. */
const TRAILING_FOOTNOTES = /(?:\s*(?:\((?:\d{1,2}|[a-z])\)|\[\d{1,2}\]|[*†‡§#]+))+\s*$/i;

export function stripFootnotes(text: string): string {
  return text.replace(TRAILING_FOOTNOTES, '').trim();
}

export type Amount = { value: number | null; kind: 'number' | 'dash' | 'blank' | 'na' | 'text' };

/**
 * A dollar amount as printed. A dash is an explicit zero (what the filer means by `—`), a blank or `N/A`
 * is "not reported" (null), anything else that is not a number is `text` so the caller can lower confidence.
 */
export function parseAmount(raw: string): Amount {
  let s = raw
    .replace(/[\s\u00a0]+/g, ' ')
    .replace(/\$/g, '')
    .trim();
  // "(5)" alone is a negative amount; "1,000(5)" is an amount with a footnote marker.
  if (!/^\(\s*[\d,]+(\.\d+)?\s*\)$/.test(s)) s = stripFootnotes(s);
  if (!s) return { value: null, kind: 'blank' };
  if (DASH.test(s) || s === '0-') return { value: 0, kind: 'dash' };
  if (/^(n\/?a|none|nil)\.?$/i.test(s)) return { value: null, kind: 'na' };
  let negative = false;
  if (/^\(.*\)$/.test(s)) {
    negative = true;
    s = s.slice(1, -1).trim();
  }
  if (/^-/.test(s)) {
    negative = !negative;
    s = s.slice(1).trim();
  }
  if (!/^\d{1,3}(,\d{3})*(\.\d+)?$|^\d+(\.\d+)?$/.test(s)) return { value: null, kind: 'text' };
  const n = Number(s.replace(/,/g, ''));
  return { value: negative ? -n : n, kind: 'number' };
}

/** `2023`, `2023(1)`, `Fiscal 2023`, `FY23`. */
export function parseYear(raw: string): number | null {
  const s = stripFootnotes(raw.trim());
  let m = s.match(/^(?:fiscal\s+(?:year\s+)?)?((?:19|20)\d{2})$/i);
  if (m) return Number(m[1]);
  m = s.match(/^FY\s?'?(\d{2})$/i);
  if (m) return 2000 + Number(m[1]);
  return null;
}

/** Whether a cell holds only punctuation that belongs to a neighbouring amount (`$`, `)`, `%`). */
export function isAmountFragment(text: string): boolean {
  return /^(\$|\)|%|\)%|\$\s*\(|\(\$?)$/.test(text.trim());
}
