import { cleanText, normalizeAccession, padCik } from '../../common/normalize.ts';

/**
 * The regulator's "Latest Filings" Atom feed (`cgi-bin/browse-edgar?action=getcurrent&output=atom`,
 * docs/formats/01-edgar-indexes.md): newest first, paged by `start`/`count` (at most 100 a page), ISO-8859-1
 * encoded, `<updated>` with an Eastern offset. One filing appears once per party (Filer, Reporting, Issuer,
 * Subject, Filed by), each entry linking the archive folder under that party's CIK; `groupFeedFilings` folds
 * them back into one filing per accession.
 */

export interface FeedEntry {
  accession: string;
  form: string;
  cik: string;
  name: string;
  /** `Filer`, `Reporting`, `Issuer`, `Subject`, `Filed by`… as published. */
  role: string | null;
  /** UTC ISO timestamp of `<updated>` (the acceptance time the feed shows). */
  updated: string;
  /** `YYYY-MM-DD` from the summary's `Filed:` line; null when absent. */
  filedDate: string | null;
}

export interface FeedFiling {
  accession: string;
  form: string;
  updated: string;
  filedDate: string | null;
  parties: { cik: string; name: string; role: string | null }[];
}

const ENTRY = /<entry>([\s\S]*?)<\/entry>/g;
const TITLE = /^(.*?) - (.*) \((\d{1,10})\)(?: \(([^)]+)\))?$/;

function tag(block: string, name: string): string | null {
  const m = block.match(new RegExp(`<${name}[^>]*>([\\s\\S]*?)</${name}>`));
  return m ? m[1] : null;
}

function unescapeXml(s: string): string {
  return s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

/** Decodes the feed's bytes: it declares ISO-8859-1, so a company name's accent is one byte, not UTF-8. */
export function decodeFeed(body: Buffer): string {
  const head = body.subarray(0, 200).toString('latin1');
  return /encoding="utf-8"/i.test(head) ? body.toString('utf8') : body.toString('latin1');
}

/** Entries of one feed page in feed order (newest first); entries without an accession or a CIK are skipped. */
export function parseCurrentFeed(xml: string): FeedEntry[] {
  const out: FeedEntry[] = [];
  for (const m of xml.matchAll(ENTRY)) {
    const block = m[1];
    const accession = normalizeAccession(tag(block, 'id')?.match(/accession-number=([\d-]+)/)?.[1] ?? '');
    const title = cleanText(unescapeXml(tag(block, 'title') ?? ''))?.match(TITLE);
    const updatedRaw = tag(block, 'updated')?.trim();
    const updated = updatedRaw && !Number.isNaN(Date.parse(updatedRaw)) ? new Date(updatedRaw).toISOString() : null;
    const cik = title ? padCik(title[3]) : null;
    if (!accession || !title || !cik || !updated) continue;
    const category = block.match(/<category[^>]*term="([^"]*)"/)?.[1];
    const filed = unescapeXml(tag(block, 'summary') ?? '').match(/Filed:<\/b>\s*(\d{4}-\d{2}-\d{2})/)?.[1] ?? null;
    out.push({
      accession,
      form: cleanText(category ?? title[1]) ?? title[1],
      cik,
      name: title[2].trim(),
      role: title[4] ?? null,
      updated,
      filedDate: filed,
    });
  }
  return out;
}

/** One filing per accession, in first-seen order (the feed's newest first), with every party it was listed under. */
export function groupFeedFilings(entries: FeedEntry[]): FeedFiling[] {
  const byAcc = new Map<string, FeedFiling>();
  for (const e of entries) {
    let f = byAcc.get(e.accession);
    if (!f) {
      f = { accession: e.accession, form: e.form, updated: e.updated, filedDate: e.filedDate, parties: [] };
      byAcc.set(e.accession, f);
    }
    if (!f.parties.some((p) => p.cik === e.cik)) f.parties.push({ cik: e.cik, name: e.name, role: e.role });
  }
  return [...byAcc.values()];
}

/** One page of the feed, all forms, owner filings (Forms 3/4/5) included. */
export function currentFeedUrl(base: string, start: number, count: number): string {
  return `${base}/cgi-bin/browse-edgar?action=getcurrent&type=&company=&dateb=&owner=include&start=${start}&count=${count}&output=atom`;
}

/** The full submission `.txt` of a filing (header and every document: one request covers every parser). */
export function submissionTxtUrl(base: string, cik: string, accession: string): string {
  return `${base}/Archives/edgar/data/${Number(cik)}/${accession.replace(/-/g, '')}/${accession}.txt`;
}
