import { basename, dirname, join } from 'node:path';
import { extractZipMembers } from '../../common/zip.ts';
import type { IngestArgs, IngestContext, RawInput } from '../../common/context.ts';
import { localInputs } from '../../common/local-inputs.ts';
import { scrapeLinks } from '../../common/links.ts';
import { withScratch } from './work.ts';

/** Members of an already-unpacked data set folder (a `--from` folder of `.tsv` files). */
function groupByFolder(inputs: RawInput[], ext: RegExp): Map<string, RawInput[]> {
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
export async function downloadListedZip(
  ctx: IngestContext,
  pagePath: string,
  linkPattern: RegExp,
  pick: (urls: string[]) => string | null,
  what: string,
): Promise<RawInput> {
  const pageUrl = `${ctx.settings.SEC_BASE_URL}${pagePath}`;
  const page = await ctx.http.get(pageUrl, { cache: 'none' });
  const urls = scrapeLinks(page.body.toString('utf8'), pageUrl, linkPattern);
  const url = pick(urls);
  if (!url) throw new Error(`${what}: no data set listed on ${pageUrl} matches (found ${urls.length} zip links)`);
  const path = await ctx.http.download(url);
  return { path, url };
}

/**
 * Every data set among the inputs — a zip (wanted members unpacked by basename into a scratch folder) or a folder of
 * `.tsv` members — handed to `load` as upper-cased member name → path, zips first.
 */
export async function forEachDataSet(
  inputs: RawInput[],
  wanted: string[],
  load: (members: Map<string, string>, label: string) => Promise<void>,
): Promise<void> {
  await withScratch(async (scratch) => {
    let n = 0;
    for (const z of inputs.filter((i) => /\.zip$/i.test(i.path))) {
      const paths = await extractZipMembers(z.path, join(scratch, String(n++)), (name) => wanted.includes(name.toUpperCase()));
      const members = new Map(paths.map((p) => [basename(p).toUpperCase(), p]));
      await load(members, basename(z.path));
    }
  });
  for (const [dir, files] of groupByFolder(inputs, /\.tsv$/i)) {
    await load(new Map(files.map((f) => [basename(f.path).toUpperCase(), f.path])), dir);
  }
}

/**
 * `inputs()` of the DERA fund data sets named by FILING quarter (`{yyyy}q{q}_nport.zip`, `{yyyy}q{q}_ncen.zip`):
 * `--from` lists local files; `--period 2025Q1` downloads the zip of that quarter listed on the data set page.
 */
export async function quarterlyDataSetInputs(ctx: IngestContext, args: IngestArgs, pagePath: string, dataset: string, example: string): Promise<RawInput[]> {
  if (args.from) return localInputs(args.from, (n) => /\.(zip|tsv|xml|txt|nc)$/i.test(n));
  const period = args.period?.toLowerCase();
  if (!period || !/^\d{4}q[1-4]$/.test(period)) throw new Error(`${dataset}: give --period ${example} or --from <path>`);
  const name = `/${period}_${dataset}.zip`;
  return [
    await downloadListedZip(
      ctx,
      pagePath,
      new RegExp(`_${dataset}\\.zip$`, 'i'),
      (urls) => urls.find((u) => u.toLowerCase().endsWith(name)) ?? null,
      `${dataset} --period ${args.period}`,
    ),
  ];
}
