import { Parser } from 'htmlparser2';

/**
 * One pass over an HTML (or inline-XBRL) document that yields what the table extractors need:
 * every table as rows of cells (colspan/rowspan kept), the document as block-level text lines (so
 * label-based layouts outside tables can be read too), and inline-XBRL facts with their context periods.
 */

export interface HtmlCell {
  /** Text with one `\n` per block boundary inside the cell (br, p, div): names and titles on separate lines stay separate. */
  text: string;
  colspan: number;
  rowspan: number;
  header: boolean;
}

export interface HtmlTable {
  index: number;
  rows: HtmlCell[][];
  /** Index in `lines` of the first line after which the table's own text begins. */
  lineStart: number;
  lineEnd: number;
}

export interface IxFact {
  name: string;
  contextRef: string | null;
  text: string;
  /** `sign="-"` on ix:nonFraction. */
  negative: boolean;
  scale: number;
}

export interface ParsedHtml {
  tables: HtmlTable[];
  lines: string[];
  facts: IxFact[];
  /** contextRef → period end date (`YYYY-MM-DD`) for duration or instant contexts, and whether it has dimensions. */
  contexts: Map<string, { end: string | null; dimensional: boolean }>;
}

const BLOCK = new Set(['p', 'div', 'br', 'tr', 'td', 'th', 'li', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'table', 'ul', 'ol', 'center', 'hr', 'dt', 'dd']);
const SKIP = new Set(['script', 'style', 'head', 'title', 'ix:header']);
/** A superscript that is only footnote markers: `(1)`, `1`, `(a)(2)`, `*`, `†`. */
const FOOTNOTE_SUP = /^[\s(]*(\d{1,2}|[a-z]|[*†‡§#]+)(?:[\s,)(]+(\d{1,2}|[a-z]|[*†‡§#]+))*[\s)]*$/i;

interface OpenTable {
  rows: HtmlCell[][];
  row: HtmlCell[] | null;
  cell: { parts: string[]; colspan: number; rowspan: number; header: boolean } | null;
  lineStart: number;
}

function span(v: string | undefined): number {
  const n = Number.parseInt(v ?? '1', 10);
  return Number.isFinite(n) && n >= 1 && n <= 200 ? n : 1;
}

export function parseHtml(html: string): ParsedHtml {
  const tables: HtmlTable[] = [];
  const lines: string[] = [];
  const facts: IxFact[] = [];
  const contexts = new Map<string, { end: string | null; dimensional: boolean }>();
  const stack: OpenTable[] = [];
  let line = '';
  let skipDepth = 0;
  let supDepth = 0;
  let supText = '';
  const factStack: { fact: IxFact; parts: string[] }[] = [];
  let ctx: { id: string; end: string | null; dimensional: boolean } | null = null;
  let ctxField: 'end' | null = null;
  let index = 0;

  const flushLine = () => {
    const t = line.replace(/[\s\u00a0\u200b]+/g, ' ').trim();
    if (t) lines.push(t);
    line = '';
  };
  const emit = (text: string) => {
    line += text;
    for (const t of stack) if (t.cell) t.cell.parts.push(text);
    for (const f of factStack) f.parts.push(text);
  };
  const breakCells = () => {
    for (const t of stack) if (t.cell) t.cell.parts.push('\n');
  };

  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (name === 'xbrli:context') ctx = { id: attrs.id ?? '', end: null, dimensional: false };
        else if (ctx && (name === 'xbrli:enddate' || name === 'xbrli:instant')) ctxField = 'end';
        else if (ctx && (name === 'xbrldi:explicitmember' || name === 'xbrldi:typedmember')) ctx.dimensional = true;
        // Facts are read even inside the hidden ix:header (dei cover facts live there).
        if (name === 'ix:nonfraction' || name === 'ix:nonnumeric') {
          factStack.push({
            fact: {
              name: attrs.name ?? '',
              contextRef: attrs.contextref ?? null,
              text: '',
              negative: attrs.sign === '-',
              scale: Number(attrs.scale ?? 0) || 0,
            },
            parts: [],
          });
        }
        if (SKIP.has(name)) {
          skipDepth++;
          return;
        }
        if (skipDepth) return;
        if (name === 'sup') {
          supDepth++;
          if (supDepth === 1) supText = '';
          return;
        }
        if (BLOCK.has(name)) {
          flushLine();
          breakCells();
        }
        if (name === 'table') {
          stack.push({ rows: [], row: null, cell: null, lineStart: lines.length });
        } else if (name === 'tr' && stack.length) {
          stack[stack.length - 1].row = [];
        } else if ((name === 'td' || name === 'th') && stack.length) {
          const t = stack[stack.length - 1];
          if (!t.row) t.row = [];
          t.cell = { parts: [], colspan: span(attrs.colspan), rowspan: span(attrs.rowspan), header: name === 'th' };
        }
      },
      ontext(text) {
        if (ctx && ctxField === 'end') {
          ctx.end = (ctx.end ?? '') + text.trim();
          return;
        }
        if (skipDepth) {
          for (const f of factStack) f.parts.push(text);
          return;
        }
        if (supDepth) {
          supText += text;
          return;
        }
        emit(text);
      },
      onclosetag(name) {
        if (name === 'xbrli:context' && ctx) {
          contexts.set(ctx.id, { end: ctx.end, dimensional: ctx.dimensional });
          ctx = null;
        } else if (name === 'xbrli:enddate' || name === 'xbrli:instant') ctxField = null;
        if (name === 'ix:nonfraction' || name === 'ix:nonnumeric') {
          const f = factStack.pop();
          if (f) {
            f.fact.text = f.parts
              .join('')
              .replace(/[\s\u00a0]+/g, ' ')
              .trim();
            facts.push(f.fact);
          }
          if (skipDepth) return;
        }
        if (SKIP.has(name)) {
          skipDepth = Math.max(0, skipDepth - 1);
          return;
        }
        if (skipDepth) return;
        if (name === 'sup') {
          supDepth = Math.max(0, supDepth - 1);
          // Footnote markers are dropped so `Salary($)(2)` and `Jeff Zhu(1)` read clean; anything else is kept.
          if (supDepth === 0 && !FOOTNOTE_SUP.test(supText.replace(/\u00a0/g, ' '))) emit(supText);
          return;
        }
        if (BLOCK.has(name)) {
          flushLine();
          breakCells();
        }
        const t = stack[stack.length - 1];
        if (!t) return;
        if ((name === 'td' || name === 'th') && t.cell) {
          const text = t.cell.parts
            .join('')
            .replace(/[\u00a0\u200b\t ]+/g, ' ')
            .split('\n')
            .map((s) => s.trim())
            .filter(Boolean)
            .join('\n');
          (t.row ??= []).push({ text, colspan: t.cell.colspan, rowspan: t.cell.rowspan, header: t.cell.header });
          t.cell = null;
        } else if (name === 'tr' && t.row) {
          t.rows.push(t.row);
          t.row = null;
        } else if (name === 'table') {
          stack.pop();
          if (t.row) t.rows.push(t.row);
          tables.push({ index: index++, rows: t.rows, lineStart: t.lineStart, lineEnd: lines.length });
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: true },
  );
  parser.write(html);
  parser.end();
  flushLine();
  tables.sort((a, b) => a.lineStart - b.lineStart || a.index - b.index);
  return { tables, lines, facts, contexts };
}
