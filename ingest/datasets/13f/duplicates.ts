import type { LoadContext } from '../../sources/common/context.ts';
import { tableFromRows, withScratch } from '../../sources/edgar/funds/work.ts';

/**
 * Some managers submit their information table twice in one filing: in the quarterly data set the filing then has
 * exactly k × TABLEENTRYTOTAL lines, every row repeated k times, and holdings, the manager's total and share sums
 * come out k times too large. Per filing, in SQL over `raw13f_info` (a quarter is ~3M lines; nothing row by row
 * in JS), exact duplicate rows are counted; only filings with more lines than the summary page's entry total (or
 * no entry total) are examined. The copies are dropped only when the evidence agrees:
 *   - every distinct row appears the same number of times k ≥ 2,
 *   - the line count is k × the entry total (so one copy has exactly the stated number of rows),
 *   - one copy's VALUE sum matches the summary page's table value total (within 0.1%: rounded cells).
 * Otherwise the rows are kept as filed and the filing is flagged (`duplicate_rows_decision = 'kept'`) with the
 * reason, the way the VALUE unit decision is recorded.
 */

export type DuplicateDecision = 'none' | 'removed' | 'kept';

export interface DuplicateFacts {
  /** Lines as filed. */
  lines: number;
  /** Distinct rows (all columns but the line number). */
  distinctRows: number;
  /** Distinct rows that occur more than once. */
  repeatedRows: number;
  minCopies: number;
  maxCopies: number;
  /** VALUE sum over one copy of each distinct row, in the filing's unit. */
  distinctValue: number | null;
  tableEntryTotal: number | null;
  tableValueTotal: number | null;
}

export interface DuplicateVerdict {
  decision: Exclude<DuplicateDecision, 'none'>;
  reason: string;
}

/** Relative gap allowed between one copy's VALUE sum and the summary total (cells are rounded, the total too). */
const VALUE_TOLERANCE = 0.001;

const n = (x: number) => x.toLocaleString('en-US', { maximumFractionDigits: 2 });

export function decideDuplicates(f: DuplicateFacts): DuplicateVerdict {
  const k = f.maxCopies;
  const filed = `${n(f.lines)} lines, ${n(f.repeatedRows)} of ${n(f.distinctRows)} distinct rows repeated (up to ${k}×)`;
  const problems: string[] = [];
  if (f.minCopies !== f.maxCopies) problems.push(`rows repeat ${f.minCopies} to ${f.maxCopies} times, not a whole number of copies`);
  if (f.tableEntryTotal == null || f.tableEntryTotal <= 0) problems.push('no entry total on the summary page');
  else if (f.lines !== k * f.tableEntryTotal || f.distinctRows !== f.tableEntryTotal)
    problems.push(`line count is not ${k} × the entry total ${n(f.tableEntryTotal)}`);
  if (f.tableValueTotal == null) problems.push('no value total on the summary page');
  else if (f.distinctValue == null || Math.abs(f.distinctValue - f.tableValueTotal) > Math.max(1, Math.abs(f.tableValueTotal) * VALUE_TOLERANCE))
    problems.push(`one copy's VALUE sum ${n(f.distinctValue ?? 0)} differs from the summary total ${n(f.tableValueTotal)}`);
  if (problems.length) return { decision: 'kept', reason: `${filed}; kept as filed: ${problems.join('; ')}` };
  return {
    decision: 'removed',
    reason:
      `${filed}: ${k} identical copies of the ${n(f.tableEntryTotal!)} entries on the summary page, one copy's VALUE sum ` +
      `${n(f.distinctValue!)} matches the summary total ${n(f.tableValueTotal!)}; one copy kept (its first lines)`,
  };
}

/** Every column of a row but its position: two rows are duplicates when all of these are equal (NULLs equal). */
const ROW_COLUMNS =
  'issuer_name, title_of_class, cusip_raw, figi, value_reported, shares, shares_type, put_call, investment_discretion, other_manager, ' +
  'voting_sole, voting_shared, voting_none';

/**
 * Decides every filing of the run's raw tables, drops the extra copies of the `removed` ones from `raw13f_info`,
 * and returns the verdicts by accession (filings absent from the map have no repeated rows: `none`).
 */
export async function resolveDuplicateRows(ctx: LoadContext): Promise<Map<string, DuplicateVerdict>> {
  // Candidates as a table (read twice) and an IN filter below: 3.2 s instead of 5.4 s with one CTE, on 3M lines with
  // 5% of filings examined (`make bench BENCH=13f-funds`, BENCH_SCALE=10; count per accession alone: 0.5 s).
  await ctx.sql(`
    CREATE OR REPLACE TEMP TABLE dup13f_cand AS
    WITH lines AS (SELECT accession_number, count(*) AS n FROM raw13f_info GROUP BY 1)
    SELECT l.accession_number, l.n, f.table_entry_total AS tet, f.table_value_total_reported AS tvt
    FROM lines l JOIN raw13f_filing f USING (accession_number)
    WHERE l.n >= 2 AND (f.table_entry_total IS NULL OR l.n > f.table_entry_total)`);
  // Rows are grouped on a hash of their columns (2.5× faster than grouping on the 13 columns themselves); the copies
  // deleted below are matched on the columns, so a hash collision could only make a verdict too cautious.
  const facts = await ctx.sql(`
    WITH grouped AS (
      SELECT accession_number, count(*) AS copies, any_value(value_reported) AS v
      FROM raw13f_info WHERE accession_number IN (SELECT accession_number FROM dup13f_cand)
      GROUP BY accession_number, hash(${ROW_COLUMNS})),
    per_filing AS (
      SELECT accession_number, CAST(count(*) AS INTEGER) AS distinct_rows, CAST(count(*) FILTER (WHERE copies > 1) AS INTEGER) AS repeated_rows,
             CAST(min(copies) AS INTEGER) AS min_copies, CAST(max(copies) AS INTEGER) AS max_copies, sum(v) AS distinct_value
      FROM grouped GROUP BY accession_number HAVING max(copies) > 1)
    SELECT p.*, CAST(c.n AS INTEGER) AS lines, c.tet, c.tvt FROM per_filing p JOIN dup13f_cand c USING (accession_number)`);
  const verdicts = new Map<string, DuplicateVerdict>();
  for (const r of facts) {
    verdicts.set(
      String(r.accession_number),
      decideDuplicates({
        lines: Number(r.lines),
        distinctRows: Number(r.distinct_rows),
        repeatedRows: Number(r.repeated_rows),
        minCopies: Number(r.min_copies),
        maxCopies: Number(r.max_copies),
        distinctValue: r.distinct_value == null ? null : Number(r.distinct_value),
        tableEntryTotal: r.tet == null ? null : Number(r.tet),
        tableValueTotal: r.tvt == null ? null : Number(r.tvt),
      }),
    );
  }
  const removed = [...verdicts].filter(([, v]) => v.decision === 'removed').map(([accession_number]) => ({ accession_number }));
  if (removed.length) {
    await withScratch((dir) => tableFromRows(ctx, dir, 'dup13f_removed', { accession_number: 'VARCHAR' }, removed));
    // The first copy keeps its line numbers (1…entry total when the table was pasted twice in a row).
    await ctx.sql(`
      DELETE FROM raw13f_info USING (
        SELECT accession_number, line_no FROM raw13f_info SEMI JOIN dup13f_removed USING (accession_number)
        QUALIFY row_number() OVER (PARTITION BY accession_number, ${ROW_COLUMNS} ORDER BY line_no) > 1) x
      WHERE raw13f_info.accession_number = x.accession_number AND raw13f_info.line_no = x.line_no`);
  }
  return verdicts;
}
