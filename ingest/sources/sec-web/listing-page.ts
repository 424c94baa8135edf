import { parseDocument, DomUtils } from 'htmlparser2';
import type { Element } from 'domhandler';
import { cleanText, toIsoDate } from '../common/normalize.ts';
import { UnparsablePageError } from './errors.ts';
import { civilActionNumberIn, fileNumbersIn, releaseNumbersIn } from './release-numbers.ts';

/**
 * Tolerant reader of the regulator's release listing pages. The site is a Drupal build whose markup changes
 * (new `enforcement-litigation/*` tables with `views-field-*` cells, legacy `litreleases.htm` tables, card
 * lists), so nothing depends on one class name: every table row or views row is read for what it holds — a
 * date (`<time datetime>` or printed), release numbers (by their published shapes), the name link, the
 * "See also" documents — and each field is null when absent.
 */

export interface ListingLink {
  title: string;
  url: string;
}

export interface ListingRow {
  /** 1-based position of the row on the page (bad-row reports point at it). */
  position: number;
  date: string | null;
  /** Release numbers found in the row, the row's own first. */
  releaseNumbers: string[];
  /** Administrative file numbers `3-NNNNN`. */
  fileNumbers: string[];
  civilActionNumber: string | null;
  /** Respondents / defendants / company, as printed. */
  name: string | null;
  /** Link of the release's own page when the row has one. */
  detailUrl: string | null;
  /** Other documents linked from the row (complaint, order, press release…). */
  documents: ListingLink[];
  /** Any free text of the row beyond name, number and date (summary, description). */
  summary: string | null;
  /** The whole row as text, for money and keyword extraction. */
  text: string;
}

export interface ListingPage {
  url: string;
  rows: ListingRow[];
  /** Absolute URL of the next page when the page links one. */
  nextUrl: string | null;
}

const NAME_HINT = /respondent|defendant|name|title|company|issuer|display-title|headline|subject/i;
const DATE_HINT = /date|publish|time/i;
const NUMBER_HINT = /release|number|no\./i;
const SUMMARY_HINT = /summary|description|body|teaser|details/i;
const EMPTY_PAGE = /no (results|releases|records|items)|nothing (was )?found|there are no/i;
const PRINTED_DATE =
  /\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\.?\s+\d{1,2},?\s+\d{4}\b|\b\d{1,2}\/\d{1,2}\/\d{4}\b|\b\d{4}-\d{2}-\d{2}\b/;

const BLOCK = new Set(['div', 'p', 'br', 'li', 'td', 'th', 'tr', 'h1', 'h2', 'h3', 'h4', 'section', 'article', 'span', 'time', 'ul', 'ol']);

/** Text of a subtree with block boundaries kept as spaces ("LR-26040</div><div>See Also" must not fuse). */
function text(el: Element | Element[]): string {
  const parts: string[] = [];
  const walk = (nodes: readonly unknown[]) => {
    for (const n of nodes as { type: string; data?: string; name?: string; children?: unknown[] }[]) {
      if (n.type === 'text') parts.push(n.data ?? '');
      else if (n.children) {
        const block = BLOCK.has(n.name ?? '');
        if (block) parts.push(' ');
        walk(n.children);
        if (block) parts.push(' ');
      }
    }
  };
  walk(Array.isArray(el) ? el : [el]);
  return cleanText(parts.join('')) ?? '';
}

function classOf(el: Element): string {
  // Drupal's `field--name-` prefix would make every field look like a "name" cell.
  return `${el.attribs?.class ?? ''} ${el.attribs?.headers ?? ''}`.replace(/field--name-/g, 'field-');
}

function absolute(href: string, base: string): string | null {
  try {
    return new URL(href.trim(), base).toString();
  } catch {
    return null;
  }
}

function printedDate(s: string): string | null {
  const m = s.match(PRINTED_DATE);
  return m ? toIsoDate(m[0].replace(/\s+/g, ' ')) : null;
}

function isInside(el: Element, ancestor: Element): boolean {
  for (let p = el.parent; p; p = p.parent) if (p === ancestor) return true;
  return false;
}

/** Row candidates: data rows of tables (not header rows) and Drupal views rows / cards. */
function rowElements(doc: ReturnType<typeof parseDocument>): Element[] {
  const trs = DomUtils.findAll((e) => e.name === 'tr' && DomUtils.findAll((c) => c.name === 'td', e.children).length > 0, doc.children);
  if (trs.length) return trs;
  return (
    DomUtils.findAll((e) => /\b(views-row|release-view|card|list-item)\b/.test(e.attribs?.class ?? '') || e.name === 'article', doc.children)
      // Nested matches (an article inside a views-row) would read the same release twice.
      .filter((e, _i, all) => !all.some((o) => o !== e && isInside(e, o)))
  );
}

/** Header texts of the row's table, by column index, so cells without classes still have a meaning. */
function headersFor(row: Element): string[] {
  let table: Element | null = row.parent as Element | null;
  while (table && table.name !== 'table') table = table.parent as Element | null;
  if (!table) return [];
  const ths = DomUtils.findAll((e) => e.name === 'th', table.children);
  return ths.map((th) => `${text(th)} ${classOf(th)} ${th.attribs?.id ?? ''}`);
}

function cellsOf(row: Element): Element[] {
  const tds = row.children.filter((c): c is Element => (c as Element).name === 'td' || (c as Element).name === 'th');
  if (tds.length) return tds;
  // Cards: direct children with a field-ish class.
  return DomUtils.findAll((e) => /\b(views-field|field--|field-)/.test(e.attribs?.class ?? ''), row.children);
}

function isDocumentLink(url: string, base: string): boolean {
  return /\.(pdf|txt)$/i.test(url) || /\/files\//.test(url) || new URL(url).host !== new URL(base).host;
}

/** What follows the names in a combined cell of the new site ("… Release No. LR-26613 See Also: …"). */
const CELL_TRAILERS = /\s*(?:Release No\.?|Rel\. No\.|See Also:?)/i;

function readRow(row: Element, position: number, base: string, headers: string[]): ListingRow | null {
  const rowText = text(row);
  if (!rowText) return null;
  const cells = cellsOf(row);
  const hintOf = (c: Element, i: number) => `${classOf(c)} ${headers[i] ?? ''}`;

  const time = DomUtils.findOne((e) => e.name === 'time', [row]);
  let date = time?.attribs?.datetime ? toIsoDate(time.attribs.datetime.slice(0, 10)) : null;
  if (!date) {
    const dateCell = cells.find((c, i) => DATE_HINT.test(hintOf(c, i)));
    date = printedDate(dateCell ? text(dateCell) : '') ?? printedDate(rowText);
  }

  const numberCell = cells.find((c, i) => NUMBER_HINT.test(hintOf(c, i)) && releaseNumbersIn(text(c)).length > 0);
  const releaseNumbers = [...new Set([...releaseNumbersIn(numberCell ? text(numberCell) : ''), ...releaseNumbersIn(rowText)])];

  const links: ListingLink[] = [];
  for (const a of DomUtils.findAll((e) => e.name === 'a' && !!e.attribs?.href, [row])) {
    const url = absolute(a.attribs.href, base);
    const title = text(a);
    if (url && title && !url.startsWith('mailto:')) links.push({ title, url });
  }
  const isLabel = (s: string) => releaseNumbersIn(s).length > 0 && s.replace(/[^A-Za-z]/g, '').length <= 8;
  const nameCell = cells.find((c, i) => NAME_HINT.test(hintOf(c, i)) && !DATE_HINT.test(classOf(c)));
  const nameLinkEl = nameCell ? DomUtils.findOne((e) => e.name === 'a' && !!e.attribs?.href, [nameCell]) : null;
  const nameLink = nameLinkEl ? links.find((l) => l.title === text(nameLinkEl)) : undefined;
  const pageLinks = links.filter((l) => !isDocumentLink(l.url, base) && !printedDate(l.title));
  // New site: the respondents' names link the release page; legacy tables link it from the release number.
  const detail = nameLink ?? pageLinks.find((l) => !isLabel(l.title)) ?? pageLinks.find((l) => isLabel(l.title));
  let name: string | null = null;
  if (nameCell) name = cleanText(nameLink?.title ?? text(nameCell).split(CELL_TRAILERS)[0]);
  if (!name && detail && !isLabel(detail.title)) name = detail.title;
  if (!name) {
    // Last resort: the longest cell that is neither the date nor a bare number.
    // Document link titles ("SEC Complaint") share the cell with the caption; they are not names.
    const withoutDocs = (t: string) => links.filter((l) => isDocumentLink(l.url, base)).reduce((acc, l) => acc.replace(l.title, ' '), t);
    const candidates = cells.map((c) => cleanText(withoutDocs(text(c))) ?? '').filter((t) => t && !isLabel(t) && !printedDate(t));
    name = cleanText(candidates.sort((a, b) => b.length - a.length)[0]?.split(CELL_TRAILERS)[0]);
  }

  const summaryCell = cells.find((c, i) => SUMMARY_HINT.test(hintOf(c, i)));
  const summary = summaryCell ? cleanText(text(summaryCell)) : null;

  return {
    position,
    date,
    releaseNumbers,
    fileNumbers: fileNumbersIn(rowText),
    civilActionNumber: civilActionNumberIn(rowText),
    name,
    detailUrl: detail?.url ?? null,
    documents: links.filter((l) => l.url !== detail?.url),
    summary,
    text: rowText,
  };
}

function nextLink(doc: ReturnType<typeof parseDocument>, base: string): string | null {
  const a = DomUtils.findOne(
    (e) =>
      e.name === 'a' &&
      !!e.attribs?.href &&
      (e.attribs.rel === 'next' ||
        /pager__item--next|usa-pagination__next|pager-next|next-page/.test(`${e.attribs.class ?? ''} ${(e.parent as Element | null)?.attribs?.class ?? ''}`) ||
        /^next\b/i.test(text(e))),
    doc.children,
  );
  return a ? absolute(a.attribs.href, base) : null;
}

/**
 * Reads one listing page. Rows without a date or release number are kept (the dataset counts them as bad
 * rows); a page with rows none of which carry a release number, or with no rows and no "no results" note,
 * throws with the URL.
 */
export function parseListingPage(html: string, url: string, base = url): ListingPage {
  const doc = parseDocument(html, { decodeEntities: true });
  const elements = rowElements(doc);
  const rows: ListingRow[] = [];
  let position = 0;
  for (const el of elements) {
    const row = readRow(el, ++position, base, headersFor(el));
    if (row) rows.push(row);
  }
  if (!rows.length) {
    if (EMPTY_PAGE.test(text(doc.children as Element[]))) return { url, rows, nextUrl: null };
    throw new UnparsablePageError(url, 'no release rows found (no table rows or views rows; layout changed?)');
  }
  if (!rows.some((r) => r.releaseNumbers.length > 0)) {
    throw new UnparsablePageError(url, `${rows.length} rows but none carries a release number (layout changed?)`);
  }
  return { url, rows, nextUrl: nextLink(doc, base) };
}

export interface DetailPage {
  url: string;
  title: string | null;
  date: string | null;
  releaseNumbers: string[];
  fileNumbers: string[];
  civilActionNumber: string | null;
  /** The release body as plain text. */
  body: string | null;
  documents: ListingLink[];
}

const BODY_SELECTORS: ((e: Element) => boolean)[] = [
  (e) => /field--name-body|article-body|release-body/.test(e.attribs?.class ?? ''),
  (e) => e.name === 'article',
  (e) => e.name === 'main' || e.attribs?.id === 'main-content' || e.attribs?.role === 'main',
  (e) => e.name === 'body',
];

/** A release's own page (new or legacy site); every field tolerant, body text for amounts and case numbers. */
export function parseDetailPage(html: string, url: string, base = url): DetailPage {
  const doc = parseDocument(html, { decodeEntities: true });
  // Scripts, styles and navigation are not release text ("CIK Lookup" menus would pollute keyword searches).
  const furniture = DomUtils.findAll((e) => ['script', 'style', 'nav', 'header', 'footer', 'noscript'].includes(e.name), doc.children);
  for (const e of furniture) DomUtils.removeElement(e);
  let bodyEl: Element | null = null;
  for (const sel of BODY_SELECTORS) {
    bodyEl = DomUtils.findOne(sel, doc.children);
    if (bodyEl) break;
  }
  const all = bodyEl ? text(bodyEl) : text(doc.children as Element[]);
  const h1 = DomUtils.findOne((e) => e.name === 'h1', doc.children) ?? DomUtils.findOne((e) => e.name === 'title', doc.children);
  const time = DomUtils.findOne((e) => e.name === 'time' && !!e.attribs?.datetime, doc.children);
  const documents: ListingLink[] = [];
  for (const a of DomUtils.findAll((e) => e.name === 'a' && !!e.attribs?.href, bodyEl ? [bodyEl] : doc.children)) {
    const u = absolute(a.attribs.href, base);
    const t = text(a);
    if (u && t && /\.pdf$|\/files\//i.test(u)) documents.push({ title: t, url: u });
  }
  return {
    url,
    title: h1 ? cleanText(text(h1)) : null,
    date: (time ? toIsoDate(time.attribs.datetime.slice(0, 10)) : null) ?? printedDate(all),
    // From the body only: menus and "related releases" blocks would attach other releases to this one.
    releaseNumbers: releaseNumbersIn(all),
    fileNumbers: fileNumbersIn(all),
    civilActionNumber: civilActionNumberIn(all),
    body: cleanText(all),
    documents,
  };
}
