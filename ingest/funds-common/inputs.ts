import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { zipMembers } from '../adv-common/zip.ts';
import type { IngestContext, RawInput } from '../core/dataset.ts';
import { scrapeLinks } from '../adv-common/links.ts';

/**
 * Unzips the members of a regulator data set zip into `dir`, by BASENAME (some zips nest them in a folder whose
 * case varies), streaming each member to disk. Returns upper-cased basename → path.
 */
export async function unzipMembers(zipPath: string, dir: string, accept: (name: string) => boolean): Promise<Map<string, string>> {
  await mkdir(dir, { recursive: true });
  const out = new Map<string, string>();
  for await (const m of zipMembers(zipPath)) {
    const name = basename(m.name);
    if (!accept(name)) continue;
    const target = join(dir, name);
    await pipeline(await m.open(), createWriteStream(target));
    out.set(name.toUpperCase(), target);
  }
  return out;
}

/** Members of an already-unpacked data set folder (a `--from` folder of `.tsv` files). */
export function groupByFolder(inputs: RawInput[], ext: RegExp): Map<string, RawInput[]> {
  const groups = new Map<string, RawInput[]>();
  for (const i of inputs) {
    if (!ext.test(i.path)) continue;
    const d = dirname(i.path);
    (groups.get(d) ?? groups.set(d, []).get(d)!).push(i);
  }
  return groups;
}

/**
 * Finds the data set zip links on the regulator's landing page (names change across eras, so they are scraped,
 * never generated) and downloads the one chosen by `pick`.
 */
export async function downloadListedZip(ctx: IngestContext, pagePath: string, linkPattern: RegExp, pick: (urls: string[]) => string | null, what: string): Promise<RawInput> {
  const pageUrl = `${ctx.settings.SEC_BASE_URL}${pagePath}`;
  const page = await ctx.http.get(pageUrl, { cache: 'none' });
  const urls = scrapeLinks(page.body.toString('utf8'), pageUrl, linkPattern);
  const url = pick(urls);
  if (!url) throw new Error(`${what}: no data set listed on ${pageUrl} matches (found ${urls.length} zip links)`);
  const path = await ctx.http.download(url);
  return { path, url };
}
