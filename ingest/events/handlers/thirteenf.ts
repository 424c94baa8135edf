import type { DiffHandler } from '../handler.ts';
import { byValueSql, THIRTEEN_F_PCT_MEDIUM } from '../importance.ts';
import { evidenceSql } from '../sql.ts';

/**
 * 13F quarter over quarter, per manager and CUSIP, over the current (amendment-resolved) holdings of each
 * period and the period before it that the lake holds for the same manager:
 *   holding_added (absent before), holding_removed (absent now), position_increased / _decreased (shares).
 * The diff spans two filings, so the dedup_key is `<event_type>|<manager_cik>|<cusip>|<period>` and `accession`
 * is the newer filing (the older one for a removal). Runs entirely in DuckDB: two quarters of 3M rows each never
 * become JS objects.
 */
export const thirteenFHandler: DiffHandler = {
  name: '13f',
  tables: ['holdings_13f'],
  async run(ctx, changed) {
    const periods = (await ctx.lake.query('SELECT DISTINCT period FROM holdings_13f ORDER BY period')).map((r) => String(r.period));
    const sql: { sql: string; params: unknown[] }[] = [];
    for (const period of new Set(changed.flatMap((c) => c.partitions))) {
      // The pair (previous, this) and (this, next): a late-ingested quarter also updates the diff after it.
      const i = periods.indexOf(period);
      const pairs: [string, string][] = [];
      if (i > 0) pairs.push([periods[i - 1], period]);
      if (i >= 0 && i < periods.length - 1) pairs.push([period, periods[i + 1]]);
      for (const [prev, cur] of pairs) sql.push({ sql: diffSql(), params: [new Date().toISOString(), prev, cur] });
    }
    return { sql };
  },
};

function agg(periodParam: string): string {
  return (
    `SELECT manager_cik, cusip, any_value(manager_name) AS manager_name, any_value(issuer_name) AS issuer_name, ` +
    `any_value(issuer_cik) AS issuer_cik, any_value(issuer_ticker) AS issuer_ticker, sum(shares) AS shares, sum(value_usd) AS value_usd, ` +
    `max(accession_number) AS accession, max(source_url) AS url, max(period_of_report) AS period_end ` +
    `FROM holdings_13f WHERE period = ${periodParam} AND is_current AND coalesce(put_call, '') = '' GROUP BY manager_cik, cusip`
  );
}

function diffSql(): string {
  const pct = `CASE WHEN coalesce(p.shares, 0) > 0 THEN (coalesce(c.shares, 0) - p.shares) / p.shares END`;
  const dval = `coalesce(c.value_usd, 0) - coalesce(p.value_usd, 0)`;
  const etype =
    `CASE WHEN p.cusip IS NULL THEN 'sec.13f.holding_added' WHEN c.cusip IS NULL THEN 'sec.13f.holding_removed' ` +
    `WHEN c.shares > p.shares THEN 'sec.13f.position_increased' ELSE 'sec.13f.position_decreased' END`;
  const byVal = byValueSql('sec.13f', dval);
  const importance =
    `CASE WHEN ${byVal} = 'low' AND abs(coalesce(${pct}, 1)) >= ${THIRTEEN_F_PCT_MEDIUM} AND abs(${dval}) >= ` + `1000000 THEN 'medium' ELSE ${byVal} END`;
  return (
    `WITH p AS (${agg('$2')}), c AS (${agg('$3')}), ` +
    // Only managers that filed in both periods: a manager absent from one quarter is a missing filing, not a sell-off.
    `mgr AS (SELECT manager_cik FROM p INTERSECT SELECT manager_cik FROM c), ` +
    'd AS (SELECT coalesce(c.manager_cik, p.manager_cik) AS manager_cik, coalesce(c.cusip, p.cusip) AS ' +
    `cusip, ${etype} AS etype, ${importance} AS importance, ` +
    `coalesce(c.manager_name, p.manager_name) AS manager_name, coalesce(c.issuer_name, p.issuer_name) AS issuer_name, ` +
    `coalesce(c.issuer_cik, p.issuer_cik) AS issuer_cik, coalesce(c.issuer_ticker, p.issuer_ticker) AS issuer_ticker, ` +
    `p.shares AS prev_shares, c.shares AS cur_shares, p.value_usd AS prev_value, c.value_usd AS cur_value, ${dval} AS value_change, ${pct} AS pct, ` +
    `coalesce(c.accession, p.accession) AS accession, coalesce(c.url, p.url) AS url, coalesce(c.period_end, p.period_end) AS period_end ` +
    `FROM p FULL OUTER JOIN c ON p.manager_cik = c.manager_cik AND p.cusip = c.cusip ` +
    `WHERE coalesce(c.manager_cik, p.manager_cik) IN (SELECT manager_cik FROM mgr) AND (p.cusip IS NULL OR c.cusip IS NULL OR c.shares <> p.shares)) ` +
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
