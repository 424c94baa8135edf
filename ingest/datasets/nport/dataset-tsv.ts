import type { LoadContext } from '../../sources/common/context.ts';
import { loadMemberTables, loadTsv } from '../../sources/edgar/funds/tsv.ts';
import { fundHoldings } from '../../../schemas/tables/nport.ts';
import { boolSql, cikSql, dmySql, filingIndexUrlSql, numSql, quarterSql, textSql } from '../../sources/edgar/funds/work.ts';

/**
 * One unpacked N-PORT data set: FUND_REPORTED_HOLDING (millions of rows) is read by DuckDB and joined in SQL to
 * SUBMISSION, REGISTRANT, FUND_REPORTED_INFO and the first ISIN/ticker of IDENTIFIERS (aggregated in the same
 * statement); no row passes through JS.
 * Within the data set the latest filing per series and portfolio date is current (NPORT-P/A replaces).
 */
export const NPORT_MEMBERS = ['SUBMISSION.TSV', 'REGISTRANT.TSV', 'FUND_REPORTED_INFO.TSV', 'FUND_REPORTED_HOLDING.TSV', 'IDENTIFIERS.TSV'];

/** The `sortAsCodes` columns of a staged line (schemas/tables/nport.ts), each from the filing's context row `c`. */
const FILING_CODES = {
  accession_number: 'c.acc',
  registrant_cik: 'c.cik',
  registrant_name: 'c.reg_name',
  series_id: 'c.series_id',
  fund_name: 'c.series_name',
  submission_type: 'c.sub_type',
  source: "'sec_nport_dataset'",
  source_url: 'c.source_url',
} satisfies Partial<Record<keyof typeof fundHoldings.columns, string>>;
const FILING_COLUMNS = Object.entries(FILING_CODES)
  .map(([column, value]) => `${value} AS ${column}`)
  .join(', ');

export async function loadNportDataset(ctx: LoadContext, members: Map<string, string>, label: string): Promise<void> {
  const ok = await loadMemberTables(
    ctx,
    members,
    label,
    ['SUBMISSION.TSV', 'FUND_REPORTED_HOLDING.TSV'],
    [
      { member: 'SUBMISSION.TSV', table: 'np_sub', columns: ['ACCESSION_NUMBER', 'FILING_DATE', 'SUB_TYPE', 'REPORT_ENDING_PERIOD', 'REPORT_DATE'] },
      { member: 'REGISTRANT.TSV', table: 'np_reg', columns: ['ACCESSION_NUMBER', 'CIK', 'REGISTRANT_NAME'] },
      { member: 'FUND_REPORTED_INFO.TSV', table: 'np_info', columns: ['ACCESSION_NUMBER', 'SERIES_NAME', 'SERIES_ID'] },
    ],
  );
  if (!ok) return;
  await ctx.sql(`
    CREATE OR REPLACE TEMP TABLE np_ctx AS
    SELECT s.acc, s.filing_date, s.sub_type, s.rpe, s.rd, ${quarterSql('s.rd')} AS report_quarter, r.cik, r.reg_name, i.series_id, i.series_name,
           ${filingIndexUrlSql('r.cik', 's.acc')} AS source_url,
           row_number() OVER (PARTITION BY coalesce(i.series_id, r.cik, s.acc), s.rd ORDER BY s.filing_date DESC NULLS LAST, s.acc DESC) = 1 AS is_current
    FROM (SELECT trim(ACCESSION_NUMBER) AS acc, ${dmySql('FILING_DATE')} AS filing_date, upper(trim(SUB_TYPE)) AS sub_type,
                 ${dmySql('REPORT_ENDING_PERIOD')} AS rpe, ${dmySql('REPORT_DATE')} AS rd FROM np_sub) s
    LEFT JOIN (SELECT trim(ACCESSION_NUMBER) AS acc, ${cikSql('CIK')} AS cik, ${textSql('REGISTRANT_NAME')} AS reg_name FROM np_reg) r USING (acc)
    LEFT JOIN (SELECT trim(ACCESSION_NUMBER) AS acc, ${textSql('SERIES_ID')} AS series_id, ${textSql('SERIES_NAME')} AS series_name FROM np_info) i USING (acc)
    WHERE s.rd IS NOT NULL`);
  // The filing's sort columns come from np_ctx (or are constants) on every staged line: declared from its few thousand
  // rows, they are staged as codes (at 10M lines the ingest took 131.7-146.0 s of CPU against 164.7-168.3 s).
  for (const [column, value] of Object.entries(FILING_CODES)) await ctx.codeValues?.(fundHoldings, column, `SELECT ${value} AS v FROM np_ctx c`);
  const bad = await ctx.sql(`SELECT count(*)::INTEGER AS n FROM np_sub WHERE ${dmySql('REPORT_DATE')} IS NULL`);
  if (Number(bad[0]?.n ?? 0) > 0)
    ctx.badRow({ file: 'SUBMISSION.tsv', line: null, reason: `${bad[0].n} submission(s) without a parsable REPORT_DATE skipped` });

  // The first ISIN/ticker of each holding, aggregated inside the holdings statement: as a TEMP table (a line per
  // holding) it was held in memory through the join, and a 10M-line data set failed at INGEST_MEMORY_LIMIT=1GB (the
  // block it failed on was a member reader's buffer, since made smaller: tsv.ts); read inline it ingests there (peak
  // RSS 1,373-1,404 MB), and at 2GB (then the default) its peak went from 2,965 to 2,327 MB at the same CPU
  // (docs/13f-funds.md). The lines meet the identifiers before the filing's columns join them: at 10M lines the
  // identifiers join spills its probe side, which then carries the raw line alone (the statement 67.2-71.0 s of CPU
  // against 73.8-84.8 s with the filing's columns joined first, three runs each).
  const idsPath = members.get('IDENTIFIERS.TSV');
  const identifiers = (rel: string) =>
    `(SELECT trim(HOLDING_ID) AS hid, min(nullif(trim(IDENTIFIER_ISIN), '')) AS isin, ` +
    `min(nullif(trim(IDENTIFIER_TICKER), '')) AS ticker FROM ${rel} GROUP BY 1)`;
  const noIdentifiers = '(SELECT NULL::VARCHAR AS hid, NULL::VARCHAR AS isin, NULL::VARCHAR AS ticker WHERE false)';
  const staged = await loadTsv(
    ctx,
    [members.get('FUND_REPORTED_HOLDING.TSV')!, ...(idsPath ? [idsPath] : [])],
    (rel, ids) => `
    INSERT INTO staging_fund_holdings BY NAME
    SELECT ${FILING_COLUMNS}, trim(h.HOLDING_ID) AS holding_id,
           c.rd AS report_date, c.rpe AS report_period_end, c.report_quarter, c.filing_date, c.is_current,
           ${textSql('h.ISSUER_NAME')} AS issuer_name, nullif(upper(${textSql('h.ISSUER_LEI')}), 'N/A') AS issuer_lei,
           ${textSql('h.ISSUER_TITLE')} AS security_title,
           CASE WHEN upper(trim(h.ISSUER_CUSIP)) IN ('', 'N/A') OR regexp_full_match(trim(h.ISSUER_CUSIP), '0+')
             THEN NULL ELSE upper(trim(h.ISSUER_CUSIP)) END AS cusip,
           h.ids_isin AS isin, h.ids_ticker AS ticker, ${numSql('h.BALANCE')} AS balance, ${textSql('h.UNIT')} AS units,
           ${textSql('h.CURRENCY_CODE')} AS currency,
           ${numSql('h.EXCHANGE_RATE')} AS exchange_rate, ${numSql('h.CURRENCY_VALUE')} AS value_usd, ${numSql('h.PERCENTAGE')} AS pct_of_net_assets,
           ${textSql('h.PAYOFF_PROFILE')} AS payoff_profile, ${textSql('h.ASSET_CAT')} AS asset_category, ${textSql('h.ISSUER_TYPE')} AS issuer_category,
           ${textSql('h.INVESTMENT_COUNTRY')} AS inv_country, ${boolSql('h.IS_RESTRICTED_SECURITY')} AS is_restricted,
           ${textSql('h.FAIR_VALUE_LEVEL')} AS fair_value_level, ${ctx.parserVersion} AS parser_version
    FROM (SELECT h.*, ids.isin AS ids_isin, ids.ticker AS ids_ticker FROM ${rel} h
          LEFT JOIN ${ids ? identifiers(ids) : noIdentifiers} ids ON ids.hid = trim(h.HOLDING_ID)) h
    JOIN np_ctx c ON c.acc = trim(h.ACCESSION_NUMBER)`,
  );
  ctx.progress.rows(staged);
  // Dropped before the sorted write, which would otherwise spill beside them.
  for (const t of ['np_ctx', 'np_sub', 'np_reg', 'np_info']) await ctx.sql(`DROP TABLE IF EXISTS ${t}`);
}
