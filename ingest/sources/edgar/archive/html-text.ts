import { Parser } from 'htmlparser2';

/**
 * Filing documents (HTML, inline XBRL, or the 1990s plain text) turned into text lines. Every parser of this
 * area (item extractor, 8-K classifier, Exhibit 21) works on these lines, so the HTML quirks live here once:
 * block elements end a line, table cells are kept apart by a TAB (Exhibit 21 needs the columns), the hidden
 * inline-XBRL header and `display:none` blocks are dropped, entities and non-breaking spaces are decoded.
 */

const BLOCK = new Set([
  'p',
  'div',
  'br',
  'tr',
  'li',
  'ul',
  'ol',
  'table',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'title',
  'center',
  'pre',
  'hr',
  'blockquote',
  'dt',
  'dd',
  'section',
  'article',
  'header',
  'footer',
  'page',
  'body',
  'html',
]);
const CELL = new Set(['td', 'th']);
/** Never text: scripts, styles, and the inline-XBRL header (contexts, units, hidden facts). */
const SKIP = new Set(['script', 'style', 'head', 'ix:header', 'xbrli:context', 'xbrli:unit']);
const HIDDEN_STYLE = /display\s*:\s*none/i;

/**
 * True when a document body has HTML markup (else it is a plain-text filing). `<TABLE>`, `<PAGE>`, `<S>`, `<C>`
 * are not evidence: 1990s plain-text filings use them as SGML page and table markers.
 */
export function looksLikeHtml(body: string): boolean {
  return /<(html|body|p|div|font|br|td)\b/i.test(body.slice(0, 200_000));
}

export function normalizeSpaces(s: string): string {
  return (
    s
      .replace(/[\u00a0\u2007\u202f\u2002\u2003\u2009]/g, ' ')
      // An alternation, not a class: a zero-width joiner inside a class would join its neighbours into one character.
      .replace(/\u200b|\u200c|\u200d|\ufeff/g, '')
      .replace(/[ \f\v]+/g, ' ')
  );
}

function cleanLine(line: string): string {
  return line
    .split('\t')
    .map((c) => normalizeSpaces(c).trim())
    .filter((c) => c !== '')
    .join('\t');
}

export interface LineOptions {
  /**
   * Keep each table row on one line even when its cells hold paragraphs (Exhibit 21 tables put footnote marks
   * in a second paragraph of the name cell). Off for whole documents: some old filings wrap the entire body in
   * one table cell.
   */
  rowsAsLines?: boolean;
  /**
   * Mark page breaks with a PAGE_BREAK line (CSS `page-break-before/after: always` on a block element, `<PAGE>`
   * and form feeds in plain text). Only the item extractor asks: page furniture is found next to them.
   */
  pageBreaks?: boolean;
}

/** The line `pageBreaks` inserts where a page ends; never text (a form feed, folded away in every text line). */
export const PAGE_BREAK = '\f';
const BREAK_BEFORE = /(?:page-)?break-before\s*:\s*(?:always|page)/i;
const BREAK_AFTER = /(?:page-)?break-after\s*:\s*(?:always|page)/i;

/** HTML → lines (cells TAB-separated, empty lines dropped). */
export function htmlToLines(html: string, opts: LineOptions = {}): string[] {
  const lines: string[] = [];
  let cur = '';
  const hidden: boolean[] = [];
  const breaksAfter: boolean[] = [];
  let preDepth = 0;
  let cellDepth = 0;
  const flush = () => {
    const l = cleanLine(cur);
    if (l) lines.push(l);
    cur = '';
  };
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        const parentHidden = hidden.length > 0 && hidden[hidden.length - 1];
        const isHidden = parentHidden || SKIP.has(name) || HIDDEN_STYLE.test(attrs.style ?? '');
        hidden.push(isHidden);
        const pageBlock = !!opts.pageBreaks && !isHidden && BLOCK.has(name) && cellDepth === 0;
        breaksAfter.push(pageBlock && BREAK_AFTER.test(attrs.style ?? ''));
        if (name === 'pre') preDepth++;
        if (isHidden) return;
        if (pageBlock && BREAK_BEFORE.test(attrs.style ?? '')) {
          flush();
          lines.push(PAGE_BREAK);
        }
        if (CELL.has(name)) {
          cellDepth++;
          cur += '\t';
        } else if (BLOCK.has(name)) {
          if (opts.rowsAsLines && cellDepth > 0 && name !== 'tr' && name !== 'table') cur += ' ';
          else flush();
        }
      },
      ontext(text) {
        if (hidden.length > 0 && hidden[hidden.length - 1]) return;
        if (preDepth > 0) {
          const parts = text.split(/\r\n|\r|\n/);
          parts.forEach((part, i) => {
            if (i > 0) flush();
            cur += part;
          });
        } else {
          cur += text.replace(/[\r\n\t]+/g, ' ');
        }
      },
      onclosetag(name) {
        const wasHidden = hidden.pop() ?? false;
        const breakAfter = breaksAfter.pop() ?? false;
        if (name === 'pre') preDepth = Math.max(0, preDepth - 1);
        if (wasHidden) return;
        if (breakAfter) {
          flush();
          lines.push(PAGE_BREAK);
          return;
        }
        if (CELL.has(name)) {
          cellDepth = Math.max(0, cellDepth - 1);
          cur += '\t';
        } else if (BLOCK.has(name)) {
          if (opts.rowsAsLines && cellDepth > 0 && name !== 'tr' && name !== 'table') cur += ' ';
          else flush();
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, recognizeSelfClosing: true },
  );
  parser.write(html);
  parser.end();
  flush();
  return lines;
}

/** Plain-text filing → lines (SGML `<PAGE>` markers dropped, or kept as PAGE_BREAK lines with `pageBreaks`). */
function textToLines(text: string, opts: LineOptions = {}): string[] {
  const out: string[] = [];
  for (const raw of text.split(/\r\n|\r|\n/)) {
    if (opts.pageBreaks && (/^\s*<PAGE>/i.test(raw) || raw.includes('\f')) && out.length && out[out.length - 1] !== PAGE_BREAK) out.push(PAGE_BREAK);
    if (/^\s*<\/?(PAGE|TEXT|DOCUMENT|TYPE|SEQUENCE|FILENAME|DESCRIPTION)>/i.test(raw)) continue;
    const l = normalizeSpaces(raw.replace(/\t/g, ' ')).trim();
    if (l) out.push(l);
  }
  return out;
}

/** Any document body → lines. */
export function documentLines(body: string, opts: LineOptions = {}): string[] {
  return looksLikeHtml(body) ? htmlToLines(body, opts) : textToLines(body, opts);
}
