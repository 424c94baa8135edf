import type { DiffHandler } from '../handler.ts';
import { FIXED_IMPORTANCE, MEDIUM_FORMS } from '../importance.ts';
import { ENTITY_LOOKUP, evidenceSql, inChanged } from '../sql.ts';

/** 8-K item number → event type (taxonomy: docs/api-contract.md; items: docs/formats/12-form-items-8k-10k-10q.md). */
const EIGHT_K_EVENTS: Record<string, string> = {
  '1.01': 'sec.8k.material_agreement',
  '1.03': 'sec.8k.bankruptcy_or_receivership',
  '1.05': 'sec.8k.cybersecurity_incident',
  '2.02': 'sec.8k.results_of_operations',
  '3.01': 'sec.8k.delisting_notice',
  '4.01': 'sec.8k.auditor_change',
  '5.02': 'sec.8k.executive_change',
};

const ITEM_TITLES: Record<string, string> = {
  '1.01': 'Entry into a Material Definitive Agreement',
  '1.03': 'Bankruptcy or Receivership',
  '1.05': 'Material Cybersecurity Incidents',
  '2.02': 'Results of Operations and Financial Condition',
  '3.01': 'Notice of Delisting or Failure to Satisfy a Continued Listing Rule or Standard',
  '4.01': "Changes in Registrant's Certifying Accountant",
  '5.02': 'Departure of Directors or Certain Officers; Election of Directors; Appointment of Certain Officers',
};

/**
 * From the filing index: sec.filing.new / .amended for every filing, the 8-K item events, and S-1 registrations.
 * A filing listed under several CIKs (co-registrants, a Form 4's issuer and owner) yields one event, attributed
 * to the CIK the entity directory knows a ticker for, else the lowest CIK. dedup_key: `<event_type>|<accession>`.
 */
export const filingsHandler: DiffHandler = {
  name: 'filings',
  tables: ['filings'],
  async run(_ctx, changed) {
    const params: unknown[] = [new Date().toISOString()];
    const base =
      `SELECT f.*, en.ticker AS en_ticker, coalesce(en.name, f.company) AS en_name FROM filings f LEFT JOIN ${ENTITY_LOOKUP} en ON en.cik = f.cik ` +
      `WHERE ${inChanged('filed_quarter', changed, params, 'f.accession')} ` +
      `QUALIFY row_number() OVER (PARTITION BY f.accession ORDER BY (en.ticker IS NULL), f.cik) = 1`;
    const url = `coalesce(b.primary_document_url, b.filing_url)`;
    const occurred = `coalesce(CAST(b.acceptance_datetime AS VARCHAR), CAST(b.filed_date AS VARCHAR))`;
    const common = (type: string, importance: string, summary: string, details: string, excerpt: string, section: string) =>
      `SELECT ${type} AS event_type, ${importance} AS importance, 1.0 AS confidence, b.cik AS entity_cik, b.en_ticker AS entity_ticker, ` +
      `b.en_name AS entity_name, b.accession, ${summary} AS summary, ${details} AS details, ` +
      `${evidenceSql({ sourceType: 'sec_filing_index', url, retrievedAt: '$1', excerpt, section })} AS evidence, ` +
      `${type} || '|' || b.accession AS dedup_key, ${occurred} AS occurred_at`;
    const indexLine = `b.form || ' filed ' || CAST(b.filed_date AS VARCHAR) || ' by ' || b.company || coalesce(' (items ' || b.items || ')', '')`;
    const filingSql =
      `WITH b AS (${base}) ` +
      common(
        `CASE WHEN b.is_amendment THEN 'sec.filing.amended' ELSE 'sec.filing.new' END`,
        `CASE WHEN b.form IN (${MEDIUM_FORMS.map((f) => `'${f}'`).join(', ')}) THEN 'medium' ELSE 'low' END`,
        `b.en_name || ' filed ' || b.form || ' on ' || CAST(b.filed_date AS VARCHAR)`,
        `json_object('form', b.form, 'base_form', b.base_form, 'filed_date', CAST(b.filed_date AS ` +
          `VARCHAR), 'report_date', CAST(b.report_date AS VARCHAR), 'items', b.items, 'primary_document', ` +
          `b.primary_document, 'size', b.size, 'is_xbrl', b.is_xbrl)::VARCHAR`,
        indexLine,
        `'filing index'`,
      ) +
      ` FROM b`;
    const mapping = Object.entries(EIGHT_K_EVENTS)
      .map(([item, type]) => `('${item}', '${type}', '${FIXED_IMPORTANCE[type as keyof typeof FIXED_IMPORTANCE]}', '${ITEM_TITLES[item].replace(/'/g, "''")}')`)
      .join(', ');
    const eightKSql =
      `WITH b0 AS (${base}), b AS (SELECT b0.*, trim(i.item) AS item FROM b0, ` +
      `unnest(string_split(coalesce(b0.items, ''), ',')) AS i(item) WHERE b0.base_form = '8-K'), ` +
      `m(item, etype, imp, title) AS (VALUES ${mapping}) ` +
      common(
        'm.etype',
        'm.imp',
        `b.en_name || ' reported Item ' || m.item || ' (' || m.title || ') on Form ' || b.form`,
        `json_object('form', b.form, 'item', m.item, 'item_title', m.title, 'items', string_split(b.items, ` +
          `','), 'filed_date', CAST(b.filed_date AS VARCHAR), 'is_amendment', b.is_amendment)::VARCHAR`,
        `'Item ' || m.item || ' ' || m.title`,
        `'Item ' || m.item`,
      ) +
      ` FROM b JOIN m ON m.item = b.item`;
    const s1Sql =
      `WITH b AS (${base}) ` +
      common(
        `CASE WHEN b.is_amendment THEN 'sec.s1.amended_registration' ELSE 'sec.s1.new_registration' END`,
        `CASE WHEN b.is_amendment THEN '${FIXED_IMPORTANCE['sec.s1.amended_registration']}' ELSE '${FIXED_IMPORTANCE['sec.s1.new_registration']}' END`,
        `b.en_name || CASE WHEN b.is_amendment THEN ' amended its registration statement (' ELSE ' filed a registration statement (' END || b.form || ')'`,
        `json_object('form', b.form, 'filed_date', CAST(b.filed_date AS VARCHAR), 'file_number', b.file_number)::VARCHAR`,
        indexLine,
        `'filing index'`,
      ) +
      ` FROM b WHERE b.base_form IN ('S-1', 'F-1')`;
    return {
      sql: [
        { sql: eightKSql, params },
        { sql: s1Sql, params },
        { sql: filingSql, params },
      ],
    };
  },
};
