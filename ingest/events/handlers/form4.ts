import type { DiffHandler } from '../handler.ts';
import { byValueSql } from '../importance.ts';
import { ENTITY_LOOKUP, evidenceSql, inChanged } from '../sql.ts';

const CODE_EVENTS = {
  P: 'sec.form4.insider_buy',
  S: 'sec.form4.insider_sell',
  M: 'sec.form4.option_exercise',
} as const;

/**
 * Form 4 (and 4/A) open-market purchases (P), sales (S) and option exercises (M): one event per filing and
 * code, summing the filing's rows of that code (non-derivative rows; an M also appears in Table II, which would
 * count the same exercise twice). dedup_key: `<event_type>|<accession>`.
 */
export const form4Handler: DiffHandler = {
  name: 'form4',
  tables: ['insider_transactions'],
  async run(_ctx, changed) {
    const params: unknown[] = [new Date().toISOString()];
    const where = inChanged('filed_quarter', changed, params, 'accession');
    const mapping = Object.entries(CODE_EVENTS)
      .map(([c, t]) => `('${c}', '${t}')`)
      .join(', ');
    const sql =
      `WITH m(code, etype) AS (VALUES ${mapping}), ` +
      `t AS (SELECT * FROM insider_transactions WHERE ${where} AND trans_code IN ('P', 'S', 'M') AND NOT is_derivative AND form_type IN ('4', '4/A')), ` +
      `g AS (SELECT accession, trans_code, any_value(issuer_cik) AS issuer_cik, any_value(issuer_name) AS issuer_name, any_value(ticker) AS ticker, ` +
      `any_value(owner_names) AS owners, any_value(relationship) AS relationship, any_value(officer_title) AS officer_title, any_value(form_type) AS form, ` +
      `min(transaction_date) AS first_date, max(filed_date) AS filed_date, sum(shares) AS shares, sum(value_usd) AS value_usd, ` +
      'CASE WHEN sum(shares) FILTER (WHERE price_per_share IS NOT NULL) > 0 THEN sum(value_usd) / ' +
      'sum(shares) FILTER (WHERE price_per_share IS NOT NULL) END AS avg_price, ' +
      'count(*) AS rows_n, bool_or(aff10b5one) AS plan_10b5_1, any_value(source_url) AS url, ' +
      'any_value(shares_owned_after ORDER BY row_seq DESC) AS owned_after ' +
      `FROM t GROUP BY accession, trans_code) ` +
      `SELECT m.etype AS event_type, ` +
      `CASE m.etype WHEN 'sec.form4.insider_buy' THEN ${byValueSql('sec.form4.insider_buy', 'g.value_usd')} ` +
      `WHEN 'sec.form4.insider_sell' THEN ${byValueSql('sec.form4.insider_sell', 'g.value_usd')} ` +
      `ELSE ${byValueSql('sec.form4.option_exercise', 'g.value_usd')} END AS importance, ` +
      '1.0 AS confidence, g.issuer_cik AS entity_cik, coalesce(en.ticker, upper(nullif(trim(g.ticker), ' +
      `''))) AS entity_ticker, coalesce(g.issuer_name, en.name) AS entity_name, ` +
      `g.accession, g.owners || CASE g.trans_code WHEN 'P' THEN ' bought ' WHEN 'S' THEN ' sold ' ELSE ' exercised options for ' END || ` +
      `format('{:,.0f}', coalesce(g.shares, 0)) || ' shares of ' || coalesce(g.issuer_name, en.name, g.issuer_cik) || ` +
      `coalesce(' (≈$' || format('{:,.0f}', g.value_usd) || ')', '') AS summary, ` +
      `json_object('form', g.form, 'trans_code', g.trans_code, 'shares', g.shares, 'value_usd', ` +
      `g.value_usd, 'avg_price', g.avg_price, 'transactions', g.rows_n, ` +
      `'owners', g.owners, 'relationship', g.relationship, 'officer_title', g.officer_title, 'shares_owned_after', g.owned_after, ` +
      `'transaction_date', CAST(g.first_date AS VARCHAR), 'rule_10b5_1', g.plan_10b5_1)::VARCHAR AS details, ` +
      evidenceSql({
        sourceType: 'sec_filing',
        url: `coalesce(g.url, 'https://www.sec.gov/cgi-bin/browse-edgar?action=getcompany&CIK=' || g.issuer_cik)`,
        retrievedAt: '$1',
        excerpt:
          `'Table I code ' || g.trans_code || ': ' || CAST(g.rows_n AS VARCHAR) || ' transaction(s), ' || ` +
          `format('{:,.0f}', coalesce(g.shares, 0)) || ' shares'`,
        section: `'Table I - Non-Derivative Securities'`,
      }) +
      ` AS evidence, m.etype || '|' || g.accession AS dedup_key, CAST(coalesce(g.first_date, g.filed_date) AS VARCHAR) AS occurred_at ` +
      `FROM g JOIN m ON m.code = g.trans_code LEFT JOIN ${ENTITY_LOOKUP} en ON en.cik = g.issuer_cik`;
    return { sql: [{ sql, params }] };
  },
};
