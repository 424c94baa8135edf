import type { LoadContext } from '../../sources/common/context.ts';

/**
 * Line numbers of the information tables without a window sort over every line. The data set loader stores each
 * line's INFOTABLE_SK in `raw13f_info.line_no`: a surrogate unique per line that follows the file order, so inside
 * one filing the keys run `first, first + 1, …` (all 57 filings of the recorded 2013 data set) and the line's
 * position is `SK − first + 1`: one `GROUP BY accession_number` (a hash aggregate) instead of
 * `row_number() OVER (PARTITION BY accession_number ORDER BY SK)`, which sorted every line (17% of a 3M-line ingest).
 * A filing whose keys are not such a run (a gap, a repeat, a missing key, or a filing loaded from two windows) is
 * numbered by the window, over its own lines only. XML filings arrive numbered 1…n, a run starting at 1.
 *
 * Leaves `line13f (accession_number, first_line)`: the staged `line_no` is `raw line_no − first_line + 1`, exactly
 * what the window gave. Runs before duplicated tables are resolved, so the copies kept keep their positions as filed.
 */
export async function numberLines(ctx: LoadContext): Promise<void> {
  await ctx.sql(`
    CREATE OR REPLACE TEMP TABLE line13f AS
    SELECT accession_number, min(line_no) AS first_line,
           count(line_no) = count(*) AND max(line_no) - min(line_no) + 1 = count(*) AND count(DISTINCT line_no) = count(*) AS is_run
    FROM raw13f_info GROUP BY accession_number`);
  const [{ n }] = await ctx.sql(`SELECT count(*)::INTEGER AS n FROM line13f WHERE NOT is_run`);
  if (Number(n) === 0) return;
  // Keys missing sort last, as they did in the window over TRY_CAST(INFOTABLE_SK AS BIGINT).
  await ctx.sql(`
    UPDATE raw13f_info SET line_no = r.pos FROM (
      SELECT rowid AS rid, row_number() OVER (PARTITION BY accession_number ORDER BY line_no NULLS LAST) AS pos
      FROM raw13f_info WHERE accession_number IN (SELECT accession_number FROM line13f WHERE NOT is_run)) r
    WHERE raw13f_info.rowid = r.rid`);
  await ctx.sql(`UPDATE line13f SET first_line = 1 WHERE NOT is_run`);
}
