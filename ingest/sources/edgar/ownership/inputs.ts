import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import type { IngestArgs, IngestContext, LoadContext, RawInput } from '../../common/context.ts';
import { UpstreamError } from '../../common/http.ts';
import { normalizeAccession, quarterBounds } from '../../common/normalize.ts';
import { localInputs } from '../../common/local-inputs.ts';
import { sniffInput } from '../local-filings.ts';

/**
 * Inputs of a dataset fed both by a quarterly bulk zip and by individual filings:
 * `--period 2024Q3` downloads the zip (trying the current and the older `/files/dera/` path), `--from` takes an
 * extracted data-set folder (recognized by its marker member), zips, and filing files (.xml, .txt, .nc); any other
 * file is sniffed by content (a `.raw` full submission is a filing) or marked `unrecognised` for the loader to
 * report (`reportUnrecognised`).
 */
export type InputKind = 'data_set_zip' | 'data_set_dir' | 'filing' | 'unrecognised';

export interface BulkSource {
  /** Folder names under sec.gov/files/…, e.g. `insider-transactions-data-sets`. */
  folder: string;
  /** Zip file name for a quarter, e.g. `2024q3_form345.zip`. */
  zipName(year: number, quarter: number): string;
  /** Member whose presence marks an extracted data-set folder, e.g. `SUBMISSION.tsv`. */
  marker: RegExp;
}

const FILING_FILE = /\.(xml|txt|nc)$/i;

export function kindOf(input: RawInput): InputKind | undefined {
  return input.meta?.kind as InputKind | undefined;
}

/**
 * `--accession` with `--from`: the accession of a filing whose documents name none (a bare ownership XML saved
 * under any name). `cik/accession` or a bare accession; one filing only, since every file would get it.
 */
export function explicitAccession(args: IngestArgs): string | null {
  if (!args.accession) return null;
  const items = args.accession.split(',').filter((a) => a.trim());
  const acc = items.length === 1 ? normalizeAccession(items[0]!.trim().split('/').at(-1)!) : null;
  if (!acc) throw new Error(`--accession ${args.accession}: give one accession (0001234567-24-000123 or cik/accession) with --from <one filing>`);
  return acc;
}

export async function dataSetOrFilingInputs(ctx: IngestContext, args: IngestArgs, src: BulkSource | null, dataset: string): Promise<RawInput[]> {
  if (args.from) {
    const files = await localInputs(args.from);
    // Every other file of an extracted data-set folder is one of its members, read by the data-set loader.
    const dataSetDirs = new Set(src ? files.filter((f) => src.marker.test(basename(f.path))).map((f) => dirname(f.path)) : []);
    const out: RawInput[] = [];
    for (const f of files) {
      const name = basename(f.path);
      if (src?.marker.test(name)) out.push({ path: dirname(f.path), url: null, meta: { kind: 'data_set_dir' } });
      else if (dataSetDirs.has(dirname(f.path))) continue;
      else if (/\.zip$/i.test(name)) out.push({ ...f, meta: { kind: src ? 'data_set_zip' : 'unrecognised' } });
      else if (FILING_FILE.test(name)) out.push({ ...f, meta: { kind: 'filing' } });
      else {
        const sniffed = await sniffInput(f.path);
        const kind = sniffed === 'submission' || sniffed === 'xml' ? 'filing' : sniffed === 'zip' && src ? 'data_set_zip' : 'unrecognised';
        out.push({ ...f, meta: { kind, sniffed: true } });
      }
    }
    const accession = explicitAccession(args);
    if (accession) {
      const filings = out.filter((i) => kindOf(i) === 'filing');
      if (filings.length !== 1) throw new Error(`--accession ${accession} names one filing; --from ${args.from} holds ${filings.length} filing files`);
      filings[0]!.meta = { ...filings[0]!.meta, accession };
    }
    return out;
  }
  if (!src) throw new Error(`${dataset}: there is no bulk data set for this form; give --from <folder of filings>`);
  const q = args.period ? quarterBounds(args.period) : null;
  if (!q) throw new Error(`${dataset}: give --period YYYYQn (e.g. 2024Q3) or --from <path>`);
  let lastErr: unknown = null;
  for (const prefix of ['/files/structureddata/data/', '/files/dera/data/']) {
    const url = `${ctx.settings.SEC_BASE_URL}${prefix}${src.folder}/${src.zipName(q.year, q.quarter)}`;
    try {
      return [{ path: await ctx.http.download(url), url, meta: { kind: 'data_set_zip' } }];
    } catch (err) {
      lastErr = err;
      // Some quarters are only served under the older prefix; anything but a 404 is a real failure.
      if (!(err instanceof UpstreamError && err.kind === 'not_found')) throw err;
    }
  }
  throw lastErr;
}

/**
 * Reports every input neither a data set nor a filing (by extension or by content) as a skipped bad row naming the
 * file, so nothing under `--from` is ignored silently; returns the others.
 */
export function reportUnrecognised(ctx: Pick<LoadContext, 'badRow'>, inputs: RawInput[]): RawInput[] {
  return inputs.filter((i) => {
    if (kindOf(i) !== 'unrecognised') return true;
    const ext = extname(i.path) || '(no extension)';
    ctx.badRow({ file: basename(i.path), line: null, reason: `skipped: extension ${ext} not read and the content is not a submission, XML or zip` });
    return false;
  });
}

/**
 * One filing input read and parsed, with its accession taken from the file's layout when the document names none.
 * A document the parser refuses (it throws `Refusal`) is reported as a bad row naming the file, and null returned;
 * any other error is a bug and propagates.
 */
export async function readFiling<T extends { accession: string | null }>(
  ctx: Pick<LoadContext, 'badRow' | 'progress'>,
  input: RawInput,
  parse: (text: string) => T,
  Refusal: abstract new (...args: never[]) => Error,
): Promise<{ file: string; doc: T } | null> {
  const file = basename(input.path);
  const text = await readFile(input.path, 'utf8');
  ctx.progress.bytes(text.length);
  let doc: T;
  try {
    doc = parse(text);
  } catch (err) {
    if (!(err instanceof Refusal)) throw err;
    ctx.badRow({ file, line: null, reason: err.message });
    return null;
  }
  // A bare XML names no accession; the EDGAR file layout `<accession>.txt` / `<accession>.xml` often does.
  doc.accession ??= filingAccession(input);
  return { file, doc };
}

/** The accession a filing input carries: `--accession` given for it, else its file name's (EDGAR layout). */
function filingAccession(input: RawInput): string | null {
  return (input.meta?.accession as string | undefined) ?? accessionFromFileName(input.path);
}

/** Accession from a file name that follows EDGAR's `<accession>.txt` layout, else null. */
function accessionFromFileName(file: string): string | null {
  const m = basename(file).match(/(\d{10})-?(\d{2})-?(\d{6})/);
  return m ? `${m[1]}-${m[2]}-${m[3]}` : null;
}

/** Finds the member files (`SUBMISSION.tsv` …) in a folder, in any letter case. */
export function dataSetMemberPath(dir: string, member: string): string | null {
  for (const name of [`${member}.tsv`, `${member.toLowerCase()}.tsv`]) {
    const p = join(dir, name);
    if (existsSync(p)) return p;
  }
  return null;
}
