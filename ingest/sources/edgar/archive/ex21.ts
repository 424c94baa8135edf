import { htmlToLines, looksLikeHtml, normalizeSpaces } from './html-text.ts';

/**
 * Exhibit 21 (subsidiaries of the registrant). Four layouts are common: an HTML table (name | [percent] |
 * jurisdiction), "Name (Jurisdiction)" paragraphs, plain-text columns ("Name ....... Delaware"), and indented
 * plain-text hierarchies (a child listed under its parent). Footnote marks ("(4) (5)", "*") are dropped from
 * names; header rows (column titles, a date line above them), page numbers and notes are not subsidiaries.
 */

export interface SubsidiaryRow {
  name: string;
  jurisdiction: string | null;
  /** Ownership percent where the exhibit gives one (0-100). */
  ownership_percent: number | null;
  /** 0 for top level; indented plain-text lists give deeper levels. */
  level: number;
  /** Name of the parent row for indented lists, else null. */
  parent: string | null;
}

export interface Exhibit21 {
  rows: SubsidiaryRow[];
  /** The exhibit as plain text (table cells separated by two spaces). */
  text: string;
}

const HEADER_WORDS =
  /\b(jurisdiction|incorporat|organi[sz]ation|percent|ownership|owned|country|state or|name of|subsidiar(y|ies) of|voting|domicile|registrant)\b/i;
/**
 * Column titles of a header row ("Name" | "Organized Under the Laws of" | "Jurisdiction"): a cell made only of these
 * words (once dates and punctuation are removed) is a title, and a row of titles is a header, never a subsidiary.
 * Vocabulary rather than phrases, so new wordings of the same titles ("Legal Name of Entity", "Place of Formation")
 * are recognised too; a real row always has a name or a place outside it.
 */
const TITLE_WORDS = new Set(
  (
    'name names legal exact entity entities subsidiary subsidiaries company companies corporate of the a an and or in by to under as at ' +
    'organized organised organization organisation laws law jurisdiction jurisdictions state states country countries province ' +
    'incorporation incorporated formation formed domicile domiciled place where percent percentage pct % ownership owned owner ' +
    'interest interests voting securities equity held directly indirectly parent registrant doing business d/b/a dba other ' +
    'location principal office residence nation region list significant'
  ).split(' '),
);
/** Words one title of a header row must contain (so "The" | "Other" is not a header). */
const TITLE_CORE = new RegExp(
  String.raw`\b(names?|jurisdictions?|organi[sz]ed|organi[sz]ation|laws?|incorporat\w*|formation|domicile|countr(y|ies)|state|` +
    String.raw`percent(age)?|ownership|entit(y|ies)|subsidiar(y|ies))\b`,
  'i',
);
const DATE_PHRASE =
  /\(?\b(?:as\s+(?:of|at)\s+)?(?:(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2},?\s+\d{4}|\d{1,2}\/\d{1,2}\/\d{2,4}|\d{4})\b\)?/gi;

function isDateCell(c: string): boolean {
  const rest = c.replace(DATE_PHRASE, '');
  return rest !== c && rest.replace(/[\s,.:;()]+/g, '') === '';
}

function isTitleCell(c: string): boolean {
  const words = c
    .replace(DATE_PHRASE, ' ')
    .toLowerCase()
    .replace(/[^a-z%/]+/g, ' ')
    .split(' ')
    .filter(Boolean);
  return words.length > 0 && words.every((w) => TITLE_WORDS.has(w));
}

/** A header row (titles, possibly with an "As of December 31, 2024" cell) or a date line above the titles. */
export function isHeaderRow(cells: string[]): boolean {
  const texts = cells.map((c) => c.trim()).filter(Boolean);
  if (!texts.length || !texts.every((c) => isTitleCell(c) || isDateCell(c))) return false;
  return texts.some((c) => TITLE_CORE.test(c)) || texts.every(isDateCell);
}

const FOOTNOTES = /(\s*(\(\d{1,2}\)|\*+|†|‡|\[\d{1,2}\]))+$/;
const PERCENT = /^(\d{1,3}(?:\.\d+)?)\s*%?$/;
const NOTE_LINE = /^(\(?\d{1,2}\)|\*|notes?:)/i;

function cleanName(s: string): string {
  return s
    .replace(FOOTNOTES, '')
    .replace(/\s+/g, ' ')
    .replace(/[\s,;:.–—-]+$/, (m) => (m.trim() === '.' ? '.' : ''))
    .trim();
}

function isFootnoteCell(c: string): boolean {
  return /^((\(\d{1,2}\)|\*+|†|‡|\[\d{1,2}\])\s*,?\s*)+$/.test(c);
}

/** "Name (Jurisdiction)" with a place-like parenthesis at the end of the line. */
function nameWithJurisdiction(line: string): { name: string; jurisdiction: string } | null {
  const m = /^(.{2,200}?)\s*\(([^()\d]{2,60})\)\s*$/.exec(cleanName(line));
  if (!m || HEADER_WORDS.test(m[1]!) || isHeaderRow([m[1]!, m[2]!])) return null;
  if (!/^[A-Z]/.test(m[2]!.trim())) return null;
  return { name: m[1]!.trim().replace(/,$/, ''), jurisdiction: m[2]!.trim() };
}

function rowFromCells(cells: string[]): SubsidiaryRow | null {
  const kept = cells.map((c) => c.trim()).filter((c) => c && !isFootnoteCell(c) && c !== '$');
  if (kept.length < 2) return null;
  let pct: number | null = null;
  const texts: string[] = [];
  for (const c of kept) {
    const m = PERCENT.exec(c);
    if (m && pct === null && Number(m[1]) <= 100) pct = Number(m[1]);
    else texts.push(c);
  }
  if (!texts.length) return null;
  const name = cleanName(texts[0]!);
  if (!name || HEADER_WORDS.test(texts.join(' ')) || NOTE_LINE.test(name) || isHeaderRow(texts.map(cleanName))) return null;
  const jurisdiction = texts.length > 1 ? cleanName(texts[texts.length - 1]!) : null;
  return { name, jurisdiction: jurisdiction || null, ownership_percent: pct, level: 0, parent: null };
}

function parseHtml(html: string): Exhibit21 {
  const lines = htmlToLines(html, { rowsAsLines: true });
  const rows: SubsidiaryRow[] = [];
  for (const line of lines) {
    const row = line.includes('\t') ? rowFromCells(line.split('\t')) : null;
    if (row) {
      rows.push(row);
      continue;
    }
    const flat = line.replace(/\t/g, ' ');
    if (NOTE_LINE.test(flat) || flat.length > 250) continue;
    const nj = nameWithJurisdiction(flat);
    if (nj) rows.push({ ...nj, ownership_percent: null, level: 0, parent: null });
  }
  return { rows, text: lines.map((l) => l.replace(/\t/g, '  ')).join('\n') };
}

/** Plain-text exhibits keep their column alignment and indentation, so they are parsed from raw lines. */
function parseText(text: string): Exhibit21 {
  const raw = text.split(/\r\n|\r|\n/).filter((l) => !/^\s*<\/?(PAGE|TEXT|TABLE|CAPTION|S|C)>/i.test(l));
  const rows: SubsidiaryRow[] = [];
  const indents: number[] = [];
  const parents: SubsidiaryRow[] = [];
  for (const l of raw) {
    // Runs of spaces are the column gaps and the indentation here: only odd spaces are normalized, never folded.
    const line = l
      .replace(/\t/g, '    ')
      .replace(/[\u00a0\u2007\u202f\u2002\u2003\u2009]/g, ' ')
      .replace(/\u200b|\u200c|\u200d|\ufeff/g, '')
      .replace(/\s+$/, '');
    const trimmed = line.trim();
    if (!trimmed || NOTE_LINE.test(trimmed) || /^-?\s*\d{1,3}\s*-?$/.test(trimmed) || /^[-=_ ]+$/.test(trimmed)) continue;
    const indent = line.length - line.trimStart().length;
    // Column layouts: two or more spaces or a dot leader separate name, percent and jurisdiction.
    const cells = trimmed.split(/\s{2,}|\.{3,}\s*/).filter(Boolean);
    let row = cells.length >= 2 ? rowFromCells(cells) : null;
    if (!row) {
      const nj = nameWithJurisdiction(trimmed);
      if (nj) row = { ...nj, ownership_percent: null, level: 0, parent: null };
      else if (
        !HEADER_WORDS.test(trimmed) &&
        !isHeaderRow([trimmed]) &&
        /\b(inc|llc|ltd|limited|corp|corporation|company|co|gmbh|b\.v|s\.a|plc|lp|l\.p|ag|n\.v|pty|s\.r\.l|k\.k)\b\.?/i.test(trimmed)
      ) {
        row = { name: cleanName(trimmed), jurisdiction: null, ownership_percent: null, level: 0, parent: null };
      }
    }
    if (!row) continue;
    while (indents.length && indents[indents.length - 1]! >= indent) {
      indents.pop();
      parents.pop();
    }
    row.level = indents.length;
    row.parent = parents.length ? parents[parents.length - 1]!.name : null;
    indents.push(indent);
    parents.push(row);
    rows.push(row);
  }
  return {
    rows,
    text: raw
      .map((l) => normalizeSpaces(l).trimEnd())
      .join('\n')
      .trim(),
  };
}

export function parseExhibit21(body: string): Exhibit21 {
  return looksLikeHtml(body) ? parseHtml(body) : parseText(body);
}
