import { itemNumbersFromTitles } from './classify-8k.ts';
import { parseSubmissionHeader } from '../sgml.ts';

/**
 * A filing's `{acc20}-index-headers.html` page: its SGML header alone (a few KB, where the full submission `.txt`
 * of an 8-K with exhibits runs to megabytes), tagged dialect inside an HTML comment and the colon dialect
 * HTML-escaped inside `<PRE>` (docs/formats/01-edgar-indexes.md). Enough for the filing index's enrichment:
 * 8-K items and the acceptance time.
 */
export function indexHeadersUrl(base: string, cik: string, accession: string): string {
  return `${base}/Archives/edgar/data/${Number(cik)}/${accession.replace(/-/g, '')}/${accession}-index-headers.html`;
}

export interface HeaderFacts {
  /** 8-K item numbers (`5.02`), from `<ITEMS>` numbers or mapped `ITEM INFORMATION` titles. */
  items: string[];
  /** `YYYYMMDDHHMMSS`, Eastern, as published; null when absent. */
  accepted: string | null;
}

export function parseIndexHeadersPage(html: string, filedDate: string | null): HeaderFacts {
  const comment = html.match(/<!--([\s\S]*?)-->/)?.[1];
  const pre = html.match(/<PRE>([\s\S]*?)<\/PRE>/i)?.[1];
  const text = comment?.includes('<SEC-HEADER>') ? comment : (pre ?? '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  const h = parseSubmissionHeader(text);
  const numbers = h.items.filter((i) => /^\d{1,2}\.\d{2}$/.test(i));
  const titles = h.items.filter((i) => !/^\d{1,2}\.\d{2}$/.test(i));
  const legacy = filedDate != null && filedDate < '2004-08-23';
  return { items: [...new Set([...numbers, ...itemNumbersFromTitles(titles, legacy)])], accepted: h.accepted };
}
