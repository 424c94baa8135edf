import { readdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { defineIngester } from '../../pipeline/contract.ts';
import type { RawInput } from '../../sources/common/context.ts';
import { assigneeResolver } from './assignee-cik.ts';
import { GrantParser, type PatentGrant } from '../../sources/uspto/grant-xml.ts';
import { writePatentSample } from './sample.ts';
import { openGrantStream, splitConcatenatedXml } from '../../sources/uspto/split.ts';
import { patentGrantsTable } from '../../../schemas/tables/patents.ts';
import { SOURCE } from '../../../schemas/sources.ts';

const WEEKLY_FILE = /^ipg\d{6}\.(xml|zip)$/i;

/** `2024-01-02` → the weekly file's URL; grants are published on Tuesdays only. */
export function weeklyFileUrl(base: string, isoDate: string): string {
  const d = new Date(`${isoDate}T00:00:00Z`);
  if (Number.isNaN(d.getTime())) throw new Error(`--date must be YYYY-MM-DD (got ${isoDate})`);
  if (d.getUTCDay() !== 2) throw new Error(`--date ${isoDate} is not a Tuesday: weekly grant files are published on Tuesdays`);
  const yymmdd = isoDate.slice(2).replace(/-/g, '');
  return `${base}/data/patent/grant/redbook/fulltext/${isoDate.slice(0, 4)}/ipg${yymmdd}.zip`;
}

/** Byte progress without switching the stream to flowing mode (a 'data' listener would race the iterator). */
async function* counted(stream: AsyncIterable<Buffer>, onBytes: (n: number) => void): AsyncGenerator<Buffer> {
  for await (const chunk of stream) {
    onBytes(chunk.length);
    yield chunk;
  }
}

async function localFiles(from: string): Promise<string[]> {
  if ((await stat(from)).isFile()) return [from];
  return (await readdir(from))
    .filter((n) => WEEKLY_FILE.test(n) || /\.xml$/i.test(n))
    .sort()
    .map((n) => join(from, n));
}

function toRow(g: PatentGrant, sourceFile: string, sourceUrl: string | null, cik: string | null) {
  const first = g.assignees[0];
  return {
    patent_number: g.patent_number,
    doc_number: g.doc_number,
    kind_code: g.kind_code,
    patent_type: g.patent_type,
    title: g.title,
    grant_date: g.grant_date,
    grant_year: Number(g.grant_date.slice(0, 4)),
    application_number: g.application_number,
    application_date: g.application_date,
    series_code: g.series_code,
    claims_count: g.claims_count,
    figures_count: g.figures_count,
    drawing_sheets_count: g.drawing_sheets_count,
    citations_count: g.citations_count,
    cpc_main: g.cpc_main,
    ipc_main: g.ipc_main,
    assignee: first?.name ?? null,
    assignee_city: first?.city ?? null,
    assignee_state: first?.state ?? null,
    assignee_country: first?.country ?? null,
    assignee_role: first?.role ?? null,
    assignee_cik: cik,
    assignee_names: g.assignees.length ? g.assignees.map((a) => a.name).join(' ; ') : null,
    assignees: g.assignees,
    inventors: g.inventors,
    abstract: g.abstract,
    source_file: sourceFile,
    source_url: sourceUrl,
  };
}

export default defineIngester({
  name: 'patents',
  description: 'USPTO weekly patent grant full text (ipgYYMMDD, concatenated us-patent-grant XML documents), streamed one document at a time.',
  tables: [patentGrantsTable],
  // Assignees are matched to CIKs through entity_names.
  dependsOn: ['entities'],
  parserVersion: 1,
  source: SOURCE.uspto_patent_grants,
  sourceUrls: ['https://bulkdata.uspto.gov/data/patent/grant/redbook/fulltext/'],
  argsHelp: "--date YYYY-MM-DD (a Tuesday: that week's ipgYYMMDD.zip) | --from <ipgYYMMDD.xml/.zip file or folder>",
  async inputs(ctx, args): Promise<RawInput[]> {
    if (args.from) return (await localFiles(args.from)).map((path) => ({ path, url: null }));
    if (!args.date) throw new Error('patents: give --date (a grant Tuesday, YYYY-MM-DD) or --from <file or folder>');
    const url = weeklyFileUrl(ctx.settings.USPTO_BASE_URL, args.date);
    return [{ path: await ctx.http.download(url), url }];
  },
  async load(ctx, inputs) {
    const resolveCik = await assigneeResolver(ctx);
    const parser = new GrantParser();
    for (const input of inputs) {
      // The XML member's name (ipgYYMMDD.xml) is what PatentsView records as `filename`.
      const sourceFile = basename(input.path).replace(/\.zip$/i, '.xml');
      const stream = await openGrantStream(input.path);
      for await (const doc of splitConcatenatedXml(counted(stream, (n) => ctx.progress.bytes(n)))) {
        const parsed = parser.parse(doc.xml);
        if ('skip' in parsed) {
          ctx.badRow({ file: input.path, line: doc.line, reason: `document ${doc.ordinal}: ${parsed.skip}` });
          continue;
        }
        const g = parsed.grant;
        const org = g.assignees[0]?.orgname;
        const cik = org ? await resolveCik(org) : null;
        await ctx.append(patentGrantsTable, toRow(g, sourceFile, input.url, cik), { file: input.path, line: doc.line });
      }
    }
  },
  sample: writePatentSample,
});
