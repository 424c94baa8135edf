/**
 * File names on the regulator's pages change over time: links are scraped from the page, never generated
 * (docs/formats/README.md). Hrefs are resolved against the page URL so a test server's base URL carries through.
 */
export function scrapeLinks(html: string, pageUrl: string, pattern: RegExp): string[] {
  const out = new Set<string>();
  for (const m of html.matchAll(/href\s*=\s*["']([^"'#]+)["']/gi)) {
    const href = m[1].trim();
    if (!pattern.test(href)) continue;
    out.add(new URL(href, pageUrl).toString());
  }
  return [...out];
}

/**
 * The as-of date in a roster/list file name: `ia070126.zip`, `ia07012026-exempt.zip`, `bd-070124.txt`,
 * `IA_FIRM_SEC_Feed_07_21_2026.xml.gz`. Null when the name carries none.
 */
export function dateFromFileName(name: string): string | null {
  const base = name.split('/').pop() ?? name;
  let m = base.match(/(\d{4})-(\d{2})-(\d{2})/);
  if (m) return valid(+m[1], +m[2], +m[3]);
  m = base.match(/(\d{2})_(\d{2})_(\d{4})/);
  if (m) return valid(+m[3], +m[1], +m[2]);
  m = base.match(/(?:^|[^\d])(\d{2})(\d{2})(\d{4})(?:[^\d]|$)/);
  if (m) return valid(+m[3], +m[1], +m[2]);
  m = base.match(/(?:^|[^\d])(\d{2})(\d{2})(\d{2})(?:[^\d]|$)/);
  if (m) return valid(2000 + +m[3], +m[1], +m[2]);
  return null;
}

function valid(y: number, mo: number, d: number): string | null {
  if (mo < 1 || mo > 12 || d < 1 || d > 31) return null;
  return `${y}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}
