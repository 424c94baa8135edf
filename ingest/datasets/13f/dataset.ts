import { readFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { defineIngester } from '../../pipeline/contract.ts';
import type { LoadContext, RawInput } from '../../sources/common/context.ts';
import { localInputs } from '../../sources/common/local-inputs.ts';
import { downloadListedZip, forEachDataSet } from '../../sources/edgar/funds/inputs.ts';
import { DATASET_MEMBERS, loadDataset13f } from './dataset-tsv.ts';
import { addParsedFilings, createRaw13f, finish13f } from './pipeline.ts';
import type { RawFiling, RawInfo } from '../../sources/edgar/funds/13f-raw.ts';
import { write13fSample } from './sample.ts';
import { holdings13f, TABLES_13F } from '../../../schemas/tables/13f.ts';
import { pickZipForPeriod } from './windows.ts';
import { parse13fFiling } from '../../sources/edgar/funds/13f-xml.ts';
import { SOURCE } from '../../../schemas/sources.ts';
import { sniffInput } from '../../sources/edgar/local-filings.ts';

const PAGE = '/data-research/sec-markets-data/form-13f-data-sets';
const ACCESSION_IN_NAME = /(\d{10}-?\d{2}-?\d{6})/;

const KNOWN_FILING = /\.(xml|txt|nc)$/i;

/**
 * `--from` files: data sets (zip, TSV members) and filings by extension; any other file is sniffed by content (a
 * `.raw` full submission is a filing) or reported as skipped by `load`. Other files of a data-set folder
 * (metadata JSON, readme) belong to the data set and are passed over.
 */
async function local13fInputs(from: string): Promise<RawInput[]> {
  const files = await localInputs(from);
  const dataSetDirs = new Set(files.filter((f) => /^submission\.tsv$/i.test(basename(f.path))).map((f) => dirname(f.path)));
  const out: RawInput[] = [];
  for (const f of files) {
    if (/\.(zip|tsv)$/i.test(f.path) || KNOWN_FILING.test(f.path)) out.push(f);
    else if (!dataSetDirs.has(dirname(f.path))) {
      const sniffed = await sniffInput(f.path);
      out.push({ ...f, meta: { kind: sniffed === 'submission' || sniffed === 'xml' ? 'filing' : 'unrecognised', container: sniffed === 'submission' } });
    }
  }
  return out;
}

/** Bare XML documents of one filing (primary_doc + information table) sit in one folder named after it. */
async function loadFilingFiles(ctx: LoadContext, files: RawInput[]): Promise<void> {
  const filings: RawFiling[] = [];
  const rows: RawInfo[] = [];
  const byFolder = new Map<string, RawInput[]>();
  for (const f of files) {
    // A container (.txt, .nc, or a sniffed submission under another name) is a filing by itself.
    const key = /\.(txt|nc)$/i.test(f.path) || f.meta?.container === true ? f.path : dirname(f.path);
    (byFolder.get(key) ?? byFolder.set(key, []).get(key)!).push(f);
  }
  for (const [key, group] of byFolder) {
    const accession = (basename(key).match(ACCESSION_IN_NAME) ?? group.map((g) => basename(g.path).match(ACCESSION_IN_NAME)).find(Boolean))?.[1] ?? null;
    let filing: RawFiling | null = null;
    const lines: RawInfo[] = [];
    for (const f of group) {
      const parsed = await parse13fFiling(await readFile(f.path, 'utf8'), { accession });
      filing ??= parsed.filing;
      lines.push(...parsed.rows);
    }
    if (!filing || filing.accession_number === 'unknown') {
      ctx.badRow({
        file: basename(key),
        line: null,
        reason: filing ? 'no accession number in the container or the file name' : 'no 13F cover page (primary_doc) found',
      });
      continue;
    }
    filings.push(filing);
    for (const l of lines) rows.push({ ...l, accession_number: filing.accession_number });
  }
  await addParsedFilings(ctx, filings, rows);
}

export default defineIngester({
  name: '13f',
  description: 'Form 13F managers and holdings: quarterly Form 13F data sets (bulk, DuckDB read_csv) and single 13F-HR XML filings.',
  tables: TABLES_13F,
  // Issuers are resolved against the entity directory (entities, entity_names).
  dependsOn: ['entities'],
  // 2: information tables filed twice keep one copy (duplicates.ts).
  parserVersion: 2,
  // A real quarter (3.08M lines, 24k securities) peaked at 1,483–1,601 MB of RSS at the 1GB default, past the 1.5 GB
  // target, and at 1,214–1,305 MB at 768MB for the same CPU (docs/13f-funds.md, "Memory"). INGEST_MEMORY_LIMIT overrides.
  memoryLimit: '768MB',
  source: SOURCE.sec_form_13f,
  sourceUrls: [`https://www.sec.gov${PAGE}`],
  argsHelp:
    '--period 2024Q4 (reporting quarter: downloads the data set window holding its reports) | --from <zip | folder of TSVs | 13F-HR .txt/.nc/.xml files>',
  async inputs(ctx, args) {
    if (args.from) return local13fInputs(args.from);
    if (!args.period) throw new Error('13f: give --period 2024Q4 or --from <path>');
    const period = args.period;
    return [await downloadListedZip(ctx, PAGE, /_form13f\.zip$/i, (urls) => pickZipForPeriod(urls, period), `13f --period ${period}`)];
  },
  async load(ctx, inputs) {
    for (const i of inputs.filter((x) => x.meta?.kind === 'unrecognised')) {
      ctx.badRow({ file: basename(i.path), line: null, reason: 'skipped: not a data set member, zip or 13F filing (by extension or content)' });
    }
    await createRaw13f(ctx);
    await forEachDataSet(inputs, DATASET_MEMBERS, async (members, label) => {
      await loadDataset13f(ctx, members, label);
      ctx.progress.note(`${label} loaded`);
    });
    const singles = inputs.filter((i) => KNOWN_FILING.test(i.path) || i.meta?.kind === 'filing');
    if (singles.length) await loadFilingFiles(ctx, singles);
    await finish13f(ctx);
    // holdings_13f_by_manager is written from staging_holdings_13f (its table's `copyOf`): nothing is staged for it,
    // but its rows are rows of the run, so progress counts them as when they were staged twice.
    const [{ n }] = await ctx.sql(`SELECT count(*)::BIGINT AS n FROM staging_${holdings13f.name}`);
    ctx.progress.rows(Number(n));
  },
  sample: write13fSample,
});
