import { dataSetMemberPath } from '../../sources/edgar/ownership/inputs.ts';
import type { LoadContext } from '../../sources/common/context.ts';
import { insertedRows } from '../../lake/staging.ts';
import { readTsvTable, sqlBool, sqlDdMonYyyy, sqlNum } from '../../sources/edgar/ownership/tsv-sql.ts';

/**
 * The quarterly Insider Transactions data set (SUBMISSION, REPORTINGOWNER, NONDERIV_/DERIV_ TRANS/HOLDING,
 * FOOTNOTES) loaded with DuckDB's read_csv — 10× faster than JS on these tables — and shaped in SQL into the
 * same rows the ownership XML parser produces (same footnote field names, same row_seq order).
 */

/** Columns each member must have for the SQL below; a member or column missing from a quarter reads as null. */
const MEMBERS: Record<string, string[]> = {
  SUBMISSION: [
    'ACCESSION_NUMBER',
    'FILING_DATE',
    'PERIOD_OF_REPORT',
    'DATE_OF_ORIG_SUB',
    'DOCUMENT_TYPE',
    'ISSUERCIK',
    'ISSUERNAME',
    'ISSUERTRADINGSYMBOL',
    'AFF10B5ONE',
  ],
  REPORTINGOWNER: ['ACCESSION_NUMBER', 'RPTOWNERCIK', 'RPTOWNERNAME', 'RPTOWNER_RELATIONSHIP', 'RPTOWNER_TITLE', 'RPTOWNER_TXT'],
  FOOTNOTES: ['ACCESSION_NUMBER', 'FOOTNOTE_ID', 'FOOTNOTE_TXT'],
  OWNER_SIGNATURE: ['ACCESSION_NUMBER', 'OWNERSIGNATURENAME', 'OWNERSIGNATUREDATE'],
  NONDERIV_TRANS: [
    'ACCESSION_NUMBER',
    'NONDERIV_TRANS_SK',
    'SECURITY_TITLE',
    'TRANS_DATE',
    'DEEMED_EXECUTION_DATE',
    'TRANS_FORM_TYPE',
    'TRANS_CODE',
    'EQUITY_SWAP_INVOLVED',
    'TRANS_TIMELINESS',
    'TRANS_SHARES',
    'TRANS_PRICEPERSHARE',
    'TRANS_ACQUIRED_DISP_CD',
    'SHRS_OWND_FOLWNG_TRANS',
    'VALU_OWND_FOLWNG_TRANS',
    'DIRECT_INDIRECT_OWNERSHIP',
    'NATURE_OF_OWNERSHIP',
  ],
  DERIV_TRANS: [
    'ACCESSION_NUMBER',
    'DERIV_TRANS_SK',
    'SECURITY_TITLE',
    'CONV_EXERCISE_PRICE',
    'TRANS_DATE',
    'DEEMED_EXECUTION_DATE',
    'TRANS_FORM_TYPE',
    'TRANS_CODE',
    'EQUITY_SWAP_INVOLVED',
    'TRANS_TIMELINESS',
    'TRANS_SHARES',
    'TRANS_TOTAL_VALUE',
    'TRANS_PRICEPERSHARE',
    'TRANS_ACQUIRED_DISP_CD',
    'EXCERCISE_DATE',
    'EXERCISE_DATE',
    'EXPIRATION_DATE',
    'UNDLYNG_SEC_TITLE',
    'UNDLYNG_SEC_SHARES',
    'UNDLYNG_SEC_VALUE',
    'SHRS_OWND_FOLWNG_TRANS',
    'VALU_OWND_FOLWNG_TRANS',
    'DIRECT_INDIRECT_OWNERSHIP',
    'NATURE_OF_OWNERSHIP',
  ],
  NONDERIV_HOLDING: [
    'ACCESSION_NUMBER',
    'NONDERIV_HOLDING_SK',
    'SECURITY_TITLE',
    'TRANS_FORM_TYPE',
    'SHRS_OWND_FOLWNG_TRANS',
    'VALU_OWND_FOLWNG_TRANS',
    'DIRECT_INDIRECT_OWNERSHIP',
    'NATURE_OF_OWNERSHIP',
  ],
  DERIV_HOLDING: [
    'ACCESSION_NUMBER',
    'DERIV_HOLDING_SK',
    'SECURITY_TITLE',
    'CONV_EXERCISE_PRICE',
    'TRANS_FORM_TYPE',
    'EXERCISE_DATE',
    'EXCERCISE_DATE',
    'EXPIRATION_DATE',
    'UNDLYNG_SEC_TITLE',
    'UNDLYNG_SEC_SHARES',
    'UNDLYNG_SEC_VALUE',
    'SHRS_OWND_FOLWNG_TRANS',
    'VALU_OWND_FOLWNG_TRANS',
    'DIRECT_INDIRECT_OWNERSHIP',
    'NATURE_OF_OWNERSHIP',
  ],
};

/** `*_FN` column → the XML element name the ownership parser uses for the same footnote reference. */
const FN_FIELDS: Record<string, string> = {
  SECURITY_TITLE_FN: 'securityTitle',
  TRANS_DATE_FN: 'transactionDate',
  DEEMED_EXECUTION_DATE_FN: 'deemedExecutionDate',
  TRANS_FORM_TYPE_FN: 'transactionFormType',
  EQUITY_SWAP_INVOLVED_FN: 'transactionCoding',
  EQUITY_SWAP_TRANS_CD_FN: 'transactionCoding',
  TRANS_TIMELINESS_FN: 'transactionTimeliness',
  TRANS_SHARES_FN: 'transactionShares',
  TRANS_TOTAL_VALUE_FN: 'transactionTotalValue',
  TRANS_PRICEPERSHARE_FN: 'transactionPricePerShare',
  TRANS_ACQUIRED_DISP_CD_FN: 'transactionAcquiredDisposedCode',
  SHRS_OWND_FOLWNG_TRANS_FN: 'sharesOwnedFollowingTransaction',
  VALU_OWND_FOLWNG_TRANS_FN: 'valueOwnedFollowingTransaction',
  DIRECT_INDIRECT_OWNERSHIP_FN: 'directOrIndirectOwnership',
  NATURE_OF_OWNERSHIP_FN: 'natureOfOwnership',
  CONV_EXERCISE_PRICE_FN: 'conversionOrExercisePrice',
  EXCERCISE_DATE_FN: 'exerciseDate',
  EXERCISE_DATE_FN: 'exerciseDate',
  EXPIRATION_DATE_FN: 'expirationDate',
  UNDLYNG_SEC_TITLE_FN: 'underlyingSecurityTitle',
  UNDLYNG_SEC_SHARES_FN: 'underlyingSecurityShares',
  UNDLYNG_SEC_VALUE_FN: 'underlyingSecurityValue',
};

const ROW_TABLES = [
  { member: 'NONDERIV_TRANS', sk: 'NONDERIV_TRANS_SK', derivative: false, kind: 'transaction' },
  { member: 'DERIV_TRANS', sk: 'DERIV_TRANS_SK', derivative: true, kind: 'transaction' },
  { member: 'NONDERIV_HOLDING', sk: 'NONDERIV_HOLDING_SK', derivative: false, kind: 'holding' },
  { member: 'DERIV_HOLDING', sk: 'DERIV_HOLDING_SK', derivative: true, kind: 'holding' },
] as const;

export function isInsiderDataSetFolder(dir: string): boolean {
  return dataSetMemberPath(dir, 'SUBMISSION') != null;
}

/** Loads one extracted quarter folder into staging_insider_transactions / staging_insider_holdings. */
export async function loadInsiderDataSet(ctx: LoadContext, dir: string, sourceUrl: string | null): Promise<void> {
  const present: Record<string, string[]> = {};
  for (const [member, cols] of Object.entries(MEMBERS)) {
    const path = dataSetMemberPath(dir, member);
    if (!path) ctx.log(`insider data set: ${member}.tsv missing in ${dir}; its columns read as null`);
    present[member] = await readTsvTable(ctx, `ds_${member.toLowerCase()}`, path, cols, ctx.badRow);
  }

  // One long table of (accession, kind, sk, field, footnote id) from every *_FN column of the four row tables.
  const fnSelects: string[] = [];
  for (const t of ROW_TABLES) {
    for (const col of present[t.member]) {
      const field = FN_FIELDS[col];
      if (!field) continue;
      fnSelects.push(
        `SELECT ACCESSION_NUMBER AS accession, '${t.member}' AS member, ${t.sk} AS sk, '${field}' AS field, ${col} AS ids ` +
          `FROM ds_${t.member.toLowerCase()} WHERE ${col} IS NOT NULL`,
      );
    }
  }
  const refsSql = fnSelects.length
    ? fnSelects.join(' UNION ALL ')
    : 'SELECT NULL::VARCHAR accession, NULL::VARCHAR member, NULL::VARCHAR sk, NULL::VARCHAR field, NULL::VARCHAR ids WHERE false';
  await ctx.sql(`CREATE OR REPLACE TEMP TABLE ds_fnrefs AS
    WITH refs AS (${refsSql}),
    one AS (SELECT accession, member, sk, field, trim(unnest(string_split(ids, ','))) AS id FROM refs)
    SELECT one.accession, one.member, one.sk,
      to_json(list(struct_pack(field := one.field, id := one.id, text := f.FOOTNOTE_TXT) ORDER BY one.field, one.id))::VARCHAR AS footnotes,
      string_agg(CASE WHEN one.field = 'transactionPricePerShare' THEN f.FOOTNOTE_TXT END, ' ' ORDER BY one.id) AS price_footnote
    FROM one LEFT JOIN ds_footnotes f ON f.ACCESSION_NUMBER = one.accession AND f.FOOTNOTE_ID = one.id
    WHERE one.id <> ''
    GROUP BY ALL`);

  await ctx.sql(`CREATE OR REPLACE TEMP TABLE ds_owners AS
    WITH o AS (
      SELECT ACCESSION_NUMBER AS accession, ds_row AS ord,
        lpad(regexp_replace(RPTOWNERCIK, '\\D', '', 'g'), 10, '0') AS cik, trim(RPTOWNERNAME) AS name,
        list_filter(['Director', 'Officer', 'TenPercentOwner', 'Other'], r -> contains(lower(coalesce(RPTOWNER_RELATIONSHIP, '')), lower(r))) AS rels,
        nullif(trim(RPTOWNER_TITLE), '') AS officer_title, nullif(trim(RPTOWNER_TXT), '') AS other_text
      FROM ds_reportingowner)
    SELECT accession,
      to_json(list(struct_pack(cik := cik, name := name, relationships := rels, officer_title := officer_title,
        other_text := other_text) ORDER BY ord))::VARCHAR AS owners,
      first(cik ORDER BY ord) AS owner_cik, first(name ORDER BY ord) AS owner_name,
      string_agg(cik, ',' ORDER BY ord) AS owner_ciks, string_agg(name, ' | ' ORDER BY ord) AS owner_names,
      bool_or(list_contains(rels, 'Director')) AS is_director, bool_or(list_contains(rels, 'Officer')) AS is_officer,
      bool_or(list_contains(rels, 'TenPercentOwner')) AS is_ten_percent_owner, bool_or(list_contains(rels, 'Other')) AS is_other,
      first(officer_title ORDER BY ord) FILTER (WHERE officer_title IS NOT NULL) AS officer_title,
      first(other_text ORDER BY ord) FILTER (WHERE other_text IS NOT NULL) AS other_text
    FROM o GROUP BY accession`);

  // Signatures in file order (the data set keeps the XML's order of ownerSignature elements).
  await ctx.sql(`CREATE OR REPLACE TEMP TABLE ds_signatures AS
    SELECT ACCESSION_NUMBER AS accession,
      to_json(list(struct_pack(name := nullif(trim(OWNERSIGNATURENAME), ''),
        date := strftime(${sqlDdMonYyyy('OWNERSIGNATUREDATE')}, '%Y-%m-%d')) ORDER BY ds_row))::VARCHAR AS signatures
    FROM ds_owner_signature GROUP BY ACCESSION_NUMBER`);

  const filedDate = sqlDdMonYyyy('s.FILING_DATE');
  await ctx.sql(`CREATE OR REPLACE TEMP TABLE ds_filing AS
    SELECT s.ACCESSION_NUMBER AS accession, upper(trim(s.DOCUMENT_TYPE)) AS form_type,
      coalesce(upper(trim(s.DOCUMENT_TYPE)) LIKE '%/A', false) AS is_amendment,
      ${filedDate} AS filed_date,
      CAST(year(${filedDate}) AS VARCHAR) || 'Q' || CAST(quarter(${filedDate}) AS VARCHAR) AS filed_quarter,
      ${sqlDdMonYyyy('s.PERIOD_OF_REPORT')} AS period_of_report, ${sqlDdMonYyyy('s.DATE_OF_ORIG_SUB')} AS date_of_orig_sub,
      CASE WHEN regexp_matches(trim(s.ISSUERCIK), '^\\d{1,10}$') THEN lpad(trim(s.ISSUERCIK), 10, '0') END AS issuer_cik,
      trim(s.ISSUERNAME) AS issuer_name, nullif(upper(trim(s.ISSUERTRADINGSYMBOL)), '') AS ticker,
      ${sqlBool('s.AFF10B5ONE')} AS aff10b5one,
      o.owners, o.owner_cik, o.owner_name, o.owner_ciks, o.owner_names,
      nullif(concat_ws(',', CASE WHEN o.is_director THEN 'Director' END, CASE WHEN o.is_officer THEN 'Officer' END,
        CASE WHEN o.is_ten_percent_owner THEN 'TenPercentOwner' END, CASE WHEN o.is_other THEN 'Other' END), '') AS relationship,
      o.is_director, o.is_officer, o.is_ten_percent_owner, o.is_other, o.officer_title, o.other_text,
      coalesce(sig.signatures, '[]') AS signatures
    FROM ds_submission s LEFT JOIN ds_owners o ON o.accession = s.ACCESSION_NUMBER
    LEFT JOIN ds_signatures sig ON sig.accession = s.ACCESSION_NUMBER`);

  const bad = await ctx.sql(`SELECT accession FROM ds_filing WHERE filed_date IS NULL OR issuer_cik IS NULL OR accession IS NULL LIMIT 1000`);
  for (const b of bad) ctx.badRow({ file: 'SUBMISSION.tsv', line: null, reason: `accession ${b.accession}: unparsable FILING_DATE or ISSUERCIK` });

  const common = (alias: string, member: string, sk: string, derivative: boolean) => `
      f.accession, f.form_type, f.is_amendment, f.filed_date, f.filed_quarter, f.period_of_report, f.date_of_orig_sub,
      f.issuer_cik, f.issuer_name, f.ticker, f.owner_cik, f.owner_name, f.owner_ciks, f.owner_names, f.relationship,
      f.is_director, f.is_officer, f.is_ten_percent_owner, f.is_other, f.officer_title, f.other_text, f.owners, f.aff10b5one, f.signatures,
      ${derivative} AS is_derivative,
      trim(${alias}.SECURITY_TITLE) AS security_title,
      ${sqlNum(`${alias}.SHRS_OWND_FOLWNG_TRANS`)} AS shares_owned_after,
      ${sqlNum(`${alias}.VALU_OWND_FOLWNG_TRANS`)} AS value_owned_after,
      nullif(upper(trim(${alias}.DIRECT_INDIRECT_OWNERSHIP)), '') AS direct_indirect,
      nullif(trim(${alias}.NATURE_OF_OWNERSHIP), '') AS nature_of_ownership,
      ${derivative ? sqlNum(`${alias}.CONV_EXERCISE_PRICE`) : 'NULL'} AS conversion_or_exercise_price,
      ${derivative ? sqlDdMonYyyy(`coalesce(${alias}.EXCERCISE_DATE, ${alias}.EXERCISE_DATE)`) : 'NULL'} AS exercise_date,
      ${derivative ? sqlDdMonYyyy(`${alias}.EXPIRATION_DATE`) : 'NULL'} AS expiration_date,
      ${derivative ? `nullif(trim(${alias}.UNDLYNG_SEC_TITLE), '')` : 'NULL'} AS underlying_security_title,
      ${derivative ? sqlNum(`${alias}.UNDLYNG_SEC_SHARES`) : 'NULL'} AS underlying_security_shares,
      ${derivative ? sqlNum(`${alias}.UNDLYNG_SEC_VALUE`) : 'NULL'} AS underlying_security_value,
      coalesce(n.footnotes, '[]') AS footnotes,
      'data_set' AS source_kind,
      'https://www.sec.gov/Archives/edgar/data/' || CAST(CAST(f.issuer_cik AS BIGINT) AS VARCHAR) || '/' ||
        replace(f.accession, '-', '') || '/' || f.accession || '-index.htm' AS source_url,
      ${ctx.parserVersion} AS parser_version,
      TRY_CAST(${alias}.${sk} AS BIGINT) AS sk_num, '${member}' AS member_name, n.price_footnote AS pf`;
  const join = (alias: string, member: string, sk: string) =>
    `FROM ds_${member.toLowerCase()} ${alias} JOIN ds_filing f ON f.accession = ${alias}.ACCESSION_NUMBER
     LEFT JOIN ds_fnrefs n ON n.accession = ${alias}.ACCESSION_NUMBER AND n.member = '${member}' AND n.sk = ${alias}.${sk}
     WHERE f.filed_date IS NOT NULL AND f.issuer_cik IS NOT NULL`;
  const trans = (alias: string, member: string, sk: string, derivative: boolean) => `
    SELECT ${common(alias, member, sk, derivative)},
      ${sqlDdMonYyyy(`${alias}.TRANS_DATE`)} AS transaction_date,
      ${sqlDdMonYyyy(`${alias}.DEEMED_EXECUTION_DATE`)} AS deemed_execution_date,
      nullif(trim(${alias}.TRANS_FORM_TYPE), '') AS trans_form_type,
      nullif(upper(trim(${alias}.TRANS_CODE)), '') AS trans_code,
      ${sqlBool(`${alias}.EQUITY_SWAP_INVOLVED`)} AS equity_swap_involved,
      CASE WHEN upper(trim(${alias}.TRANS_TIMELINESS)) IN ('E', 'L') THEN upper(trim(${alias}.TRANS_TIMELINESS)) END AS transaction_timeliness,
      ${sqlNum(`${alias}.TRANS_SHARES`)} AS shares,
      ${derivative ? sqlNum(`${alias}.TRANS_TOTAL_VALUE`) : 'NULL'} AS total_value,
      ${sqlNum(`${alias}.TRANS_PRICEPERSHARE`)} AS price_per_share,
      CASE WHEN upper(trim(${alias}.TRANS_ACQUIRED_DISP_CD)) IN ('A', 'D') THEN upper(trim(${alias}.TRANS_ACQUIRED_DISP_CD)) END AS acquired_disposed
    ${join(alias, member, sk)}`;
  const hold = (alias: string, member: string, sk: string, derivative: boolean) => `SELECT ${common(alias, member, sk, derivative)} ${join(alias, member, sk)}`;

  // row_seq: Table I before Table II, each in surrogate-key order (= document order), as the XML path numbers them.
  const transactions = await ctx.sql(`INSERT INTO staging_insider_transactions BY NAME
    SELECT * EXCLUDE (sk_num, member_name, pf), pf AS price_footnote,
      round(shares * price_per_share, 2) AS value_usd,
      CAST(row_number() OVER (PARTITION BY accession ORDER BY is_derivative, sk_num) AS INTEGER) AS row_seq
    FROM (${trans('t', 'NONDERIV_TRANS', 'NONDERIV_TRANS_SK', false)} UNION ALL BY NAME ${trans('t', 'DERIV_TRANS', 'DERIV_TRANS_SK', true)})`);
  const holdings = await ctx.sql(`INSERT INTO staging_insider_holdings BY NAME
    SELECT * EXCLUDE (sk_num, member_name, pf),
      CAST(row_number() OVER (PARTITION BY accession ORDER BY is_derivative, sk_num) AS INTEGER) AS row_seq
    FROM (${hold('h', 'NONDERIV_HOLDING', 'NONDERIV_HOLDING_SK', false)} UNION ALL BY NAME ${hold('h', 'DERIV_HOLDING', 'DERIV_HOLDING_SK', true)})`);
  // This data set's rows only: staging may already hold an earlier data set's rows of the same run.
  const n = insertedRows(transactions) + insertedRows(holdings);
  ctx.progress.rows(n);
  if (sourceUrl) ctx.log(`insider data set ${sourceUrl}: ${n} rows staged`);
  for (const m of Object.keys(MEMBERS)) await ctx.sql(`DROP TABLE IF EXISTS ds_${m.toLowerCase()}`);
}
