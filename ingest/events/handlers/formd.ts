import type { DiffHandler } from '../handler.ts';
import { byValueSql, FIXED_IMPORTANCE } from '../importance.ts';
import { evidenceSql, inChanged } from '../sql.ts';

/**
 * Form D notices: a D is a new offering, a D/A an amendment of one. dedup_key: `<event_type>|<accession>`.
 * "Indefinite" offerings carry `total_offering_indefinite` and rank by the amount sold.
 */
export const formDHandler: DiffHandler = {
  name: 'formd',
  tables: ['form_d_offerings'],
  async run(_ctx, changed) {
    const params: unknown[] = [new Date().toISOString()];
    // The live lane names its filings: only those are drafted, not every notice of their quarter.
    const where = inChanged('filed_quarter', changed, params, 'o.accession');
    const amount = 'coalesce(o.total_offering_amount, o.total_amount_sold)';
    const etype = `CASE WHEN o.is_amendment THEN 'sec.formd.offering_amended' ELSE 'sec.formd.new_offering' END`;
    const sql =
      `SELECT ${etype} AS event_type, CASE WHEN o.is_amendment THEN ` +
      `'${FIXED_IMPORTANCE['sec.formd.offering_amended']}' ` +
      `ELSE ${byValueSql('sec.formd.new_offering', amount)} END AS importance, ` +
      `1.0 AS confidence, o.issuer_cik AS entity_cik, NULL AS entity_ticker, o.issuer_name AS entity_name, o.accession, ` +
      `o.issuer_name || CASE WHEN o.is_amendment THEN ' amended its Form D offering' ELSE ' filed a new Form D offering' END || ` +
      `CASE WHEN o.total_offering_indefinite THEN ' (indefinite amount)' WHEN o.total_offering_amount IS ` +
      `NOT NULL THEN ' of $' || format('{:,}', o.total_offering_amount) ELSE '' END AS summary, ` +
      `json_object('form', coalesce(o.submission_type, CASE WHEN o.is_amendment THEN 'D/A' ELSE 'D' END), ` +
      `'total_offering_amount_usd', o.total_offering_amount, ` +
      `'total_offering_indefinite', o.total_offering_indefinite, 'total_amount_sold_usd', o.total_amount_sold, 'industry_group', o.industry_group, ` +
      `'investment_fund_type', o.investment_fund_type, 'is_pooled_fund', o.is_pooled_fund, 'federal_exemptions', json(o.federal_exemptions), ` +
      `'previous_accession', o.previous_accession, 'date_of_first_sale', CAST(o.date_of_first_sale AS ` +
      `VARCHAR), 'total_investors', o.total_investors)::VARCHAR AS details, ` +
      evidenceSql({
        sourceType: 'sec_filing',
        url: `coalesce(o.source_url, '')`,
        retrievedAt: '$1',
        excerpt:
          `'Item 13 total offering amount: ' || CASE WHEN o.total_offering_indefinite THEN 'Indefinite' ELSE ` +
          `coalesce(CAST(o.total_offering_amount AS VARCHAR), 'not stated') END`,
        section: `'Item 13. Offering and Sales Amounts'`,
      }) +
      ` AS evidence, ${etype} || '|' || o.accession AS dedup_key, CAST(o.filed_date AS VARCHAR) AS occurred_at ` +
      `FROM form_d_offerings o WHERE ${where}`;
    return { sql: [{ sql, params }] };
  },
};
