import { readFile, readdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { IngestArgs, IngestContext, LoadContext, RawInput } from '../common/context.ts';
import { UpstreamError } from '../common/http.ts';
import { quarterBounds } from '../common/normalize.ts';
import { parseDetailPage, parseListingPage, type DetailPage, type ListingLink } from './listing-page.ts';
import { splitNames } from './names.ts';
import { normalizeReleaseNumber } from './release-numbers.ts';
import { parseRss } from './rss.ts';

/**
 * Everything the enforcement-family datasets share: which pages to fetch for a run, and how listing rows,
 * RSS items and release pages of one release merge into one record. Each dataset then maps records to its
 * table.
 */

export interface ListingSource {
  /** Path of the listing page on SEC_BASE_URL, e.g. `/enforcement-litigation/litigation-releases`. */
  listingPath: string;
  /** Path of the RSS feed, when the publication has one. */
  rssPath?: string;
  /** Fetch each release's own page (amounts and case numbers are only in the body). */
  detailPages: boolean;
}

export type InputKind = 'rss' | 'listing' | 'detail';

/** Listing pages to follow per month before giving up (a month never has more than a few pages). */
const MAX_PAGES_PER_MONTH = 40;

/** Months a run covers: `--date` its month, `--period` its quarter, default this month and the previous one. */
function monthsFor(args: IngestArgs, today = new Date()): { year: number; month: number }[] {
  if (args.date) {
    const m = args.date.match(/^(\d{4})-(\d{2})/);
    if (!m) throw new Error(`--date must be YYYY-MM-DD (got ${args.date})`);
    return [{ year: +m[1], month: +m[2] }];
  }
  if (args.period) {
    const q = quarterBounds(args.period);
    if (!q) throw new Error(`--period must be a quarter like 2024Q3 (got ${args.period})`);
    const first = (q.quarter - 1) * 3 + 1;
    return [0, 1, 2].map((i) => ({ year: q.year, month: first + i }));
  }
  const y = today.getUTCFullYear();
  const mo = today.getUTCMonth() + 1;
  return [mo === 1 ? { year: y - 1, month: 12 } : { year: y, month: mo - 1 }, { year: y, month: mo }];
}

/** A file of a `--from` folder, classified by its name (the layout `sample()` writes). */
function kindOfFile(name: string): InputKind | null {
  if (/\.(xml|rss)$/i.test(name)) return 'rss';
  if (!/\.html?$/i.test(name)) return null;
  if (/^(lr|aaer|ia|ic|33|34)-?\d{3,6}(-s)?\.html?$/i.test(name)) return 'detail';
  return 'listing';
}

async function filesUnder(from: string): Promise<string[]> {
  const s = await stat(from);
  if (s.isFile()) return [from];
  const out: string[] = [];
  for (const e of (await readdir(from, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
    const p = join(from, e.name);
    if (e.isDirectory()) out.push(...(await filesUnder(p)));
    else out.push(p);
  }
  return out;
}

export async function listingInputs(ctx: IngestContext, args: IngestArgs, source: ListingSource): Promise<RawInput[]> {
  if (args.from) {
    const inputs: RawInput[] = [];
    for (const path of await filesUnder(args.from)) {
      const kind = kindOfFile(basename(path));
      if (kind) inputs.push({ path, url: null, meta: { kind } });
    }
    if (!inputs.length) throw new Error(`${args.from}: no listing pages (.html) or feeds (.xml) found`);
    return inputs;
  }
  const base = ctx.settings.SEC_BASE_URL;
  const inputs: RawInput[] = [];
  if (source.rssPath) {
    const url = `${base}${source.rssPath}`;
    try {
      // Feeds change every day: always re-read them.
      inputs.push({ path: await ctx.http.download(url, { refresh: true }), url, meta: { kind: 'rss' } });
    } catch (err) {
      // The feed only supplements the listing pages; its absence is worth a note, not a failed run.
      if (!(err instanceof UpstreamError && err.kind === 'not_found')) throw err;
      ctx.log(`feed not found, listing pages only: ${url}`);
    }
  }
  const now = new Date();
  const seen = new Set<string>();
  for (const { year, month } of monthsFor(args, now)) {
    const current = year === now.getUTCFullYear() && month === now.getUTCMonth() + 1;
    let url: string | null = `${base}${source.listingPath}?month=${month}&year=${year}`;
    for (let page = 0; url && page < MAX_PAGES_PER_MONTH && !seen.has(url); page++) {
      seen.add(url);
      const res = await ctx.http.get(url, { cache: 'raw', refresh: current });
      const parsed = parseListingPage(res.body.toString('utf8'), url);
      inputs.push({ path: res.path!, url, meta: { kind: 'listing' } });
      ctx.progress.note(`${url}: ${parsed.rows.length} rows`);
      if (source.detailPages) {
        for (const row of parsed.rows) {
          // Only the regulator's own pages: a row may link an outside site.
          if (!row.detailUrl || new URL(row.detailUrl).origin !== new URL(base).origin) continue;
          try {
            inputs.push({ path: await ctx.http.download(row.detailUrl), url: row.detailUrl, meta: { kind: 'detail' } });
          } catch (err) {
            if (!(err instanceof UpstreamError && err.kind === 'not_found')) throw err;
            ctx.log(`release page not found (listing row kept): ${row.detailUrl}`);
          }
        }
      }
      url = parsed.nextUrl;
    }
  }
  return inputs;
}

/** One release, merged from every place it was seen. */
export interface ReleaseRecord {
  releaseNumber: string;
  otherReleaseNumbers: string[];
  date: string;
  /** The respondents / defendants / company line, as published. */
  title: string | null;
  names: string[];
  moreNames: boolean;
  summary: string | null;
  /** Body text of the release page, when fetched. */
  body: string | null;
  fileNumbers: string[];
  civilActionNumber: string | null;
  documents: ListingLink[];
  detailUrl: string | null;
  /** Where the row was read: the listing page or feed URL (or the local file for `--from`). */
  sourceUrl: string | null;
  seenIn: InputKind[];
}

function mergeLinks(a: ListingLink[], b: ListingLink[]): ListingLink[] {
  const out = [...a];
  for (const l of b) if (!out.some((o) => o.url === l.url)) out.push(l);
  return out;
}

/**
 * Reads all inputs of a run into release records (by release number). Rows without a release number or a
 * date become bad rows; an unparsable page or feed throws with its URL. `keep` chooses the releases of the
 * dataset by number (a trading-suspension page also links press releases).
 */
export async function readReleases(ctx: LoadContext, inputs: RawInput[], keep: (releaseNumber: string) => boolean): Promise<ReleaseRecord[]> {
  const byNumber = new Map<string, ReleaseRecord>();
  const details = new Map<string, DetailPage>();
  const upsert = (r: Omit<ReleaseRecord, 'seenIn'>, kind: InputKind) => {
    const old = byNumber.get(r.releaseNumber);
    if (!old) {
      byNumber.set(r.releaseNumber, { ...r, seenIn: [kind] });
      return;
    }
    // Listing pages are richer than the feed: later non-null values fill, listing values win.
    const prefer = kind === 'listing';
    for (const [k, v] of Object.entries(r) as [keyof ReleaseRecord, unknown][]) {
      if (v == null || (Array.isArray(v) && !v.length)) continue;
      if (old[k] == null || (Array.isArray(old[k]) && !(old[k] as unknown[]).length) || prefer) (old as unknown as Record<string, unknown>)[k] = v;
    }
    old.documents = mergeLinks(old.documents, r.documents);
    if (!old.seenIn.includes(kind)) old.seenIn.push(kind);
  };

  for (const input of inputs) {
    const kind = (input.meta?.kind as InputKind | undefined) ?? kindOfFile(basename(input.path));
    const where = input.url ?? input.path;
    // Local copies (`--from`) link the site with relative hrefs: resolve them against the regulator's host.
    const base = input.url ?? `${ctx.settings?.SEC_BASE_URL ?? 'https://www.sec.gov'}/`;
    const text = await readFile(input.path, 'utf8');
    ctx.progress.bytes(Buffer.byteLength(text));
    if (kind === 'detail') {
      const page = parseDetailPage(text, where, base);
      const own = normalizeReleaseNumber(basename(input.path).replace(/\.html?$/i, '')) ?? page.releaseNumbers.find(keep);
      if (own) details.set(own, page);
      if (input.url) details.set(input.url, page);
      continue;
    }
    if (kind === 'rss') {
      const items = parseRss(text, where);
      items.forEach((item, i) => {
        const number = normalizeReleaseNumber(item.creator) ?? normalizeReleaseNumber(item.title) ?? normalizeReleaseNumber(item.guid);
        if (!number || !item.pubDate) {
          ctx.badRow({ file: where, line: i + 1, reason: `feed item without ${number ? 'pubDate' : 'release number'}: ${item.title ?? '(no title)'}` });
          return;
        }
        if (!keep(number)) return;
        const names = splitNames(item.title);
        upsert(
          {
            releaseNumber: number,
            otherReleaseNumbers: [],
            date: item.pubDate,
            title: item.title,
            names: names.names,
            moreNames: names.more,
            summary: item.description && item.description !== item.title ? item.description : null,
            body: null,
            fileNumbers: [],
            civilActionNumber: null,
            documents: [],
            detailUrl: item.link,
            sourceUrl: where,
          },
          'rss',
        );
      });
      continue;
    }
    const page = parseListingPage(text, where, base);
    for (const row of page.rows) {
      const own = row.releaseNumbers.filter(keep);
      if (!own.length || !row.date) {
        // A row of another family (a press release linked from the table) is not an error.
        if (row.releaseNumbers.length && !own.length) continue;
        ctx.badRow({ file: where, line: row.position, reason: `listing row without ${own.length ? 'date' : 'release number'}: ${row.text.slice(0, 120)}` });
        continue;
      }
      const names = splitNames(row.name);
      upsert(
        {
          releaseNumber: own[0],
          otherReleaseNumbers: row.releaseNumbers.filter((n) => n !== own[0]),
          date: row.date,
          title: row.name,
          names: names.names,
          moreNames: names.more,
          summary: row.summary,
          body: null,
          fileNumbers: row.fileNumbers,
          civilActionNumber: row.civilActionNumber,
          documents: row.documents,
          detailUrl: row.detailUrl,
          sourceUrl: where,
        },
        'listing',
      );
    }
  }

  for (const rec of byNumber.values()) {
    const page = details.get(rec.releaseNumber) ?? (rec.detailUrl ? details.get(rec.detailUrl) : undefined);
    if (!page) continue;
    rec.body = page.body;
    rec.title ??= page.title;
    rec.fileNumbers = [...new Set([...rec.fileNumbers, ...page.fileNumbers])];
    rec.civilActionNumber ??= page.civilActionNumber;
    rec.documents = mergeLinks(rec.documents, page.documents);
    for (const n of page.releaseNumbers) if (n !== rec.releaseNumber && !rec.otherReleaseNumbers.includes(n)) rec.otherReleaseNumbers.push(n);
    if (!rec.seenIn.includes('detail')) rec.seenIn.push('detail');
  }
  return [...byNumber.values()].sort((a, b) => (a.date === b.date ? a.releaseNumber.localeCompare(b.releaseNumber) : a.date.localeCompare(b.date)));
}

/** Litigation releases: read by the litigation dataset and, as one family of actions, by enforcement. */
export const LITIGATION_SOURCE: ListingSource = {
  listingPath: '/enforcement-litigation/litigation-releases',
  rssPath: '/enforcement-litigation/litigation-releases/rss',
  detailPages: true,
};
