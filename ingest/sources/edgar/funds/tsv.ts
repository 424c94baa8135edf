import { basename } from 'node:path';
import { sqlString } from '../../../lake/duck.ts';
import { insertedRows } from '../../../lake/staging.ts';
import type { LoadContext } from '../../common/context.ts';

/**
 * Bulk-loads one of the regulator's tab-separated data set members through DuckDB's own reader (10× faster than
 * JS on millions of rows). The files are unquoted, so quoting is off; a line DuckDB cannot split is rejected
 * into `reject_errors` and reported as a bad row instead of failing the run. The files are UTF-8 except for a
 * few latin-1 bytes: a member holding one is read again as latin-1 (`loadTsv`); a member with a line longer than
 * its reader takes is read again with a longer limit.
 */
function readCsvSql(path: string, read: MemberRead = FIRST_READ): string {
  return (
    `read_csv(${sqlString(path)}, delim = '\\t', header = true, quote = '', escape = '', all_varchar = true, ` +
    `encoding = ${sqlString(read.encoding)}, store_rejects = true, ignore_errors = true, max_line_size = ${read.maxLine})`
  );
}

/**
 * The longest line a member's first read takes. DuckDB's reader allocates each of its buffers at 16 times this size,
 * whatever the file's size, and keeps them pinned while it reads: at the 10,000,000 bytes every read allowed before, a
 * buffer took 152.5 MiB of the work database's memory limit, so a 10M-line N-PORT data set (two members read at once
 * beside the identifiers join) failed out of memory at the 1GB default in about one run of three, and at 768MB every
 * time. At DuckDB's own default (2 MiB, buffers of 32 MiB) the same statement passes at 640MB. The real members' lines
 * are under 1 KB (docs/13f-funds.md, "The data set readers' buffers").
 */
const FIRST_LINE_LIMIT = 2_097_152;
/** The longest line any read takes (its buffers 256 MiB); a longer one stays a bad row, as past 10 MB before. */
const LINE_LIMIT_CAP = 16_777_216;

/** How one member is read: its encoding and the longest line its reader takes. */
interface MemberRead {
  encoding: 'utf-8' | 'latin-1';
  maxLine: number;
}
const FIRST_READ: MemberRead = { encoding: 'utf-8', maxLine: FIRST_LINE_LIMIT };

/**
 * Runs `build(<reader of each path>)`, the readers in the order of `paths` (one member, or several read by one
 * statement); returns the rows the statement inserted (0 for a statement that inserts none). A rejected line is
 * reported against the member it came from.
 *
 * The statement runs in a transaction, rolled back and run again when a member must be read otherwise:
 * - Encoding: DuckDB's reader, told to skip bad lines, rejects a line with a latin-1 byte as `INVALID ENCODING` instead
 *   of failing the statement (it throws only when such a byte is in what it sniffs). That member is read as latin-1;
 *   the other members stay UTF-8.
 * - Line length: a line longer than its reader takes is rejected the same way (or throws, in what it sniffs). That
 *   member is read with a limit above its longest such line (the next power of two), up to `LINE_LIMIT_CAP`, so the
 *   small buffers of the first read cost no line a longer limit would have kept.
 */
export async function loadTsv(ctx: LoadContext, paths: string | readonly string[], build: (...relations: string[]) => string): Promise<number> {
  const files = typeof paths === 'string' ? [paths] : [...paths];
  const reads = files.map((): MemberRead => ({ ...FIRST_READ }));
  // Each round reads a member as latin-1 (once) or with a longer limit (which only grows, up to the cap), so this
  // ends after a few rounds per member.
  for (;;) {
    const attempt = await attemptLoad(ctx, files, reads, build);
    if (attempt.kind === 'loaded') return attempt.rows;
    if (attempt.kind === 'long') {
      for (const [f, longest] of attempt.files) takeLongerLines(ctx, f, reads[files.indexOf(f)], longest);
      continue;
    }
    const next = attempt.kind === 'rejected' ? attempt.files : await failingAlone(ctx, files, reads);
    if (!next.length) throw attempt.kind === 'encoding' ? attempt.error : new Error('a member read as latin-1 was rejected as invalid encoding');
    for (const f of next) {
      reads[files.indexOf(f)].encoding = 'latin-1';
      ctx.log(`${basename(f)}: not valid UTF-8, read as latin-1`);
    }
  }
}

type Attempt =
  | { kind: 'loaded'; rows: number }
  | { kind: 'rejected'; files: string[] }
  | { kind: 'encoding'; error: unknown }
  /** Members to read again with a longer limit, each with its longest line past its limit. */
  | { kind: 'long'; files: Map<string, number> };

/** One run of the statement in a transaction: committed with its bad rows reported, or rolled back for a re-read. */
async function attemptLoad(ctx: LoadContext, files: string[], reads: MemberRead[], build: (...relations: string[]) => string): Promise<Attempt> {
  await ctx.sql('BEGIN TRANSACTION');
  let committed = false;
  try {
    let result: Record<string, unknown>[];
    try {
      result = await ctx.sql(build(...files.map((f, i) => readCsvSql(f, reads[i]))));
    } catch (err) {
      // The long line first: DuckDB's message lists the reader's options, which an encoding test could match.
      const long = sniffedLongLine(err, files, reads);
      if (long) return { kind: 'long', files: new Map([long]) };
      if (isEncodingError(err)) return { kind: 'encoding', error: err };
      throw err;
    }
    const rejected = (what: string, rest: string) =>
      ctx.sql(`SELECT ${what} FROM reject_errors e JOIN reject_scans s USING (scan_id, file_id) ${rest}`).catch(() => [] as Record<string, unknown>[]);
    const misread = await rejected('DISTINCT s.file_path', "WHERE e.error_type = 'INVALID ENCODING'");
    const utf8Misread = misread.map((r) => String(r.file_path)).filter((f) => reads[files.indexOf(f)]?.encoding === 'utf-8');
    if (utf8Misread.length) return { kind: 'rejected', files: utf8Misread };
    const tooLong = await rejected(
      "s.file_path, max(TRY_CAST(regexp_extract(e.error_message, 'Actual Size:\\s*(\\d+)', 1) AS BIGINT)) AS longest",
      "WHERE e.error_type = 'LINE SIZE OVER MAXIMUM' GROUP BY 1",
    );
    const longer = new Map(
      tooLong
        .map((r): [string, number] => [String(r.file_path), Number(r.longest)])
        .filter(([f, longest]) => files.includes(f) && longest > 0 && reads[files.indexOf(f)].maxLine < Math.min(longest, LINE_LIMIT_CAP)),
    );
    if (longer.size) return { kind: 'long', files: longer };
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

/** Makes `read` take a line of `longest` bytes: the next power of two above it, up to `LINE_LIMIT_CAP`. */
function takeLongerLines(ctx: LoadContext, path: string, read: MemberRead, longest: number): void {
  read.maxLine = Math.min(LINE_LIMIT_CAP, 2 ** Math.ceil(Math.log2(longest + 1)));
  ctx.log(`${basename(path)}: a line of ${longest} bytes, read again taking lines up to ${read.maxLine} bytes`);
}

/**
 * The member and the size of a line past its limit in what DuckDB sniffs, where it throws instead of rejecting the
 * line; null for any other error, or a member already read at `LINE_LIMIT_CAP` (the error then stands).
 */
function sniffedLongLine(err: unknown, files: string[], reads: MemberRead[]): [string, number] | null {
  const text = String(err);
  const size = text.match(/Maximum line size of \d+ bytes exceeded\. Actual Size:\s*(\d+)/);
  const file = text.match(/^\s*file = (.+)$/m)?.[1]?.trim();
  const at = file ? files.indexOf(file) : -1;
  if (!size || at < 0 || reads[at].maxLine >= LINE_LIMIT_CAP) return null;
  return [file!, Number(size[1])];
}

const isEncodingError = (err: unknown) => /unicode|utf-?8|encoding/i.test(String(err));

/**
 * The members still read as UTF-8 that fail on their encoding when read alone (the statement threw on it, which
 * DuckDB does when the byte is in what it sniffs); a single such member needs no probe. Each probe is a whole read,
 * rolled back with the lines it rejected: only on this error path.
 */
async function failingAlone(ctx: LoadContext, files: string[], reads: MemberRead[]): Promise<string[]> {
  const utf8 = files.filter((_, i) => reads[i].encoding === 'utf-8');
  if (utf8.length <= 1) return utf8;
  const out: string[] = [];
  for (const f of utf8) {
    await ctx.sql('BEGIN TRANSACTION');
    try {
      await ctx.sql(`SELECT count(*) AS n FROM ${readCsvSql(f, reads[files.indexOf(f)])}`);
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
  // DuckDB sniffs the file to describe it: a long line there is taken as `loadTsv` takes it.
  const read = { ...FIRST_READ };
  for (;;) {
    try {
      const rows = await ctx.sql(`DESCRIBE SELECT * FROM ${readCsvSql(path, read)}`);
      return new Set(rows.map((r) => String(r.column_name).toUpperCase()));
    } catch (err) {
      const long = sniffedLongLine(err, [path], [read]);
      if (!long) throw err;
      takeLongerLines(ctx, path, read, long[1]);
    }
  }
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
