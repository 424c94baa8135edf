import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { IngestArgs, IngestContext, RawInput } from '../../../pipeline/contract.ts';
import { UpstreamError } from '../../common/http.ts';
import { quarterBounds } from '../../common/normalize.ts';
import { localInputs } from '../../common/local-inputs.ts';

/**
 * Inputs of a dataset fed both by a quarterly bulk zip and by individual filings:
 * `--period 2024Q3` downloads the zip (trying the current and the older `/files/dera/` path), `--from` takes an
 * extracted data-set folder (recognized by its marker member), zips, and filing files (.xml, .txt, .nc).
 */
export type InputKind = 'data_set_zip' | 'data_set_dir' | 'filing';

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

export async function dataSetOrFilingInputs(ctx: IngestContext, args: IngestArgs, src: BulkSource | null, dataset: string): Promise<RawInput[]> {
  if (args.from) {
    const files = await localInputs(args.from, (n) => (src != null && (/\.zip$/i.test(n) || src.marker.test(n))) || FILING_FILE.test(n));
    return files.map((f): RawInput => {
      const name = basename(f.path);
      if (src?.marker.test(name)) return { path: dirname(f.path), url: null, meta: { kind: 'data_set_dir' } };
      if (/\.zip$/i.test(name)) return { ...f, meta: { kind: 'data_set_zip' } };
      return { ...f, meta: { kind: 'filing' } };
    });
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

/** Accession from a file name that follows EDGAR's `<accession>.txt` layout, else null. */
export function accessionFromFileName(file: string): string | null {
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
