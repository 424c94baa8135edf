import { existsSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { defineIngester } from '../../pipeline/contract.ts';
import type { IngestContext, LoadContext, RawInput } from '../../sources/common/context.ts';
import { openDuck, queryRows, sqlString } from '../../lake/duck.ts';
import { tableDir } from '../../lake/layout.ts';
import { toIsoDate } from '../../sources/common/normalize.ts';
import { inputParts, localInputs } from '../../sources/iapd/inputs.ts';
import { fetchMetadata, IAPD_METADATA_PATH, metadataFiles, type MetadataFile } from '../../sources/iapd/metadata.ts';
import { parseBase, parseFunds, sectionOf, withFiling, type FilingInfo } from '../../sources/iapd/private-fund-data.ts';
import { writePrivateFundsSample } from './sample.ts';
import { privateFundsTable } from '../../../schemas/tables/private-funds.ts';
import { SOURCE } from '../../../schemas/sources.ts';
import type { RowOf } from '../../../schemas/table.ts';

const LOCAL_FILES = /(ADV_Filing_Data.*\.zip|adv-filing-data.*\.zip|\.csv)$/i;

/** `ADV_Filing_Data_20260601_20260630.zip` / `adv-filing-data-20111105-20241231-part1.zip` → period end. */
export function periodEndOf(name: string): string | null {
  const m = basename(name).match(/(\d{8})[_-](\d{8})/);
  return m ? toIsoDate(m[2]) : null;
}

/** The filing-data zips listed under `advFilingData`. */
export function filingDataFiles(metadata: unknown): MetadataFile[] {
  return metadataFiles(metadata, 'advFilingData').filter((f) => /\.zip$/i.test(f.fileName) && periodEndOf(f.fileName));
}

async function downloadFilingData(ctx: IngestContext, date: string | undefined): Promise<RawInput[]> {
  const base = ctx.settings.IAPD_BASE_URL;
  const files = filingDataFiles(await fetchMetadata(ctx));
  const month = date?.slice(0, 7);
  const wanted = files.filter((f) => !month || periodEndOf(f.fileName)!.startsWith(month));
  if (!wanted.length) throw new Error(`no ADV filing-data file${month ? ` for ${month}` : ''} in ${base}${IAPD_METADATA_PATH}`);
  const newest = wanted.sort((a, b) => periodEndOf(a.fileName)!.localeCompare(periodEndOf(b.fileName)!)).at(-1)!;
  const year = newest.year ?? periodEndOf(newest.fileName)!.slice(0, 4);
  const url = `${base}/reports/foia/advFilingData/${year}/${newest.fileName}`;
  ctx.log(`downloading ${url}`);
  return [{ path: await ctx.http.download(url), url, meta: { periodEnd: periodEndOf(newest.fileName) } }];
}

/** The newest lake partition before `asOf`, whose advisers that did not file since are carried forward. */
function previousPartitionFile(lakeDir: string, asOf: string): { file: string; value: string } | null {
  const dir = tableDir(lakeDir, privateFundsTable.name);
  if (!existsSync(dir)) return null;
  const prefix = `${privateFundsTable.partitionBy}=`;
  const values = readdirSync(dir)
    .filter((d) => d.startsWith(prefix))
    .map((d) => decodeURIComponent(d.slice(prefix.length)))
    .filter((v) => v < asOf)
    .sort();
  const value = values.at(-1);
  if (!value) return null;
  const pdir = join(dir, `${prefix}${encodeURIComponent(value)}`);
  const file = readdirSync(pdir).find((f) => f.endsWith('.parquet'));
  return file ? { file: join(pdir, file), value } : null;
}

async function carryForward(ctx: LoadContext, asOf: string, refiled: Set<string>): Promise<number> {
  const prev = previousPartitionFile(ctx.settings.lakeDir, asOf);
  if (!prev) return 0;
  const { instance, conn } = await openDuck();
  let n = 0;
  try {
    // parser_version is the framework's column, re-added when the row is staged; the table's rows have no such key.
    const rows = await queryRows(conn, `SELECT * EXCLUDE (parser_version) FROM read_parquet(${sqlString(prev.file)})`);
    for (const r of rows) {
      if (refiled.has(String(r.crd))) continue;
      // Read back from this table's own file, so the row has its columns; the stager validates it again.
      const row = { ...r, as_of_date: asOf } as RowOf<typeof privateFundsTable>;
      await ctx.append(privateFundsTable, row, { file: `lake:${privateFundsTable.name}/${prev.value}`, line: row.source_line ?? undefined });
      n++;
    }
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
  ctx.log(`carried forward ${n} funds of advisers without a newer filing from ${prev.value}`);
  return n;
}

function later(a: FilingInfo, b: FilingInfo): boolean {
  const sa = a.submitted ?? '';
  const sb = b.submitted ?? '';
  return sa > sb || (sa === sb && a.filingId > b.filingId);
}

export default defineIngester({
  name: 'private-funds',
  description: 'Private funds from Form ADV Schedule D 7.B.(1) (IAPD monthly ADV filing data), latest filing per adviser.',
  tables: [privateFundsTable],
  dependsOn: [],
  parserVersion: 1,
  source: SOURCE.sec_form_adv_schedule_d,
  sourceUrls: ['https://reports.adviserinfo.sec.gov/reports/foia/reports_metadata.json', 'https://www.sec.gov/data-research/sec-markets-data/form-adv-data'],
  argsHelp: '--date YYYY-MM (filing-data month; default newest) | --from <ADV_Filing_Data_*.zip | folder of IA_/ERA_ CSVs>',

  async inputs(ctx, args) {
    if (args.from) return localInputs(args.from, LOCAL_FILES);
    return downloadFilingData(ctx, args.date);
  },

  async load(ctx, inputs, args) {
    const periodEnds = inputs.map((i) => (i.meta?.periodEnd as string | undefined) ?? periodEndOf(i.path)).filter((d): d is string => !!d);
    const asOf = periodEnds.sort().at(-1) ?? (args.date ? toIsoDate(args.date) : null);
    if (!asOf) throw new Error('cannot tell the filing-data period from the file names; pass --date YYYY-MM-DD');

    // Pass 1: firm identity of every filing (Base tables), and each adviser's latest filing.
    const filings = new Map<number, FilingInfo>();
    const latest = new Map<string, FilingInfo>();
    for (const input of inputs) {
      for await (const part of inputParts(input.path, /\.csv$/i)) {
        const { section, filerType } = sectionOf(part.memberName);
        if (section !== 'base') continue;
        for await (const f of parseBase(await part.open(), filerType, (line, reason) => ctx.badRow({ file: part.name, line, reason }))) {
          filings.set(f.filingId, f);
          const cur = latest.get(f.crd);
          if (!cur || later(f, cur)) latest.set(f.crd, f);
        }
      }
    }

    // Pass 2: funds of each adviser's latest filing; rows of superseded amendments are expected and skipped.
    let superseded = 0;
    const seen = new Set<string>();
    for (const input of inputs) {
      for await (const part of inputParts(input.path, /\.csv$/i)) {
        if (sectionOf(part.memberName).section !== 'funds') continue;
        for await (const fund of parseFunds(await part.open(), (line, reason) => ctx.badRow({ file: part.name, line, reason }))) {
          const filing = filings.get(fund.filingId);
          if (!filing) {
            ctx.badRow({ file: part.name, line: fund.line, reason: `FilingID ${fund.filingId} has no row in the ADV Base tables` });
            continue;
          }
          if (latest.get(filing.crd)!.filingId !== filing.filingId) {
            superseded++;
            continue;
          }
          const key = `${filing.crd}|${fund.row.fund_key}`;
          if (seen.has(key)) {
            ctx.badRow({ file: part.name, line: fund.line, reason: `duplicate fund ${fund.row.fund_key} in FilingID ${fund.filingId}` });
            continue;
          }
          seen.add(key);
          for (const p of fund.problems) ctx.badRow({ file: part.name, line: fund.line, reason: `${p} (row kept, value null)` });
          await ctx.append(
            privateFundsTable,
            {
              ...withFiling(fund.row, filing),
              as_of_date: asOf,
              source_file: part.name,
              source_line: fund.line,
            },
            { file: part.name, line: fund.line },
          );
        }
      }
    }
    if (superseded) ctx.log(`${superseded} fund rows of superseded (amended) filings skipped`);
    await carryForward(ctx, asOf, new Set(latest.keys()));
  },

  sample: writePrivateFundsSample,
});
