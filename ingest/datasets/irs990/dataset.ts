import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { parse as parseCsv } from 'csv-parse';
import { defineIngester } from '../../pipeline/contract.ts';
import type { IngestContext, LoadContext, RawInput } from '../../sources/common/context.ts';
import { localInputs } from '../../sources/common/local-inputs.ts';
import { BOARD_PARSER_VERSION, boardMembersTable } from '../../../schemas/tables/board.ts';
import { parse990 } from '../../sources/irs/form990.ts';
import { board990Rows } from './rows.ts';
import { zipMembers } from '../../sources/common/zip.ts';
import { writeIrs990Sample } from './sample.ts';
import { SOURCE } from '../../../schemas/sources.ts';

const INPUT = /\.(xml|zip)$/i;

/** `{OBJECT_ID}_public.xml` → OBJECT_ID; other names keep their stem. */
function objectIdOf(name: string): string {
  const b = basename(name).replace(/\.xml$/i, '');
  return b.match(/(\d{18})/)?.[1] ?? b;
}

/** The XML_BATCH_IDs (zip names) the yearly index lists for the months of a quarter. */
async function batchesFor(ctx: IngestContext, year: number, months: string[]): Promise<string[]> {
  const base = ctx.settings.IRS_BASE_URL.replace(/\/$/, '');
  const indexPath = await ctx.http.download(`${base}/pub/epostcard/990/xml/${year}/index_${year}.csv`, { refresh: true });
  const batches = new Set<string>();
  const parser = createReadStream(indexPath).pipe(parseCsv({ columns: true, bom: true, relax_column_count: true, skip_empty_lines: true }));
  for await (const rec of parser as AsyncIterable<Record<string, string>>) {
    const b = rec.XML_BATCH_ID?.trim();
    if (b && months.some((m) => new RegExp(`_${m}[A-Z]$`, 'i').test(b))) batches.add(b);
  }
  if (!batches.size)
    throw new Error(`irs990: index_${year}.csv names no XML_BATCH_ID for months ${months.join(',')} (older years: download the zips and use --from)`);
  return [...batches].sort();
}

async function loadXml(ctx: LoadContext, body: Buffer | string, file: string, objectId: string, sourceUrl: string | null): Promise<void> {
  const parsed = parse990(body);
  if (!parsed.header.ein || !parsed.header.taxYear) {
    ctx.badRow({ file, line: null, reason: 'return header without EIN or tax year' });
    return;
  }
  const { rows, skipped } = board990Rows(parsed, { objectId, sourceUrl });
  for (const s of skipped) ctx.badRow({ file, line: s.seq, reason: s.reason });
  for (const r of rows) await ctx.append(boardMembersTable, r, { file, line: Number(r.record_id.split(':').pop()) });
}

export default defineIngester({
  name: 'irs990',
  description: 'IRS Form 990 / 990-EZ / 990-PF e-file XML: officers, directors, trustees, key employees (board_members, source_type irs_990).',
  tables: [boardMembersTable],
  dependsOn: [],
  parserVersion: BOARD_PARSER_VERSION,
  source: SOURCE.irs_990,
  sourceUrls: ['https://www.irs.gov/charities-non-profits/form-990-series-downloads', 'https://apps.irs.gov/pub/epostcard/990/xml/'],
  argsHelp: '--from <file|folder> of 990 XML files or TEOS zips, or --period 2024Q1 (zips of those months named by the index XML_BATCH_ID, from IRS_BASE_URL)',
  async inputs(ctx, args) {
    if (args.from) return localInputs(args.from, (n) => INPUT.test(n));
    const m = args.period?.match(/^(\d{4})Q([1-4])$/);
    if (!m) throw new Error('irs990: give --from <file|folder> or --period YYYYQn');
    const q = Number(m[2]);
    const months = [1, 2, 3].map((k) => String((q - 1) * 3 + k).padStart(2, '0'));
    const base = ctx.settings.IRS_BASE_URL.replace(/\/$/, '');
    const out: RawInput[] = [];
    for (const b of await batchesFor(ctx, Number(m[1]), months)) {
      const url = `${base}/pub/epostcard/990/xml/${m[1]}/${b}.zip`;
      out.push({ path: await ctx.http.download(url), url });
    }
    return out;
  },
  async load(ctx, inputs) {
    for (const input of inputs) {
      // Re-derivation can hand us the other board_members writer's raw files: not ours, skip them.
      if (!INPUT.test(input.path)) {
        ctx.log(`skipping ${input.path}: not a 990 XML or zip`);
        continue;
      }
      if (/\.zip$/i.test(input.path)) {
        for await (const member of zipMembers(input.path, (name) => /\.xml$/i.test(name))) {
          const body = await member.read();
          await loadXml(ctx, body, `${input.path}!${member.name}`, objectIdOf(member.name), input.url);
          ctx.progress.bytes(body.length);
        }
      } else {
        await loadXml(ctx, await readFile(input.path), input.path, objectIdOf(input.path), input.url);
      }
    }
  },
  sample: writeIrs990Sample,
});
