import { createReadStream, existsSync, statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { createGunzip } from 'node:zlib';
import type { Readable } from 'node:stream';
import type { IngestContext, RawInput } from '../common/context.ts';
import { zipMembers } from '../common/zip.ts';
import { dateFromFileName, scrapeLinks } from '../common/links.ts';

/** Local files for `--from`: one file, or the matching files of a folder (sorted, so runs are repeatable). */
export async function localInputs(from: string, pattern: RegExp): Promise<RawInput[]> {
  if (!existsSync(from)) throw new Error(`--from ${from}: no such file or folder`);
  if (statSync(from).isFile()) return [{ path: from, url: null }];
  const names = (await readdir(from)).filter((n) => pattern.test(n)).sort();
  return names.map((n) => ({ path: join(from, n), url: null }));
}

/**
 * Scrapes a regulator page for file links, keeps those of the requested date (or the newest date found) and
 * downloads them into the raw cache. `date` may be a day or a month prefix (`2026-07`).
 */
export async function downloadLatestLinked(ctx: IngestContext, pageUrl: string, linkPattern: RegExp, date: string | undefined): Promise<RawInput[]> {
  const page = await ctx.http.get(pageUrl, { cache: 'raw', refresh: true });
  const links = scrapeLinks(page.body.toString('utf8'), pageUrl, linkPattern)
    .map((url) => ({ url, date: dateFromFileName(new URL(url).pathname) }))
    .filter((l): l is { url: string; date: string } => l.date != null);
  if (!links.length) throw new Error(`no file links matching ${linkPattern} on ${pageUrl}`);
  const wanted = date ? links.filter((l) => l.date.startsWith(date.length === 7 ? date : date.slice(0, 7))) : links;
  if (!wanted.length) throw new Error(`no file for ${date} on ${pageUrl} (found ${[...new Set(links.map((l) => l.date))].sort().join(', ')})`);
  const newest = wanted
    .map((l) => l.date)
    .sort()
    .at(-1)!;
  const out: RawInput[] = [];
  for (const l of wanted.filter((x) => x.date === newest)) {
    ctx.log(`downloading ${l.url}`);
    out.push({ path: await ctx.http.download(l.url), url: l.url, meta: { snapshotDate: l.date } });
  }
  return out;
}

/** A readable member of an input: the file itself, its gunzipped body, or each matching member of a zip. */
export interface InputPart {
  /** `file.zip!member.csv` or the file name: cited in bad-row reports and `source_file`. */
  name: string;
  memberName: string;
  open(): Promise<Readable>;
}

export async function* inputParts(path: string, memberPattern: RegExp): AsyncGenerator<InputPart> {
  const file = basename(path);
  if (/\.zip$/i.test(file)) {
    for await (const m of zipMembers(path, (n) => memberPattern.test(n))) {
      if (/\.gz$/i.test(m.name)) {
        yield { name: `${file}!${m.name}`, memberName: m.name, open: async () => (await m.open()).pipe(createGunzip()) };
      } else {
        yield { name: `${file}!${m.name}`, memberName: m.name, open: m.open };
      }
    }
    return;
  }
  if (/\.gz$/i.test(file)) {
    yield { name: file, memberName: file, open: async () => createReadStream(path).pipe(createGunzip()) };
    return;
  }
  yield { name: file, memberName: file, open: async () => createReadStream(path) };
}
