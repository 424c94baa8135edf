import { findItemSections } from './extract.ts';
import { ITEMS_8K, ITEMS_8K_LEGACY } from './items.ts';

/**
 * The 8-K item classifier: which items a current report reports, each with its canonical title and a short
 * excerpt of its text. The document's own item headings decide (a mention of "Item 1.05" inside another item is
 * not a heading); the filing header's item list, when the caller has it, adds items whose heading the document
 * lacks (excerpt null) — the header is what the filer declared to the regulator.
 */

export interface Classified8kItem {
  /** `5.02`; legacy (pre-2004-08-23) reports use `1`…`12`. */
  item: string;
  title: string;
  /** About the first 300 characters of the item's text; null when the heading was not found in the text. */
  excerpt: string | null;
  /** `document` (heading found in the text) or `header` (declared in the filing header only). */
  source: 'document' | 'header';
}

export function excerptOf(text: string, max = 300): string | null {
  // Plain-text filings rule sections off with dashes or equals signs: not text.
  const t = text
    .replace(/[-=_*]{3,}/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (!t) return null;
  if (t.length <= max) return t;
  const cut = t.lastIndexOf(' ', max);
  return `${t.slice(0, cut > max * 0.6 ? cut : max)}…`;
}

function titleOf8kItem(item: string): string | null {
  return ITEMS_8K[item] ?? ITEMS_8K_LEGACY[item] ?? null;
}

const squash = (s: string) =>
  s
    .toLowerCase()
    .replace(/[’`]/g, "'")
    .replace(/[^a-z0-9']+/g, ' ')
    .trim();

/** Older captions the SGML header still carries for renamed items. */
const TITLE_ALIASES: [string, string][] = [
  ['departure of directors or principal officers', '5.02'],
  ['results of operations and financial condition', '2.02'],
  ['regulation fd disclosure', '7.01'],
  ['other events', '8.01'],
  ['financial statements and exhibits', '9.01'],
];

const LEGACY_TITLE_ALIASES: [string, string][] = [
  ['financial statements and exhibits', '7'],
  ['other events', '5'],
];

/**
 * SGML header `ITEM INFORMATION` titles → item numbers. `legacy` (filings before 2004-08-23) maps to the
 * old 1-12 numbering. Unrecognised titles are skipped.
 */
export function itemNumbersFromTitles(titles: string[], legacy = false): string[] {
  const out: string[] = [];
  const table = legacy ? ITEMS_8K_LEGACY : ITEMS_8K;
  for (const raw of titles) {
    const t = squash(raw);
    if (!t) continue;
    let hit: string | undefined;
    for (const [num, title] of Object.entries(table)) {
      const c = squash(title);
      if (t === c || t.startsWith(c.slice(0, 30)) || c.startsWith(t.slice(0, 30))) {
        hit = num;
        break;
      }
    }
    if (!hit) hit = (legacy ? LEGACY_TITLE_ALIASES : TITLE_ALIASES).find(([alias]) => t.startsWith(alias))?.[1];
    if (hit && !out.includes(hit)) out.push(hit);
  }
  return out;
}

/** Classifies an 8-K document (HTML, plain text, or its text lines). */
export function classify8kItems(doc: string | string[], headerItems: string[] = []): Classified8kItem[] {
  const found = findItemSections(doc, '8-K')
    .filter((s) => titleOf8kItem(s.number) !== null)
    .map((s): Classified8kItem => ({ item: s.number, title: titleOf8kItem(s.number)!, excerpt: excerptOf(s.text), source: 'document' }));
  const have = new Set(found.map((f) => f.item));
  for (const item of headerItems) {
    const title = titleOf8kItem(item);
    if (title && !have.has(item)) found.push({ item, title, excerpt: null, source: 'header' });
  }
  return found.sort((a, b) => Number(a.item) - Number(b.item));
}
