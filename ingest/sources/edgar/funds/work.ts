import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sqlString } from '../../../lake/duck.ts';
import type { LoadContext } from '../../common/context.ts';

/**
 * Work-database helpers shared by the 13F, N-PORT and N-CEN loaders: small JS-side results go back into DuckDB
 * as NDJSON files (one `read_json`, no row-by-row inserts). Earlier lake state, when a run has to reconcile with it
 * (amendments arriving in a later window), is read through `tableRelation` (ingest/lake/layout.ts), as every reader
 * reads the lake.
 */
export async function withScratch<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'funds-'));
  try {
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Creates (or replaces) a work table from JS rows; `columns` is DuckDB's read_json column map. */
export async function tableFromRows(
  ctx: Pick<LoadContext, 'sql'>,
  dir: string,
  name: string,
  columns: Record<string, string>,
  rows: Record<string, unknown>[],
): Promise<void> {
  const cols = Object.entries(columns)
    .map(([n, t]) => `${n} ${t}`)
    .join(', ');
  await ctx.sql(`CREATE OR REPLACE TEMP TABLE ${name} (${cols})`);
  if (!rows.length) return;
  const file = join(dir, `${name}.ndjson`);
  await writeFile(file, `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
  const map = Object.entries(columns)
    .map(([n, t]) => `${sqlString(n)}: ${sqlString(t)}`)
    .join(', ');
  await ctx.sql(`INSERT INTO ${name} BY NAME SELECT * FROM read_json(${sqlString(file)}, format = 'newline_delimited', columns = {${map}})`);
}

/** DuckDB text → DATE for the data sets' `DD-MON-YYYY` (case-insensitive month). */
export function dmySql(col: string): string {
  return `TRY_CAST(try_strptime(trim(${col}), '%d-%b-%Y') AS DATE)`;
}

/** Y/N, true/false text → BOOLEAN (null otherwise). */
export function boolSql(col: string): string {
  return `CASE upper(trim(${col})) WHEN 'Y' THEN true WHEN 'TRUE' THEN true WHEN 'N' THEN false WHEN 'FALSE' THEN false END`;
}

export function numSql(col: string, type = 'DOUBLE'): string {
  // Most cells are plain numbers: the direct cast is tried first (2.5× cheaper than trim + replace on every cell).
  const d = `coalesce(TRY_CAST(${col} AS DOUBLE), TRY_CAST(replace(trim(${col}), ',', '') AS DOUBLE))`;
  // Integer columns sometimes arrive as `100.0`: parse as a number, then round.
  return type === 'DOUBLE' ? d : `CAST(round(${d}) AS ${type})`;
}

/**
 * Empty/blank text → NULL, whitespace runs folded to one space. The regex runs only on cells that have a run to
 * fold (a cheap substring test first): on a 3M-line INFOTABLE the unconditional regex was a third of the load.
 */
export function textSql(col: string): string {
  const needsFold = `(contains(${col}, '  ') OR contains(${col}, chr(13)) OR contains(${col}, chr(10)) OR contains(${col}, chr(12)))`;
  return `nullif(trim(CASE WHEN ${needsFold} THEN regexp_replace(${col}, '\\s+', ' ', 'g') ELSE ${col} END), '')`;
}

export function cikSql(col: string): string {
  return `lpad(CAST(TRY_CAST(trim(${col}) AS BIGINT) AS VARCHAR), 10, '0')`;
}

/** The filing index page, the `source_url` of every 13F/N-PORT/N-CEN record (JS form; SQL twin below). */
export function filingIndexUrl(cik: string, accession: string): string {
  return `https://www.sec.gov/Archives/edgar/data/${Number(cik)}/${accession.replace(/-/g, '')}/${accession}-index.htm`;
}

export function filingIndexUrlSql(cikCol: string, accCol: string): string {
  return (
    `'https://www.sec.gov/Archives/edgar/data/' || CAST(TRY_CAST(${cikCol} AS BIGINT) AS VARCHAR) || '/' || ` +
    `replace(${accCol}, '-', '') || '/' || ${accCol} || '-index.htm'`
  );
}

/** Calendar quarter label (`2024Q4`) of a DATE expression (SQL twin of core `quarterOf`). */
export function quarterSql(dateExpr: string): string {
  return `CAST(year(${dateExpr}) AS VARCHAR) || 'Q' || CAST(quarter(${dateExpr}) AS VARCHAR)`;
}
