import { basename } from 'node:path';
import { defineIngester } from '../../pipeline/contract.ts';
import { toIsoDate } from '../../sources/common/normalize.ts';
import { inputParts, localInputs } from '../../sources/iapd/inputs.ts';
import { dateFromFileName } from '../../sources/common/links.ts';
import { parseIndividualFeed, toIndividualRow } from '../../sources/iapd/individuals-feed.ts';
import { writeIndividualsSample } from './sample.ts';
import { iapdIndividualsTable } from '../../../schemas/tables/iapd-individuals.ts';
import { SOURCE } from '../../../schemas/sources.ts';

const MANIFEST_PATH = '/reports/CompilationReports/CompilationReports.manifest.json';

export default defineIngester({
  name: 'iapd-individuals',
  description: 'Investment adviser representatives from the IAPD individual compilation feed (daily XML).',
  tables: [iapdIndividualsTable],
  dependsOn: [],
  parserVersion: 1,
  source: SOURCE.iapd_individuals,
  sourceUrls: [`https://reports.adviserinfo.sec.gov${MANIFEST_PATH}`],
  argsHelp: '--date YYYY-MM-DD (feed day; default newest in the manifest) | --from <IA_INDVL_Feed_*.xml.zip | .xml | folder>',

  async inputs(ctx, args) {
    if (args.from) return localInputs(args.from, /IA_INDVL.*\.(zip|xml|xml\.gz)$|IA_Indvl.*\.xml$/i);
    const base = `${ctx.settings.IAPD_BASE_URL}/reports/CompilationReports`;
    const manifest = JSON.parse((await ctx.http.get(`${base}/CompilationReports.manifest.json`, { cache: 'raw', refresh: true })).body.toString('utf8')) as {
      files?: { name: string }[];
    };
    const feeds = (manifest.files ?? [])
      .map((f) => ({ name: f.name, date: dateFromFileName(f.name) }))
      .filter((f): f is { name: string; date: string } => /^IA_INDVL_Feed/i.test(f.name) && !!f.date && (!args.date || f.date === toIsoDate(args.date)));
    const newest = feeds.sort((a, b) => a.date.localeCompare(b.date)).at(-1);
    if (!newest) throw new Error(`no IA_INDVL_Feed file${args.date ? ` for ${args.date}` : ''} in the IAPD manifest`);
    const url = `${base}/${newest.name}`;
    ctx.log(`downloading ${url}`);
    return [{ path: await ctx.http.download(url), url, meta: { snapshotDate: newest.date } }];
  },

  async load(ctx, inputs, args) {
    const seen = new Map<string, string>();
    for (const input of inputs) {
      const snapshot = (input.meta?.snapshotDate as string | undefined) ?? dateFromFileName(input.path) ?? (args.date ? toIsoDate(args.date) : null);
      if (!snapshot) throw new Error(`${basename(input.path)}: cannot tell the feed date from the file name; pass --date YYYY-MM-DD`);
      for await (const part of inputParts(input.path, /\.xml(\.gz)?$/i)) {
        for await (const person of parseIndividualFeed(await part.open())) {
          const r = toIndividualRow(person);
          if (!r.ok) {
            ctx.badRow({ file: part.name, line: person.line, reason: r.reason });
            continue;
          }
          const key = `${snapshot}|${r.row.ind_source_id}`;
          const prior = seen.get(key);
          if (prior) {
            ctx.badRow({ file: part.name, line: person.line, reason: `duplicate individual ${r.row.ind_source_id} (kept ${prior})` });
            continue;
          }
          seen.set(key, `${part.name}:${person.line}`);
          await ctx.append(
            iapdIndividualsTable,
            { ...r.row, snapshot_date: snapshot, source_file: part.name, source_line: person.line },
            { file: part.name, line: person.line },
          );
        }
      }
    }
  },

  sample: writeIndividualsSample,
});
