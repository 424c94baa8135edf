import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Rng } from './random.ts';

/**
 * Demo pages in the regulator's published shapes: the new-site listing table (Drupal `views-field-*` cells,
 * `<time datetime>`, "Release No." and "See Also" inside the respondents cell, USWDS pager), release pages
 * (`field--name-body`), and the RSS 2.0 feed exactly as the litigation feed is served (newline inside
 * `<link>`, release number in `dc:creator`). Written by our code; no real release is copied.
 */

export interface SampleRelease {
  date: string;
  /** The row's own release number first (`LR-26040`, `34-100512`). */
  releaseNumbers: string[];
  name: string;
  /** Path of the release page on the site. */
  path: string;
  fileNumber?: string;
  seeAlso: { title: string; href: string }[];
  summary?: string;
  /** Paragraphs of the release page; none = no release page. */
  body?: string[];
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

function printedDate(iso: string): string {
  const [y, m, d] = iso.split('-').map(Number);
  return `${MONTH_NAMES[m - 1]} ${d}, ${y}`;
}

function pageShell(title: string, main: string): string {
  return (
    `<!DOCTYPE html>
<html lang="en" dir="ltr">
<head><meta charset="utf-8"><title>${esc(title)} | SEC.gov</title></head>
<body class="path-enforcement-litigation">
<header class="usa-header"><nav class="usa-nav" aria-label="Primary navigation"><ul><li>` +
    `<a href="/edgar/searchedgar/cik">CIK Lookup</a></li><li><a href="/enforcement-litigation">Enforcement</a>` +
    `</li></ul></nav></header>
<main id="main-content" role="main">
${main}
</main>
<footer class="usa-footer"><a href="/privacy">Privacy</a></footer>
</body>
</html>
`
  );
}

function listingPageHtml(title: string, rows: SampleRelease[], opts: { summaryColumn?: boolean; nextHref?: string } = {}): string {
  const body = rows
    .map((r) => {
      const numbers = r.releaseNumbers.map((n) => `Release No. ${esc(n)}`).join('<br>');
      const seeAlso = r.seeAlso.length
        ? `<div class="release-view__see-also">See Also: ${r.seeAlso.map((l) => `<a href="${esc(l.href)}">${esc(l.title)}</a>`).join(' ')}</div>`
        : '';
      const file = r.fileNumber ? `<div class="release-view__file-number">File No. ${esc(r.fileNumber)}</div>` : '';
      const summary = opts.summaryColumn
        ? `\n  <td headers="view-field-summary-table-column" class="views-field views-field-field-summary">${esc(r.summary ?? '')}</td>`
        : '';
      return (
        `<tr>
  <td headers="view-field-publish-date-table-column" class="views-field views-field-field-publish-date">` +
        `<time datetime="${r.date}T12:00:00Z" class="datetime">${printedDate(r.date)}</time></td>
  <td headers="view-field-respondents-table-column" class="views-field views-field-field-respondents">` +
        `<div class="release-view__respondents"><a href="${esc(r.path)}">${esc(r.name)}</a></div>
    <div class="release-view__release-number">${numbers}</div>${file}${seeAlso}</td>${summary}
</tr>`
      );
    })
    .join('\n');
  const pager = opts.nextHref
    ? '<nav class="usa-pagination" aria-label="Pagination"><ul class="usa-pagination__list"><li ' +
      `class="usa-pagination__item usa-pagination__arrow"><a href="${esc(opts.nextHref)}" ` +
      'class="usa-pagination__next-page" rel="next">Next</a></li></ul></nav>'
    : '';
  const summaryHead = opts.summaryColumn ? '<th id="view-field-summary-table-column" class="views-field views-field-field-summary">Summary</th>' : '';
  return pageShell(
    title,
    `<h1>${esc(title)}</h1>
<div class="view-content">
<table class="usa-table views-table views-view-table cols-3">
<thead><tr><th id="view-field-publish-date-table-column" class="views-field views-field-field-publish-date">Date` +
      `</th><th id="view-field-respondents-table-column" class="views-field views-field-field-respondents">` +
      `Respondents</th>${summaryHead}</tr></thead>
<tbody>
${body}
</tbody>
</table>
</div>
${pager}`,
  );
}

function releasePageHtml(r: SampleRelease, kindTitle: string): string {
  const paragraphs = (r.body ?? []).map((p) => `<p>${esc(p)}</p>`).join('\n');
  const links = r.seeAlso.map((l) => `<li><a href="${esc(l.href)}">${esc(l.title)}</a></li>`).join('');
  return pageShell(
    r.name,
    `<article class="node node--type-release">
<h1 class="page-title">${esc(r.name)}</h1>
<div class="field--name-field-release-number">${esc(kindTitle)} No. ${r.releaseNumbers.map(esc).join(', ')}</div>
<div class="field--name-field-publish-date"><time datetime="${r.date}T12:00:00Z">${printedDate(r.date)}</time></div>
<div class="field--name-body">
${paragraphs}
${links ? `<h2>See Also</h2><ul>${links}</ul>` : ''}
</div>
</article>`,
  );
}

function rfc822(iso: string, r: Rng): string {
  const d = new Date(`${iso}T00:00:00Z`);
  const day = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][d.getUTCDay()];
  const mon = MONTH_NAMES[d.getUTCMonth()].slice(0, 3);
  const hh = String(r.int(8, 17)).padStart(2, '0');
  const mm = String(r.int(0, 59)).padStart(2, '0');
  const ss = String(r.int(0, 59)).padStart(2, '0');
  return `${day}, ${String(d.getUTCDate()).padStart(2, '0')} ${mon} ${d.getUTCFullYear()} ${hh}:${mm}:${ss} -0400`;
}

function rssXml(channelTitle: string, description: string, rows: SampleRelease[], r: Rng): string {
  const items = rows
    .map(
      (row, i) => `<item>
  <title>${esc(row.name)}</title>
  <link>https://www.sec.gov/node/${960000 + i * 5}
</link>
  <description>${esc(row.name)}</description>
  <pubDate>${rfc822(row.date, r)}</pubDate>
    <dc:creator>${esc(row.releaseNumbers[0])}</dc:creator>
    <guid isPermaLink="true">https://www.sec.gov/${uuidish(r)}</guid>
    </item>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="utf-8"?>
<rss xmlns:dc="http://purl.org/dc/elements/1.1/" version="2.0" xml:base="https://www.sec.gov/">
  <channel>
    <title>${esc(channelTitle)}</title>
    <link>https://www.sec.gov/</link>
    <description>${esc(description)}</description>
    <language>en</language>
    
    ${items}

  </channel>
</rss>
`;
}

function uuidish(r: Rng): string {
  const hex = (n: number) => Array.from({ length: n }, () => '0123456789abcdef'[r.int(0, 15)]).join('');
  return `${hex(8)}-${hex(4)}-4${hex(3)}-${'89ab'[r.int(0, 3)]}${hex(3)}-${hex(12)}`;
}

/** Writes a month's listing pages (paged by `perPage`), the release pages, and optionally the feed. */
export async function writeSampleSite(
  dir: string,
  opts: {
    slug: string;
    title: string;
    kindTitle: string;
    releases: SampleRelease[];
    perPage?: number;
    summaryColumn?: boolean;
    rss?: { title: string; description: string; random: Rng };
  },
): Promise<void> {
  await mkdir(dir, { recursive: true });
  const perPage = opts.perPage ?? 25;
  const newestFirst = [...opts.releases].sort((a, b) => b.date.localeCompare(a.date));
  const pages = Math.max(1, Math.ceil(newestFirst.length / perPage));
  for (let p = 0; p < pages; p++) {
    const rows = newestFirst.slice(p * perPage, (p + 1) * perPage);
    const next = p + 1 < pages ? `?page=${p + 1}` : undefined;
    await writeFile(
      join(dir, `${opts.slug}-page-${String(p).padStart(3, '0')}.html`),
      listingPageHtml(opts.title, rows, { summaryColumn: opts.summaryColumn, nextHref: next }),
    );
  }
  for (const r of opts.releases) {
    if (!r.body?.length) continue;
    await writeFile(join(dir, `${r.releaseNumbers[0].toLowerCase()}.html`), releasePageHtml(r, opts.kindTitle));
  }
  if (opts.rss) {
    await writeFile(join(dir, `${opts.slug}-rss.xml`), rssXml(opts.rss.title, opts.rss.description, newestFirst.slice(0, 25), opts.rss.random));
  }
}

/** Business-day dates spread over the months before `end`, newest first. */
export function sampleDates(r: Rng, count: number, end: string): string[] {
  const out: string[] = [];
  const d = new Date(`${end}T00:00:00Z`);
  while (out.length < count) {
    if (d.getUTCDay() !== 0 && d.getUTCDay() !== 6) {
      const n = r.int(0, 2);
      for (let i = 0; i < n && out.length < count; i++) out.push(d.toISOString().slice(0, 10));
    }
    d.setUTCDate(d.getUTCDate() - 1);
  }
  return out;
}
