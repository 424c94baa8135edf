import type { LoadContext } from '../../sources/common/context.ts';
import { insertedRows } from '../../lake/staging.ts';
import { loadMemberTables, loadTsv, tsvColumns } from '../../sources/edgar/funds/tsv.ts';
import { boolSql, cikSql, dmySql, filingIndexUrlSql, textSql } from '../../sources/edgar/funds/work.ts';

/**
 * The Form N-CEN data set (`{YYYY}q{Q}_ncen.zip`, ~53 tab-separated tables) reduced to `fund_providers`, in DuckDB:
 * one SELECT per service-provider table, joined to SUBMISSION (filer, period, filing date), REGISTRANT (name) and
 * FUND_REPORTED_INFO (series, fund name) through FUND_ID (`{ACCESSION}_{CIK}_{SERIES}`).
 *
 * The provider tables' column lists are only partly documented (docs/formats/07-nport-ncen.md), so each table's
 * columns are found by suffix from its header, the way the XML parser finds elements: `…NAME` (not FUND_NAME),
 * `…LEI`, `…FILE_NUM…`, `…CRD_NUM…`, `…STATE`, `…COUNTRY`, `IS_…AFFILIATED…`. A table missing from the zip or without
 * a name column is skipped with a bad-row note, never guessed.
 */
interface ProviderTable {
  member: string;
  /** Fixed role, or null when ADVISER_TYPE tells adviser from sub-adviser. */
  role: string | null;
  /** Registrant-level tables key on ACCESSION_NUMBER and carry no series. */
  level: 'fund' | 'registrant';
}

const PROVIDER_TABLES: ProviderTable[] = [
  { member: 'ADVISER.TSV', role: null, level: 'fund' },
  { member: 'ADMIN.TSV', role: 'administrator', level: 'fund' },
  { member: 'CUSTODIAN.TSV', role: 'custodian', level: 'fund' },
  { member: 'TRANSFER_AGENT.TSV', role: 'transfer agent', level: 'fund' },
  { member: 'PRICING_SERVICE.TSV', role: 'pricing service', level: 'fund' },
  { member: 'SHAREHOLDER_SERVICING_AGENT.TSV', role: 'shareholder servicing agent', level: 'fund' },
  { member: 'SECURITY_LENDING.TSV', role: 'securities lending agent', level: 'fund' },
  { member: 'BROKER_DEALER.TSV', role: 'broker-dealer', level: 'fund' },
  { member: 'BROKER.TSV', role: 'broker', level: 'fund' },
  { member: 'PRINCIPAL_UNDERWRITER.TSV', role: 'underwriter', level: 'registrant' },
  { member: 'PUBLIC_ACCOUNTANT.TSV', role: 'auditor', level: 'registrant' },
];

export const NCEN_MEMBERS = ['SUBMISSION.TSV', 'REGISTRANT.TSV', 'FUND_REPORTED_INFO.TSV', ...PROVIDER_TABLES.map((t) => t.member)];

/** Column names are ours (read from the header and matched against fixed patterns), quoted for SQL. */
function pick(cols: string[], test: (c: string) => boolean): string | null {
  const c = cols.find(test);
  return c ? `"${c}"` : null;
}

function providerSelect(t: ProviderTable, idx: number, cols: string[], rel: string): string | null {
  const name = pick(cols, (c) => /NAME$/.test(c) && !/^(FUND|REGISTRANT)_NAME$/.test(c));
  if (!name) return null;
  const col = (test: (c: string) => boolean, wrap = (x: string) => textSql(x)) => {
    const c = pick(cols, test);
    return c ? wrap(c) : 'NULL';
  };
  const roleSql = t.role
    ? `'${t.role}'`
    : `CASE WHEN lower(${col(
        (c) => c === 'ADVISER_TYPE',
        (x) => `coalesce(${x}, '')`,
      )}) LIKE '%sub%' THEN 'sub-adviser' ELSE 'adviser' END`;
  const fundId = t.level === 'fund' ? col((c) => c === 'FUND_ID') : 'NULL';
  const accession = t.level === 'registrant' ? col((c) => c === 'ACCESSION_NUMBER') : `split_part(${fundId}, '_', 1)`;
  return `SELECT ${idx} AS table_no, ${accession} AS accession_number, ${fundId} AS fund_id, ${roleSql} AS role,
    ${textSql(name)} AS provider_name,
    upper(${col((c) => /_LEI$/.test(c))}) AS provider_lei,
    ${col((c) => /FILE_NUM/.test(c))} AS provider_file_number,
    ${col((c) => /CRD_NUM/.test(c))} AS provider_crd,
    ${col((c) => c === 'STATE' || /_STATE$/.test(c))} AS state,
    ${col((c) => c === 'COUNTRY' || /_COUNTRY$/.test(c))} AS country,
    ${col((c) => /^IS_.*AFFILIATED/.test(c), boolSql)} AS is_affiliated
  FROM ${rel}`;
}

export async function loadNcenDataset(ctx: LoadContext, members: Map<string, string>, label: string): Promise<void> {
  const ok = await loadMemberTables(
    ctx,
    members,
    label,
    ['SUBMISSION.TSV', 'FUND_REPORTED_INFO.TSV'],
    [
      { member: 'SUBMISSION.TSV', table: 'ncen_sub', columns: [] },
      { member: 'FUND_REPORTED_INFO.TSV', table: 'ncen_fund', columns: [] },
      { member: 'REGISTRANT.TSV', table: 'ncen_reg', columns: ['ACCESSION_NUMBER', 'REGISTRANT_NAME'] },
    ],
  );
  if (!ok) return;
  await ctx.sql(`CREATE OR REPLACE TEMP TABLE ncen_prov (table_no INTEGER, accession_number VARCHAR, fund_id VARCHAR, role VARCHAR, provider_name VARCHAR,
    provider_lei VARCHAR, provider_file_number VARCHAR, provider_crd VARCHAR, state VARCHAR, country VARCHAR, is_affiliated BOOLEAN)`);
  for (const [idx, t] of PROVIDER_TABLES.entries()) {
    const path = members.get(t.member);
    if (!path) continue;
    const cols = [...(await tsvColumns(ctx, path))];
    const probe = providerSelect(t, idx, cols, 'x');
    if (!probe) {
      ctx.badRow({ file: t.member, line: null, reason: 'no provider name column (…NAME) in the header; table skipped' });
      continue;
    }
    await loadTsv(ctx, path, (rel) => `INSERT INTO ncen_prov ${providerSelect(t, idx, cols, rel)}`);
  }
  const unnamed = await ctx.sql(`SELECT count(*)::INTEGER AS n FROM ncen_prov WHERE provider_name IS NULL OR accession_number IS NULL`);
  if (unnamed[0].n) ctx.badRow({ file: label, line: null, reason: `${unnamed[0].n} provider row(s) without a name or a filing; skipped` });
  const orphans = await ctx.sql(`SELECT count(*)::INTEGER AS n FROM ncen_prov p WHERE p.accession_number NOT IN (SELECT trim(ACCESSION_NUMBER) FROM ncen_sub)`);
  if (orphans[0].n) ctx.badRow({ file: label, line: null, reason: `${orphans[0].n} provider row(s) whose filing is not in SUBMISSION; skipped` });

  // provider_no: deterministic across re-runs (the merge key), by table, series, then the provider's own fields.
  const staged = await ctx.sql(`
    INSERT INTO staging_fund_providers BY NAME
    WITH sub AS (
      SELECT trim(ACCESSION_NUMBER) AS accession_number, ${cikSql('CIK')} AS filer_cik, ${dmySql('REPORT_ENDING_PERIOD')} AS report_period_end,
             ${dmySql('FILING_DATE')} AS filing_date
      FROM ncen_sub),
    reg AS (SELECT trim(ACCESSION_NUMBER) AS accession_number, any_value(${textSql('REGISTRANT_NAME')}) AS registrant_name FROM ncen_reg GROUP BY 1),
    fund AS (SELECT trim(FUND_ID) AS fund_id, any_value(${textSql('SERIES_ID')}) AS series_id,
      any_value(${textSql('FUND_NAME')}) AS fund_name FROM ncen_fund GROUP BY 1)
    SELECT p.accession_number,
           CAST(row_number() OVER (PARTITION BY p.accession_number
             ORDER BY p.table_no, f.series_id NULLS FIRST, p.provider_name, p.provider_lei NULLS FIRST,
               p.provider_file_number NULLS FIRST, p.provider_crd NULLS FIRST) AS INTEGER) AS provider_no,
           s.filer_cik, r.registrant_name, f.series_id, f.fund_name, p.role, p.provider_name, NULL AS provider_cik, p.provider_lei,
           p.provider_file_number, p.provider_crd, p.state, p.country, p.is_affiliated, s.report_period_end,
           CAST(year(s.report_period_end) AS VARCHAR) AS report_year, s.filing_date, 'sec_ncen_dataset' AS source,
           ${filingIndexUrlSql('s.filer_cik', 'p.accession_number')} AS source_url, ${ctx.parserVersion} AS parser_version
    FROM ncen_prov p
    JOIN sub s USING (accession_number)
    LEFT JOIN reg r USING (accession_number)
    LEFT JOIN fund f ON f.fund_id = trim(p.fund_id)
    WHERE p.provider_name IS NOT NULL AND s.filer_cik IS NOT NULL AND s.report_period_end IS NOT NULL`);
  ctx.progress.rows(insertedRows(staged));
  const noPeriod = await ctx.sql(`SELECT count(*)::INTEGER AS n FROM ncen_sub WHERE ${dmySql('REPORT_ENDING_PERIOD')} IS NULL OR ${cikSql('CIK')} IS NULL`);
  if (noPeriod[0].n)
    ctx.badRow({ file: 'SUBMISSION.tsv', line: null, reason: `${noPeriod[0].n} filing(s) without a CIK or REPORT_ENDING_PERIOD; their providers skipped` });
}
