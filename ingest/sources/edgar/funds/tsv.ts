import { basename } from 'node:path';
import { sqlString } from '../../../lake/duck.ts';
import { insertedRows } from '../../../lake/staging.ts';
import type { LoadContext } from '../../common/context.ts';

/**
 * Bulk-loads one of the regulator's tab-separated data set members through DuckDB's own reader (10× faster than
 * JS on millions of rows). The files are unquoted, so quoting is off; a line DuckDB cannot split is rejected
 * into `reject_errors` and reported as a bad row instead of failing the run. The files are UTF-8 except for a
 * few latin-1 bytes: a member holding one is read again as latin-1 (`loadTsv`).
 */
function readCsvSql(path: string, encoding: Encoding = 'utf-8'): string {
  return (
    `read_csv(${sqlString(path)}, delim = '\\t', header = true, quote = '', escape = '', all_varchar = true, ` +
    `encoding = ${sqlString(encoding)}, store_rejects = true, ignore_errors = true, max_line_size = 10000000)`
  );
}

/**
 * Runs `build(<reader of each path>)`, the readers in the order of `paths` (one member, or several read by one
 * statement); returns the rows the statement inserted (0 for a statement that inserts none). A rejected line is
 * reported against the member it came from.
 *
 * Encoding: DuckDB's reader, told to skip bad lines, rejects a line with a latin-1 byte as `INVALID ENCODING` instead
 * of failing the statement (it throws only when such a byte is in what it sniffs). So the statement runs in a
 * transaction: when a member had such a line it is rolled back and run again with that member read as latin-1; the
 * other members stay UTF-8.
 */
export async function loadTsv(ctx: LoadContext, paths: string | readonly string[], build: (...relations: string[]) => string): Promise<number> {
  const files = typeof paths === 'string' ? [paths] : [...paths];
  const encodings = files.map((): Encoding => 'utf-8');
  // Each round reads one member more as latin-1, so this ends after at most one round per member.
  for (;;) {
    const attempt = await attemptLoad(ctx, files, encodings, build);
    if (attempt.kind === 'loaded') return attempt.rows;
    const next = attempt.kind === 'rejected' ? attempt.files : await failingAlone(ctx, files, encodings);
    if (!next.length) throw attempt.kind === 'encoding' ? attempt.error : new Error('a member read as latin-1 was rejected as invalid encoding');
    for (const f of next) {
      encodings[files.indexOf(f)] = 'latin-1';
      ctx.log(`${basename(f)}: not valid UTF-8, read as latin-1`);
    }
  }
}

type Encoding = 'utf-8' | 'latin-1';
type Attempt = { kind: 'loaded'; rows: number } | { kind: 'rejected'; files: string[] } | { kind: 'encoding'; error: unknown };

/** One run of the statement in a transaction: committed with its bad rows reported, or rolled back for a re-read. */
async function attemptLoad(ctx: LoadContext, files: string[], encodings: Encoding[], build: (...relations: string[]) => string): Promise<Attempt> {
  await ctx.sql('BEGIN TRANSACTION');
  let committed = false;
  try {
    let result: Record<string, unknown>[];
    try {
      result = await ctx.sql(build(...files.map((f, i) => readCsvSql(f, encodings[i]))));
    } catch (err) {
      if (isEncodingError(err)) return { kind: 'encoding', error: err };
      throw err;
    }
    const rejected = (what: string, rest: string) =>
      ctx.sql(`SELECT ${what} FROM reject_errors e JOIN reject_scans s USING (scan_id, file_id) ${rest}`).catch(() => [] as Record<string, unknown>[]);
    const misread = await rejected('DISTINCT s.file_path', "WHERE e.error_type = 'INVALID ENCODING'");
    const utf8Misread = misread.map((r) => String(r.file_path)).filter((f) => encodings[files.indexOf(f)] === 'utf-8');
    if (utf8Misread.length) return { kind: 'rejected', files: utf8Misread };
    const rejects = await rejected('e.line, e.error_message, s.file_path', 'ORDER BY s.file_path, e.line LIMIT 1000');
    for (const r of rejects) {
      ctx.badRow({ file: basename(String(r.file_path)), line: r.line == null ? null : Number(r.line), reason: String(r.error_message) });
    }
    await ctx.sql(`DELETE FROM reject_errors`).catch(() => []);
    await ctx.sql(`DELETE FROM reject_scans`).catch(() => []);
    await ctx.sql('COMMIT');
    committed = true;
    return { kind: 'loaded', rows: insertedRows(result) };
  } finally {
    if (!committed) await ctx.sql('ROLLBACK').catch(() => []);
  }
}

const isEncodingError = (err: unknown) => /unicode|utf-?8|encoding/i.test(String(err));

/**
 * The members still read as UTF-8 that fail on their encoding when read alone (the statement threw on it, which
 * DuckDB does when the byte is in what it sniffs); a single such member needs no probe. Each probe is a whole read,
 * rolled back with the lines it rejected: only on this error path.
 */
async function failingAlone(ctx: LoadContext, files: string[], encodings: Encoding[]): Promise<string[]> {
  const utf8 = files.filter((_, i) => encodings[i] === 'utf-8');
  if (utf8.length <= 1) return utf8;
  const out: string[] = [];
  for (const f of utf8) {
    await ctx.sql('BEGIN TRANSACTION');
    try {
      await ctx.sql(`SELECT count(*) AS n FROM ${readCsvSql(f)}`);
    } catch (err) {
      if (!isEncodingError(err)) throw err;
      out.push(f);
    } finally {
      await ctx.sql('ROLLBACK').catch(() => []);
    }
  }
  return out;
}

/** Header columns of a TSV member (upper-cased), to adapt to columns that differ across eras. */
export async function tsvColumns(ctx: LoadContext, path: string): Promise<Set<string>> {
  const rows = await ctx.sql(`DESCRIBE SELECT * FROM ${readCsvSql(path)}`);
  return new Set(rows.map((r) => String(r.column_name).toUpperCase()));
}

/**
 * Checks that a data set has its required members (otherwise one bad row and `false`), then loads members as TEMP
 * tables; a missing member becomes an empty table of the given VARCHAR columns, so the SQL that follows needs no
 * branches. `columns` is only used for that empty table.
 */
export async function loadMemberTables(
  ctx: LoadContext,
  members: Map<string, string>,
  label: string,
  required: string[],
  tables: { member: string; table: string; columns: string[] }[],
): Promise<boolean> {
  const missing = required.filter((m) => !members.has(m));
  if (missing.length) {
    ctx.badRow({ file: label, line: null, reason: `data set lacks ${missing.join(', ')}; skipped` });
    return false;
  }
  for (const t of tables) {
    const path = members.get(t.member);
    if (path) await loadTsv(ctx, path, (rel) => `CREATE OR REPLACE TEMP TABLE ${t.table} AS SELECT * FROM ${rel}`);
    else await ctx.sql(`CREATE OR REPLACE TEMP TABLE ${t.table} (${t.columns.map((c) => `${c} VARCHAR`).join(', ')})`);
  }
  return true;
}
