import { documentLines, PAGE_BREAK } from './html-text.ts';
import { ITEMS_10Q, ORDER_10K, itemFormOf, parseItemParam, type ItemForm, type ItemRef } from './items.ts';

/**
 * Item extraction for 10-K, 10-Q and 8-K documents: from an item's heading to the next item heading (or a PART
 * heading, or SIGNATURES). The table of contents repeats every heading, so each item's heading occurrences are
 * compared and the one followed by the most text wins (a TOC entry is followed by a title and a page number).
 * Page footers ("Apple Inc. | 2024 Form 10-K | 5", bare page numbers, "Table of Contents" links) are dropped, and in
 * 10-K/10-Q any short line that keeps recurring at page breaks (a running header or footer).
 */

export interface ItemSection extends ItemRef {
  /** The heading as printed, e.g. `Item 1A. Risk Factors`. */
  heading: string;
  /** Plain text of the item body (heading excluded), lines joined by `\n`, table cells by a space. */
  text: string;
  /** Line range in the document's text lines (heading line, exclusive end). */
  startLine: number;
  endLine: number;
}

/** `Item 1A.`, `ITEM 1A:`, `Item 1A –`, `Item 5.02`, `Part II, Item 1A`, `ITEM 2. ACQUISITION…` at line start. */
const HEADING = /^(?:part\s+(i{1,3}|iv)\s*[,.:\-–—]?\s*)?items?\s*(\d{1,2}(?:\.\d{2})?[a-c]?)(?![\d]|\.\d)\s*[.:\-–—)]?\s*(.*)$/i;
/** Words that show the line is a sentence citing an item, not its heading. */
const CITATION =
  /^(of|in|and|or|to|above|below|herein|hereof|under|through|as|is|are|was|were|has|have|for|by|on|this|that|which|from|with|should|will|may|shall)\b/i;
const PART_LINE = /^part\s+(i{1,3}|iv)\b(?!\s*,?\s*items?\b)[\s.:\-–—,]*(.{0,80})$/i;
const SIGNATURES = /^(signatures?|exhibit index|index to exhibits)\s*[.:]?$/i;
const PAGE_NUMBER = /^(?:page\s+)?(?:[-–—]\s*)?(?:\d{1,3}|[ivxlc]{1,6})(?:\s*[-–—])?(?:\s+of\s+\d{1,3})?$/i;
const CONTINUED = /^\(?\s*(con['’]?t?['’]?d\.?|continued)\s*\)?$/i;
const TOC_LINK = /^(?:back\s+to\s+)?(?:table\s+of\s+contents|index)$/i;

/** Lines that are page furniture: bare page numbers, TOC back-links, and a running header/footer that repeats. */
function furnitureMask(flat: string[], breaks: ReadonlySet<number>, form: ItemForm): boolean[] {
  const counts = new Map<string, number>();
  const shapes = flat.map((l) => (l.length < 100 && /\d\s*$/.test(l) && /[a-z]/i.test(l) ? l.replace(/\d+/g, '#').toLowerCase() : null));
  for (const s of shapes) if (s) counts.set(s, (counts.get(s) ?? 0) + 1);
  const junk = flat.map((l, i) => {
    if (PAGE_NUMBER.test(l) || TOC_LINK.test(l)) return true;
    const s = shapes[i];
    return s !== null && (counts.get(s) ?? 0) >= 5 && /\|| form 10-[kq]|page #/i.test(s);
  });
  if (form !== '8-K') {
    // Twice: a line found on the first pass ("Index to Financial Statements") marks the page edge for the one
    // stacked above or below it (the company name of a two-line running header).
    const found = new Set<number>();
    for (let pass = 0; pass < 2; pass++) for (const i of repeatedAtPageEdges(flat, breaks, junk, found)) found.add(i);
    for (const i of found) junk[i] = true;
  }
  return junk;
}

/** A page edge is this close (in lines) to a page break or to furniture already found. */
const EDGE_REACH = 2;
const MIN_REPEATS = 3;
/** A line ending like a sentence ("None.", "Not applicable."), not like a company name ("Northwind Holdings, Inc."). */
const SENTENCE_END = /(?<!\b(?:inc|corp|co|ltd|llc|plc|l\.p|n\.a|s\.a|n\.v|b\.v))\.$/i;
/** With page breaks known, a running line recurs at least once every this many pages. */
const PAGES_PER_REPEAT = 8;
/** Share of a line's occurrences that must sit at page edges. */
const AT_EDGE_SHARE = 0.75;

/**
 * Running headers and footers in general: a short line that recurs at least MIN_REPEATS times, nearly always
 * (AT_EDGE_SHARE) within EDGE_REACH lines of a page break (in text without break marks, of a page number) or of
 * furniture found on the first pass ("Index to Financial Statements", "Back to Contents", a company name). Found by
 * repetition at page edges, not by a list of phrases. Item and part headings never qualify (running "Item 7
 * (continued)" headers are handled by the scan), nor does a line right under one; sentences ending in a period need
 * twice the repeats, so a recurring "None." body is not taken for furniture.
 */
function repeatedAtPageEdges(flat: string[], breaks: ReadonlySet<number>, junk: boolean[], found: ReadonlySet<number>): number[] {
  // Where the markup marks page breaks they are the edges: bare numbers also fill table cells ("36" months), so they
  // are page numbers to trust only in a document without break marks (plain text cut by page numbers alone).
  const anchor = breaks.size ? (j: number) => breaks.has(j) || found.has(j) : (j: number) => junk[j] === true || found.has(j);
  const afterHeading = (i: number) => i > 0 && (HEADING.test(flat[i - 1]!) || PART_LINE.test(flat[i - 1]!));
  const atEdge = (i: number) => {
    // A short item body ("Not applicable.") under its heading at the foot of a page is content, not furniture.
    if (afterHeading(i)) return false;
    for (let d = -EDGE_REACH; d <= EDGE_REACH; d++) if (d !== 0 && anchor(i + d)) return true;
    // A break right before this line (it opens a page) or right after it (it closes one).
    return breaks.has(i) || breaks.has(i + 1);
  };
  const byShape = new Map<string, number[]>();
  flat.forEach((l, i) => {
    if (junk[i] || found.has(i) || l.length > 80 || !/[a-z]/i.test(l) || HEADING.test(l) || PART_LINE.test(l) || SIGNATURES.test(l)) return;
    const shape = l.replace(/\d+/g, '#').toLowerCase();
    (byShape.get(shape) ?? byShape.set(shape, []).get(shape)!).push(i);
  });
  // Furniture runs over a good share of the pages (a link on every page of the financial statements at least).
  const minRepeats = Math.max(MIN_REPEATS, Math.floor(breaks.size / PAGES_PER_REPEAT));
  const out: number[] = [];
  for (const [shape, at] of byShape) {
    if (at.length < (SENTENCE_END.test(shape) ? 2 * minRepeats : minRepeats)) continue;
    if (at.filter(atEdge).length >= AT_EDGE_SHARE * at.length) out.push(...at);
  }
  return out;
}

interface Heading {
  line: number;
  number: string;
  part: string | null;
  rest: string;
}

interface Boundary {
  line: number;
  heading: Heading | null;
}

function scan(lines: string[], breaks: ReadonlySet<number>, form: ItemForm) {
  const flat = lines.map((l) => l.replace(/\t/g, ' '));
  const junk = furnitureMask(flat, breaks, form);
  const boundaries: Boundary[] = [];
  let part: string | null = null;
  let lastKey: string | null = null;
  flat.forEach((l, i) => {
    if (junk[i]) return;
    const pm = PART_LINE.exec(l);
    if (pm) {
      // A running page header repeats the current part ("PART I (con'd.)"): only a change of part ends an item.
      if (pm[1]!.toUpperCase() !== part) boundaries.push({ line: i, heading: null });
      else junk[i] = true;
      part = pm[1]!.toUpperCase();
      return;
    }
    if (CONTINUED.test(l)) {
      junk[i] = true;
      return;
    }
    if (SIGNATURES.test(l)) {
      boundaries.push({ line: i, heading: null });
      return;
    }
    const m = HEADING.exec(l);
    if (!m) return;
    const rest = m[3]!.trim();
    if (CITATION.test(rest)) return;
    // A long line that starts with "Item 7" is prose unless the heading is followed by its title.
    if (l.length > 220 && !/^[A-Z“"'([]/.test(rest)) return;
    const number = m[2]!.toUpperCase();
    if (form === '8-K' ? !/^\d{1,2}(\.\d{2})?$/.test(number) : number.includes('.')) return;
    if (m[1]) part = m[1].toUpperCase();
    const heading = { line: i, number, part, rest };
    // "Item 7. MD&A (continued)" running headers repeat the open item's heading: not a new section.
    if (lastKey === keyOf(heading, form)) return;
    lastKey = keyOf(heading, form);
    boundaries.push({ line: i, heading });
  });
  return { flat, junk, boundaries };
}

function keyOf(h: Heading, form: ItemForm): string {
  if (form !== '10-Q') return h.number;
  const part = h.part ?? (['1A', '5', '6'].includes(h.number) ? 'II' : 'I');
  return `${part}-${h.number}`;
}

function bodyLines(flat: string[], junk: boolean[], from: number, to: number): string[] {
  const out: string[] = [];
  for (let i = from; i < to; i++) if (!junk[i]) out.push(flat[i]!);
  return out;
}

const squash = (s: string) =>
  s
    .toLowerCase()
    .replace(/[’'`]/g, "'")
    .replace(/[^a-z0-9']+/g, ' ')
    .trim();

/** The line after a bare "Item 2.02" heading is its title when it is the canonical caption or a short phrase. */
function looksLikeTitle(line: string, canonical: string | undefined): boolean {
  if (canonical && squash(line).startsWith(squash(canonical).slice(0, 18))) return line.length <= 250;
  return line.length <= 120 && !/[.;:]$/.test(line);
}

function wrapsTitle(rest: string, next: string, canonical: string): boolean {
  const c = squash(canonical);
  const r = squash(rest);
  return r.length >= 10 && c !== r && c.startsWith(r) && c.startsWith(squash(`${rest} ${next}`));
}

const ORDER_10Q = Object.keys(ITEMS_10Q);

/** Position of an item in its form's canonical order (a heading that goes backwards starts a new run). */
function orderOf(key: string, form: ItemForm): number {
  if (form === '10-K') return ORDER_10K.indexOf(key);
  if (form === '10-Q') return ORDER_10Q.indexOf(key);
  return Number(key);
}

interface Occurrence {
  b: number;
  key: string;
  run: number;
  /** Title line merged into the heading (the heading stood alone on its line). */
  titleMerged: boolean;
  body: string[];
  size: number;
}

function occurrences(flat: string[], junk: boolean[], boundaries: Boundary[], form: ItemForm): Occurrence[] {
  const out: Occurrence[] = [];
  let run = 0;
  let prevOrder = -Infinity;
  boundaries.forEach((bd, idx) => {
    const h = bd.heading;
    if (!h) return;
    const key = keyOf(h, form);
    const order = orderOf(key, form);
    if (order <= prevOrder) run++;
    prevOrder = order;
    const end = boundaries[idx + 1]?.line ?? flat.length;
    let body = bodyLines(flat, junk, h.line + 1, end);
    let titleMerged = false;
    const canonical = parseItemParam(key, form)?.title;
    if (h.rest.length > 250) body = [h.rest, ...body];
    else if (!h.rest && body.length && looksLikeTitle(body[0]!, canonical)) {
      titleMerged = true;
      body = body.slice(1);
    } else if (h.rest && body.length && canonical && wrapsTitle(h.rest, body[0]!, canonical)) {
      // A plain-text heading wrapped onto a second line ("…AND RESULTS" / "OF OPERATIONS").
      titleMerged = true;
      body = body.slice(1);
    }
    out.push({ b: idx, key, run, titleMerged, body, size: body.reduce((n, l) => n + l.length, 0) });
  });
  return out;
}

/** The document's lines (the same as `documentLines`) and where pages break: `i` in `breaks` = a page starts at line i. */
function pagedLines(doc: string): { lines: string[]; breaks: Set<number> } {
  const lines: string[] = [];
  const breaks = new Set<number>();
  for (const l of documentLines(doc, { pageBreaks: true })) {
    if (l === PAGE_BREAK) breaks.add(lines.length);
    else lines.push(l);
  }
  return { lines, breaks };
}

/**
 * Every item found in a document, in document order. Headings come in runs that follow the form's order (the
 * table of contents is one run, the body another); the run with the most text supplies each item it has, and an
 * item missing from it is taken from the occurrence followed by the most text.
 */
export function findItemSections(doc: string | string[], form: ItemForm): ItemSection[] {
  const { lines, breaks } = typeof doc === 'string' ? pagedLines(doc) : { lines: doc, breaks: new Set<number>() };
  const { flat, junk, boundaries } = scan(lines, breaks, form);
  const occ = occurrences(flat, junk, boundaries, form);
  const runSize = new Map<number, number>();
  for (const o of occ) runSize.set(o.run, (runSize.get(o.run) ?? 0) + o.size);
  let bestRun = -1;
  for (const [run, size] of runSize) if (bestRun < 0 || size > runSize.get(bestRun)!) bestRun = run;
  const chosen = new Map<string, Occurrence>();
  for (const o of occ) {
    const prev = chosen.get(o.key);
    const better = !prev || (o.run === bestRun && prev.run !== bestRun) || (prev.run !== bestRun && o.size >= prev.size);
    if (better) chosen.set(o.key, o);
  }
  const sections: ItemSection[] = [];
  for (const [key, o] of chosen) {
    const ref = parseItemParam(key, form);
    if (!ref) continue;
    const bd = boundaries[o.b]!;
    const h = bd.heading!;
    let heading = flat[h.line]!;
    if (o.titleMerged) heading = `${heading} ${bodyLines(flat, junk, h.line + 1, flat.length)[0]}`;
    else if (h.rest.length > 250) heading = heading.slice(0, heading.length - h.rest.length).trim();
    const end = boundaries[o.b + 1]?.line ?? flat.length;
    sections.push({ ...ref, heading, text: o.body.join('\n'), startLine: h.line, endLine: end });
  }
  return sections.sort((a, b) => a.startLine - b.startLine);
}

/**
 * The text of one item of a 10-K, 10-Q or 8-K document. `form` is the filing's form type (`10-K/A` works);
 * `item` as a user writes it (`1A`, `II-1A`, `5.02`). Returns null when the item is absent from the document;
 * throws RangeError when the item does not exist on that form (the API's 422).
 */
export function extractItem(doc: string | string[], form: string, item: string): ItemSection | null {
  const f = itemFormOf(form);
  if (!f) throw new RangeError(`item extraction supports 10-K, 10-Q and 8-K filings, not ${form}`);
  const ref = parseItemParam(item, f);
  if (!ref) throw new RangeError(`'${item}' is not an item of Form ${f}`);
  return findItemSections(doc, f).find((s) => s.key === ref.key) ?? null;
}
