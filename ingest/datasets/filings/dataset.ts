import { defineIngester } from '../../pipeline/contract.ts';
import type { LoadContext } from '../../sources/common/context.ts';
import { UpstreamError } from '../../sources/common/http.ts';
import { quarterBounds, quarterOf, toIsoDate } from '../../sources/common/normalize.ts';
import { readIndexFile, type IndexLine } from '../../sources/edgar/bulk/idx.ts';
import {
  classifySubmissionFile,
  filingColumns,
  parseSubmissionEntity,
  submissionFilings,
  type SubmissionFiling,
} from '../../sources/edgar/bulk/submissions.ts';
import { jsonDocuments, listLocal } from '../../sources/edgar/bulk/local-files.ts';
import { tableRelation } from '../../lake/layout.ts';
import { ntLateTable, ntRow } from '../../../schemas/tables/nt-late.ts';
import { buildFilingRow, filingKey } from './rows.ts';
import { filingsTable } from '../../../schemas/tables/filings.ts';
import { writeFilingsSample } from './sample.ts';
import { SOURCE } from '../../../schemas/sources.ts';

const isIndexFile = (n: string) => /\.idx$/i.test(n) && /(master|form|company)/i.test(n);
const isSubmissionFile = (n: string) => !!classifySubmissionFile(n) && !/companyfacts|companyconcept|frames/i.test(n);
const base = (p: string) => p.split(/[\\/]/).pop()!;
const CHUNK = 2000;

type Sub = SubmissionFiling & { entityName: string };

/** Rows the lake already holds for these keys, pruned to the quarters involved (literals are ours: `2024Q3`). */
async function existingRows(ctx: LoadContext, keys: { accession: string; cik: string; quarter: string }[]) {
  const out = new Map<string, Record<string, unknown>>();
  // The live lane appends to this table: its append files' rows replace the data file's (ingest/lake/layout.ts).
  const lake = tableRelation(ctx.settings.lakeDir, filingsTable);
  if (!lake || !keys.length) return out;
  const quarters = [...new Set(keys.map((k) => k.quarter))].filter((q) => /^\d{4}Q[1-4]$/.test(q));
  const accs = [...new Set(keys.map((k) => k.accession))];
  const cols = Object.entries(filingsTable.columns)
    .map(([c, s]) => (s.type === 'DATE' || s.type === 'TIMESTAMP' ? `CAST("${c}" AS VARCHAR) AS "${c}"` : `"${c}"`))
    .join(', ');
  const rows = await ctx.sql(
    `SELECT ${cols} FROM ${lake}
      WHERE filed_quarter IN (${quarters.map((q) => `'${q}'`).join(', ')}) AND accession IN (${accs.map((_, i) => `$${i + 1}`).join(', ')})`,
    accs,
  );
  for (const r of rows) {
    if (typeof r.acceptance_datetime === 'string') r.acceptance_datetime = r.acceptance_datetime.replace(' ', 'T');
    if (typeof r.size === 'bigint') r.size = Number(r.size);
    out.set(filingKey(String(r.accession), String(r.cik)), r);
  }
  return out;
}

/** Appends rows in chunks, each merged with the lake's existing row for its key. */
function chunkedWriter(ctx: LoadContext) {
  let buf: { idx: IndexLine | null; sub: Sub | null; file: string; line?: number }[] = [];
  const flush = async () => {
    if (!buf.length) return;
    const batch = buf;
    buf = [];
    const prev = await existingRows(
      ctx,
      batch.map((b) => {
        const accession = (b.idx?.accession ?? b.sub?.accession)!;
        const cik = (b.idx?.cik ?? b.sub?.cik)!;
        return { accession, cik, quarter: quarterOf((b.idx?.filedDate ?? b.sub?.filed_date)!) };
      }),
    );
    for (const b of batch) {
      const key = filingKey((b.idx?.accession ?? b.sub?.accession)!, (b.idx?.cik ?? b.sub?.cik)!);
      const row = buildFilingRow(b.idx, b.sub, prev.get(key) ?? null);
      await ctx.append(filingsTable, row, { file: b.file, line: b.line });
      const nt = ntRow(row);
      if (nt) await ctx.append(ntLateTable, nt, { file: b.file, line: b.line });
    }
  };
  return {
    async add(item: { idx: IndexLine | null; sub: Sub | null; file: string; line?: number }) {
      buf.push(item);
      if (buf.length >= CHUNK) await flush();
    },
    flush,
  };
}

function isWeekend(iso: string): boolean {
  const d = new Date(`${iso}T00:00:00Z`).getUTCDay();
  return d === 0 || d === 6;
}

export default defineIngester({
  name: 'filings',
  description: 'Filing index from EDGAR full-index/daily-index master.idx, enriched with submissions data; also writes the late-filing notices (nt_late).',
  tables: [filingsTable, ntLateTable],
  // Its events carry the filer's ticker and name from the entity directory.
  dependsOn: ['entities'],
  parserVersion: 1,
  source: SOURCE.sec_edgar_index,
  sourceUrls: [
    'https://www.sec.gov/Archives/edgar/full-index/',
    'https://www.sec.gov/Archives/edgar/daily-index/',
    'https://data.sec.gov/submissions/CIK##########.json',
    'https://www.sec.gov/Archives/edgar/daily-index/bulkdata/submissions.zip',
  ],
  argsHelp:
    "--date YYYY-MM-DD (daily lane: that day's daily-index master.idx, merged into its quarter) | --period 2024Q3 (quarterly full-index master.idx) | " +
    '--from PATH (.idx files of any layout and/or submissions JSON files / submissions.zip; with --date or ' +
    '--period only filings of that day/quarter are kept). ' +
    'No argument: the bulk submissions.zip, kept to the current and previous quarter.',

  async inputs(ctx, args) {
    if (args.from) return listLocal(args.from, (n) => isIndexFile(n) || isSubmissionFile(n) || /\.zip$/i.test(n));
    const www = ctx.settings.SEC_BASE_URL;
    if (args.date) {
      const d = toIsoDate(args.date);
      if (!d || !/^\d{4}-\d{2}-\d{2}$/.test(args.date)) throw new Error(`--date ${args.date}: expected YYYY-MM-DD`);
      const q = quarterOf(d);
      const url = `${www}/Archives/edgar/daily-index/${d.slice(0, 4)}/QTR${q.slice(-1)}/master.${d.replace(/-/g, '')}.idx`;
      try {
        return [{ path: await ctx.http.download(url, { refresh: true }), url }];
      } catch (e) {
        // The index host answers 403/404 for days without a file (weekends, holidays, not yet published).
        if (e instanceof UpstreamError && (e.status === 403 || e.status === 404) && (isWeekend(d) || d >= new Date().toISOString().slice(0, 10))) {
          ctx.log(`no daily index for ${d} (weekend, holiday or not yet published)`);
          return [];
        }
        throw e;
      }
    }
    if (args.period) {
      const b = quarterBounds(args.period);
      if (!b) throw new Error(`--period ${args.period}: expected YYYYQn, e.g. 2024Q3`);
      const url = `${www}/Archives/edgar/full-index/${b.year}/QTR${b.quarter}/master.idx`;
      return [{ path: await ctx.http.download(url), url }];
    }
    const url = `${www}/Archives/edgar/daily-index/bulkdata/submissions.zip`;
    return [{ path: await ctx.http.download(url, { refresh: true }), url }];
  },

  async load(ctx, inputs, args) {
    const day = args.date ? toIsoDate(args.date) : null;
    const quarter = args.period ? quarterBounds(args.period) : null;
    const keep = (filed: string) => (day ? filed === day : quarter ? filed >= quarter.start && filed <= quarter.end : true);

    // 1. Index lines of the run, keyed (a day: thousands; a quarter: ~400k — the bounded in-memory part).
    const index = new Map<string, { row: IndexLine; file: string; line: number }>();
    for (const input of inputs.filter((i) => isIndexFile(base(i.path)))) {
      for await (const r of readIndexFile(input.path)) {
        if ('error' in r) {
          ctx.badRow({ file: input.path, line: r.lineNo, reason: r.error });
          continue;
        }
        if (!keep(r.row.filedDate)) continue;
        index.set(filingKey(r.row.accession, r.row.cik), { row: r.row, file: input.path, line: r.lineNo });
      }
    }
    const indexQuarters = new Set([...index.values()].map((v) => quarterOf(v.row.filedDate)));

    // Bulk submissions without a day/quarter: only the quarters the run indexes, else the current and previous one.
    const hasZip = inputs.some((i) => /\.zip$/i.test(i.path));
    let subQuarters: Set<string> | null = null;
    if (hasZip && !day && !quarter) {
      const now = new Date().toISOString().slice(0, 10);
      const prevQ = quarterOf(new Date(Date.UTC(+now.slice(0, 4), +now.slice(5, 7) - 4, 15)).toISOString().slice(0, 10));
      subQuarters = indexQuarters.size ? indexQuarters : new Set([quarterOf(now), prevQ]);
    }

    const writer = chunkedWriter(ctx);
    // 2. Submissions entries: merged with the run's index line when there is one.
    for await (const d of jsonDocuments(
      inputs.filter((i) => !isIndexFile(base(i.path))),
      isSubmissionFile,
    )) {
      if ('error' in d) {
        ctx.badRow({ file: d.file, line: null, reason: d.error });
        continue;
      }
      const kind = classifySubmissionFile(d.name)!;
      const doc = d.doc as Record<string, unknown>;
      if (!doc || typeof doc !== 'object') continue;
      if (!kind.overflow && !('filings' in doc)) continue; // not a submissions document (companyfacts, error body…)
      if (kind.overflow && !('accessionNumber' in doc)) continue;
      const entityName = kind.overflow ? null : (parseSubmissionEntity(doc, kind.cik)?.name ?? null);
      for (const r of submissionFilings(filingColumns(doc, kind.overflow), kind.cik)) {
        if ('error' in r) {
          ctx.badRow({ file: d.file, line: r.index, reason: r.error });
          continue;
        }
        const f = r.filing;
        if (!keep(f.filed_date) || (subQuarters && !subQuarters.has(quarterOf(f.filed_date)))) continue;
        const key = filingKey(f.accession, f.cik);
        const idx = index.get(key);
        if (idx) index.delete(key);
        await writer.add({ idx: idx?.row ?? null, sub: { ...f, entityName: entityName ?? idx?.row.company ?? f.cik }, file: d.file });
      }
    }
    // 3. Index lines the submissions did not cover (enrichment kept from the lake where present).
    for (const v of index.values()) await writer.add({ idx: v.row, sub: null, file: v.file, line: v.line });
    await writer.flush();
  },

  sample: writeFilingsSample,
});
