import type { ChangedTable, DiffContext, DiffHandler } from '../handler.ts';
import { byValueSql, THIRTEEN_F_PCT_MEDIUM } from '../importance.ts';
import { evidenceSql, inChanged } from '../sql.ts';

/** Current lines a slice of managers closes at (a manager's lines are never split between slices): see `managerSlices`. */
const THIRTEEN_F_SLICE_LINES = 250_000;

/**
 * 13F quarter over quarter, per manager and CUSIP, over the current (amendment-resolved) holdings of each
 * period and the period before it that the lake holds for the same manager:
 *   holding_added (absent before), holding_removed (absent now), position_increased / _decreased (shares).
 * The diff spans two filings, so the dedup_key is `<event_type>|<manager_cik>|<cusip>|<period>` and `accession`
 * is the newer filing (the older one for a removal). Runs entirely in DuckDB: two quarters of 3M rows each never
 * become JS objects, and each statement diffs one slice of managers, so none holds a whole quarter pair.
 */
export const thirteenFHandler: DiffHandler = thirteenFDiff();

/** The handler, diffing `sliceLines` current lines of managers per statement (`managerSlices`). */
export function thirteenFDiff(sliceLines = THIRTEEN_F_SLICE_LINES): DiffHandler {
  return {
    name: '13f',
    tables: ['holdings_13f'],
    async run(ctx, changed) {
      const periods = (await ctx.lake.query('SELECT DISTINCT period FROM holdings_13f ORDER BY period')).map((r) => String(r.period));
      const byManager = new Set(ctx.lake.partitions('holdings_13f_by_manager'));
      // The live lane names its filings: only their managers' pairs can change. Without this, each batch holding a
      // 13F filing re-diffed two whole quarters (≈ 20 s of CPU at a real quarter's size) to append a few events.
      const named = changed.length > 0 && changed.every((c) => c.accessions);
      const managers = named ? await managersOf(ctx, changed) : null;
      if (managers && !managers.length) return {};
      const sql: { sql: string; params: unknown[] }[] = [];
      // Per changed period, the pair (previous, this) and (this, next): a late-ingested quarter also updates the diff
      // after it. Each pair once: two adjacent quarters ingested together share theirs (which was diffed twice).
      const pairs = new Map<string, [string, string]>();
      for (const period of changed.flatMap((c) => c.partitions)) {
        const i = periods.indexOf(period);
        if (i > 0) pairs.set(periods[i - 1], [periods[i - 1], period]);
        if (i >= 0 && i < periods.length - 1) pairs.set(period, [period, periods[i + 1]]);
      }
      for (const [prev, cur] of pairs.values()) {
        // The manager-sorted copy skips the row groups of other managers' slices; the CUSIP-sorted table is read
        // whole by each slice, so it is only the fallback of a lake without the copy.
        const source = byManager.has(prev) && byManager.has(cur) ? 'holdings_13f_by_manager' : 'holdings_13f';
        const slices = managers ? [managerList(managers)] : await managerSlices(ctx, source, cur, sliceLines);
        for (const slice of slices) {
          sql.push({ sql: diffSql(source, slice), params: [new Date().toISOString(), prev, cur, ...slice.params] });
        }
      }
      return { sql };
    },
  };
}

/**
 * Managers a diff statement covers: a range of CIKs (its bounds bound as $4 and $5, an open end binding nothing) or a
 * list (bound from $4 on); `params` holds the values.
 */
interface ManagerSlice {
  where: string;
  params: string[];
}

/**
 * The current period's managers cut into consecutive ranges of about THIRTEEN_F_SLICE_LINES lines, each diffed by its
 * own statement: the diff of a whole real quarter at once (1,229,161 events) held 3.0 GB in its aggregates and
 * drafts (docs/events.md, "Memory"). A manager absent from the current period drafts nothing (only managers of both
 * periods are diffed), so the current period's managers are the ones to cut.
 */
async function managerSlices(ctx: DiffContext, source: string, cur: string, perSlice: number): Promise<ManagerSlice[]> {
  const counts = await ctx.lake.query(
    `SELECT manager_cik, count(*)::BIGINT AS n FROM ${source} WHERE period = $1 AND manager_cik IS NOT NULL GROUP BY manager_cik ORDER BY manager_cik`,
    [cur],
  );
  const starts: string[] = [];
  let lines = perSlice;
  for (const r of counts) {
    if (lines >= perSlice) {
      starts.push(String(r.manager_cik));
      lines = 0;
    }
    lines += Number(r.n);
  }
  if (starts.length <= 1) return [{ where: '', params: [] }];
  return starts.map((lo, k) => {
    if (k === 0) return { where: 'AND manager_cik < $4', params: [starts[1]] };
    if (k === starts.length - 1) return { where: 'AND manager_cik >= $4', params: [lo] };
    return { where: 'AND manager_cik >= $4 AND manager_cik < $5', params: [lo, starts[k + 1]] };
  });
}

/** The managers who filed the changed accessions in the changed periods (holdings lines or a cover page). */
async function managersOf(ctx: DiffContext, changed: ChangedTable[]): Promise<string[]> {
  const params: unknown[] = [];
  const where = inChanged('period', changed, params, 'accession_number');
  const rows = await ctx.lake.query(
    `SELECT manager_cik AS cik FROM holdings_13f WHERE ${where} UNION SELECT cik FROM filings_13f WHERE ${where} ORDER BY cik`,
    params,
  );
  return rows.map((r) => String(r.cik));
}

/** A slice of the listed managers (bound from $4 on). */
function managerList(managers: string[]): ManagerSlice {
  return { where: `AND manager_cik IN (${managers.map((_, k) => `$${k + 4}`).join(', ')})`, params: managers };
}

/** The table a diff reads and the managers it covers. */
interface Query {
  source: string;
  slice: ManagerSlice;
}

/** The period's current lines that count (no options) in the slice: the columns the diff reads of them. */
function lines(q: Query, periodParam: string, cols: string): string {
  return `SELECT ${cols} FROM ${q.source} WHERE period = ${periodParam} AND is_current AND coalesce(put_call, '') = '' ${q.slice.where}`;
}

/** Each of the period's accessions numbered in accession order (≈ 10k a quarter). */
function accessionIds(q: Query, periodParam: string): string {
  return `SELECT accession_number, row_number() OVER (ORDER BY accession_number) AS acc_id FROM (${lines(q, periodParam, 'DISTINCT accession_number')})`;
}

/** A line's key: its accession's number, then its line number; the largest of a pair's lines is its latest filing's. */
const LINE_KEY = '((a.acc_id::BIGINT << 32) | l.line_no)';

/**
 * Per manager and CUSIP: shares and value summed, and `pick`, the key of one line (of the latest accession). Numbers
 * only: with the names and the accession carried as strings through the ≈ 3M groups, one real quarter's aggregate took
 * 8.0 s of CPU and the diff 7.6 GB of memory (docs/events.md, "Memory"); the names are taken afterwards from the
 * picked line, for the changed pairs only.
 */
function agg(q: Query, periodParam: string, ids: string): string {
  return (
    `SELECT l.manager_cik, l.cusip, sum(l.shares) AS shares, sum(l.value_usd) AS value_usd, max(${LINE_KEY}) AS pick ` +
    `FROM (${lines(q, periodParam, 'manager_cik, cusip, shares, value_usd, accession_number, line_no')}) l JOIN ${ids} a USING (accession_number) ` +
    'GROUP BY l.manager_cik, l.cusip'
  );
}

/** The text of the picked lines of one side (`side`: which period's lines), keyed by `pick`. */
function picked(q: Query, side: string, periodParam: string, ids: string): string {
  return (
    `SELECT '${side}' AS side, ${LINE_KEY} AS pick, l.manager_name, l.issuer_name, l.issuer_cik, l.issuer_ticker, ` +
    `l.accession_number AS accession, l.source_url AS url, l.period_of_report AS period_end ` +
    `FROM (${lines(q, periodParam, 'manager_name, issuer_name, issuer_cik, issuer_ticker, accession_number, line_no, source_url, period_of_report')}) l ` +
    `JOIN ${ids} a USING (accession_number)`
  );
}

function diffSql(source: string, slice: ManagerSlice): string {
  const q: Query = { source, slice };
  const pct = `CASE WHEN coalesce(p.shares, 0) > 0 THEN (coalesce(c.shares, 0) - p.shares) / p.shares END`;
  const dval = `coalesce(c.value_usd, 0) - coalesce(p.value_usd, 0)`;
  const etype =
    `CASE WHEN p.cusip IS NULL THEN 'sec.13f.holding_added' WHEN c.cusip IS NULL THEN 'sec.13f.holding_removed' ` +
    `WHEN c.shares > p.shares THEN 'sec.13f.position_increased' ELSE 'sec.13f.position_decreased' END`;
  const byVal = byValueSql('sec.13f', dval);
  const importance =
    `CASE WHEN ${byVal} = 'low' AND abs(coalesce(${pct}, 1)) >= ${THIRTEEN_F_PCT_MEDIUM} AND abs(${dval}) >= ` + `1000000 THEN 'medium' ELSE ${byVal} END`;
  return (
    `WITH ap AS (${accessionIds(q, '$2')}), ac AS (${accessionIds(q, '$3')}), p AS (${agg(q, '$2', 'ap')}), c AS (${agg(q, '$3', 'ac')}), ` +
    // Only managers that filed in both periods: a manager absent from one quarter is a missing filing, not a sell-off.
    `mgr AS (SELECT manager_cik FROM p INTERSECT SELECT manager_cik FROM c), ` +
    'changed AS (SELECT coalesce(c.manager_cik, p.manager_cik) AS manager_cik, coalesce(c.cusip, p.cusip) AS ' +
    `cusip, ${etype} AS etype, ${importance} AS importance, ` +
    `p.shares AS prev_shares, c.shares AS cur_shares, p.value_usd AS prev_value, c.value_usd AS cur_value, ${dval} AS value_change, ${pct} AS pct, ` +
    // The text comes from the current quarter's lines of the pair, or the previous quarter's for a removal.
    `CASE WHEN c.cusip IS NULL THEN 'p' ELSE 'c' END AS side, CASE WHEN c.cusip IS NULL THEN p.pick ELSE c.pick END AS pick ` +
    `FROM p FULL OUTER JOIN c ON p.manager_cik = c.manager_cik AND p.cusip = c.cusip ` +
    `WHERE coalesce(c.manager_cik, p.manager_cik) IN (SELECT manager_cik FROM mgr) AND (p.cusip IS NULL OR c.cusip IS NULL OR c.shares <> p.shares)), ` +
    `d AS (SELECT changed.*, t.manager_name, t.issuer_name, t.issuer_cik, t.issuer_ticker, t.accession, t.url, t.period_end ` +
    `FROM changed JOIN (${picked(q, 'p', '$2', 'ap')} UNION ALL ${picked(q, 'c', '$3', 'ac')}) t USING (side, pick)) ` +
    `SELECT etype AS event_type, importance, 1.0 AS confidence, manager_cik AS entity_cik, NULL AS entity_ticker, manager_name AS entity_name, accession, ` +
    `manager_name || CASE etype WHEN 'sec.13f.holding_added' THEN ' opened a position in ' WHEN 'sec.13f.holding_removed' THEN ' closed its position in ' ` +
    `WHEN 'sec.13f.position_increased' THEN ' increased its position in ' ELSE ' decreased its position in ' END || coalesce(issuer_name, cusip) || ` +
    `' (' || $3 || ' vs ' || $2 || ')' AS summary, ` +
    `json_object('form', '13F-HR', 'cusip', cusip, 'issuer_name', issuer_name, 'issuer_cik', issuer_cik, ` +
    `'issuer_ticker', issuer_ticker, 'period', $3, 'previous_period', $2, ` +
    `'shares_before', prev_shares, 'shares_after', cur_shares, 'value_before_usd', prev_value, ` +
    `'value_after_usd', cur_value, 'value_change_usd', value_change, ` +
    `'change_pct', round(pct * 100, 2))::VARCHAR AS details, ` +
    evidenceSql({
      sourceType: 'sec_13f_information_table',
      url: 'url',
      retrievedAt: '$1',
      excerpt:
        `coalesce(issuer_name, '') || ' ' || cusip || ': ' || coalesce(CAST(prev_shares AS VARCHAR), '0') || ` +
        `' → ' || coalesce(CAST(cur_shares AS VARCHAR), '0') || ' shares'`,
      section: `'information table ' || $3`,
    }) +
    ` AS evidence, etype || '|' || manager_cik || '|' || cusip || '|' || $3 AS dedup_key, CAST(period_end AS VARCHAR) AS occurred_at FROM d`
  );
}
