import type { LoadContext } from '../../sources/common/context.ts';
import { insertedRows } from '../../lake/staging.ts';
import { readTsvTable, sqlBool, sqlDdMonYyyy } from '../../sources/edgar/ownership/tsv-sql.ts';
import { dataSetMemberPath } from '../../sources/edgar/ownership/inputs.ts';

/**
 * The quarterly Form D data set (FORMDSUBMISSION, ISSUERS, OFFERING, RELATEDPERSONS, RECIPIENTS, SIGNATURES;
 * key ACCESSIONNUMBER without underscore) shaped in SQL into the same form_d_offerings rows as the XML path.
 */

const MEMBERS: Record<string, string[]> = {
  FORMDSUBMISSION: ['ACCESSIONNUMBER', 'FILING_DATE', 'SUBMISSIONTYPE'],
  ISSUERS: [
    'ACCESSIONNUMBER',
    'IS_PRIMARYISSUER_FLAG',
    'ISSUER_SEQ_KEY',
    'CIK',
    'ENTITYNAME',
    'STREET1',
    'STREET2',
    'CITY',
    'STATEORCOUNTRY',
    'STATEORCOUNTRYDESCRIPTION',
    'ZIPCODE',
    'ISSUERPHONENUMBER',
    'JURISDICTIONOFINC',
    'ENTITYTYPE',
    'YEAROFINC_TIMESPAN_CHOICE',
    'YEAROFINC_VALUE_ENTERED',
  ],
  OFFERING: [
    'ACCESSIONNUMBER',
    'INDUSTRYGROUPTYPE',
    'INVESTMENTFUNDTYPE',
    'IS40ACT',
    'REVENUERANGE',
    'AGGREGATENETASSETVALUERANGE',
    'FEDERALEXEMPTIONS_ITEMS_LIST',
    'ISAMENDMENT',
    'PREVIOUSACCESSIONNUMBER',
    'SALE_DATE',
    'YETTOOCCUR',
    'MORETHANONEYEAR',
    'ISEQUITYTYPE',
    'ISDEBTTYPE',
    'ISOPTIONTOACQUIRETYPE',
    'ISSECURITYTOBEACQUIREDTYPE',
    'ISPOOLEDINVESTMENTFUNDTYPE',
    'ISTENANTINCOMMONTYPE',
    'ISMINERALPROPERTYTYPE',
    'ISOTHERTYPE',
    'DESCRIPTIONOFOTHERTYPE',
    'MINIMUMINVESTMENTACCEPTED',
    'TOTALOFFERINGAMOUNT',
    'TOTALAMOUNTSOLD',
    'TOTALREMAINING',
    'HASNONACCREDITEDINVESTORS',
    'NUMBERNONACCREDITEDINVESTORS',
    'TOTALNUMBERALREADYINVESTED',
    'SALESCOMM_DOLLARAMOUNT',
    'FINDERSFEE_DOLLARAMOUNT',
    'GROSSPROCEEDSUSED_DOLLARAMOUNT',
  ],
  RELATEDPERSONS: [
    'ACCESSIONNUMBER',
    'RELATEDPERSON_SEQ_KEY',
    'FIRSTNAME',
    'MIDDLENAME',
    'LASTNAME',
    'CITY',
    'STATEORCOUNTRY',
    'RELATIONSHIP_1',
    'RELATIONSHIP_2',
    'RELATIONSHIP_3',
    'RELATIONSHIPCLARIFICATION',
  ],
  RECIPIENTS: [
    'ACCESSIONNUMBER',
    'RECIPIENT_SEQ_KEY',
    'RECIPIENTNAME',
    'RECIPIENTCRDNUMBER',
    'ASSOCIATEDBDNAME',
    'ASSOCIATEDBDCRDNUMBER',
    'CITY',
    'STATEORCOUNTRY',
    'STATES_OR_VALUE_LIST',
    'FOREIGNSOLICITATION',
  ],
  SIGNATURES: ['ACCESSIONNUMBER', 'SIGNATURE_SEQ_KEY', 'ISSUERNAME', 'SIGNATURENAME', 'NAMEOFSIGNER', 'SIGNATURETITLE', 'SIGNATUREDATE'],
};

export function isFormDDataSetFolder(dir: string): boolean {
  return dataSetMemberPath(dir, 'FORMDSUBMISSION') != null;
}

const nz = (e: string) => `nullif(trim(${e}), '')`;
/** Whole USD; `Indefinite` → null (its flag column says so). */
const usd = (e: string) => `TRY_CAST(round(TRY_CAST(nullif(replace(trim(${e}), ',', ''), '') AS DOUBLE)) AS BIGINT)`;
const indefinite = (e: string) => `coalesce(lower(trim(${e})) = 'indefinite', false)`;
const seqKey = (e: string) => `TRY_CAST(${e} AS BIGINT)`;
/** SALE_DATE is ISO; FILING_DATE is DD-MON-YYYY; SIGNATUREDATE has been seen in both. */
const anyDate = (e: string) => `coalesce(TRY_CAST(trim(${e}) AS DATE), ${sqlDdMonYyyy(e)})`;

export async function loadFormDDataSet(ctx: LoadContext, dir: string): Promise<void> {
  for (const [member, cols] of Object.entries(MEMBERS)) {
    const path = dataSetMemberPath(dir, member);
    if (!path) ctx.log(`Form D data set: ${member}.tsv missing in ${dir}; its columns read as null`);
    await readTsvTable(ctx, `fd_${member.toLowerCase()}`, path, cols, ctx.badRow);
  }
  const filed = sqlDdMonYyyy('s.FILING_DATE');
  const staged = await ctx.sql(`INSERT INTO staging_form_d_offerings BY NAME
    WITH iss AS (
      SELECT ACCESSIONNUMBER AS acc,
        to_json(list(struct_pack(
          is_primary := upper(trim(IS_PRIMARYISSUER_FLAG)) = 'YES', cik := lpad(trim(CIK), 10, '0'), name := ${nz('ENTITYNAME')},
          street1 := ${nz('STREET1')}, street2 := ${nz('STREET2')}, city := ${nz('CITY')}, state_or_country := ${nz('STATEORCOUNTRY')},
          state_or_country_description := ${nz('STATEORCOUNTRYDESCRIPTION')}, zip := ${nz('ZIPCODE')}, phone := ${nz('ISSUERPHONENUMBER')},
          jurisdiction_of_inc := ${nz('JURISDICTIONOFINC')}, entity_type := ${nz('ENTITYTYPE')}, year_of_inc := ${nz('YEAROFINC_VALUE_ENTERED')},
          year_of_inc_choice := ${nz('YEAROFINC_TIMESPAN_CHOICE')})
          ORDER BY upper(trim(IS_PRIMARYISSUER_FLAG)) = 'YES' DESC, ${seqKey('ISSUER_SEQ_KEY')}, ds_row))::VARCHAR AS issuers,
        first(lpad(trim(CIK), 10, '0') ORDER BY upper(trim(IS_PRIMARYISSUER_FLAG)) = 'YES' DESC, ${seqKey('ISSUER_SEQ_KEY')}, ds_row) AS cik,
        first(${nz('ENTITYNAME')} ORDER BY upper(trim(IS_PRIMARYISSUER_FLAG)) = 'YES' DESC, ${seqKey('ISSUER_SEQ_KEY')}, ds_row) AS name,
        first(${nz('STATEORCOUNTRY')} ORDER BY upper(trim(IS_PRIMARYISSUER_FLAG)) = 'YES' DESC, ${seqKey('ISSUER_SEQ_KEY')}, ds_row) AS state,
        first(${nz('STATEORCOUNTRYDESCRIPTION')} ORDER BY upper(trim(IS_PRIMARYISSUER_FLAG)) = 'YES' DESC,
          ${seqKey('ISSUER_SEQ_KEY')}, ds_row) AS state_description,
        first(${nz('CITY')} ORDER BY upper(trim(IS_PRIMARYISSUER_FLAG)) = 'YES' DESC, ${seqKey('ISSUER_SEQ_KEY')}, ds_row) AS city,
        first(${nz('JURISDICTIONOFINC')} ORDER BY upper(trim(IS_PRIMARYISSUER_FLAG)) = 'YES' DESC, ${seqKey('ISSUER_SEQ_KEY')}, ds_row) AS jurisdiction_of_inc,
        first(${nz('ENTITYTYPE')} ORDER BY upper(trim(IS_PRIMARYISSUER_FLAG)) = 'YES' DESC, ${seqKey('ISSUER_SEQ_KEY')}, ds_row) AS entity_type,
        first(${nz('YEAROFINC_VALUE_ENTERED')} ORDER BY upper(trim(IS_PRIMARYISSUER_FLAG)) = 'YES' DESC, ${seqKey('ISSUER_SEQ_KEY')}, ds_row) AS year_of_inc
      FROM fd_issuers GROUP BY ACCESSIONNUMBER),
    rel AS (
      SELECT ACCESSIONNUMBER AS acc, to_json(list(struct_pack(
          first_name := ${nz('FIRSTNAME')}, middle_name := ${nz('MIDDLENAME')}, last_name := ${nz('LASTNAME')}, city := ${nz('CITY')},
          state_or_country := ${nz('STATEORCOUNTRY')},
          relationships := list_filter([${nz('RELATIONSHIP_1')}, ${nz('RELATIONSHIP_2')}, ${nz('RELATIONSHIP_3')}], x -> x IS NOT NULL),
          clarification := ${nz('RELATIONSHIPCLARIFICATION')}) ORDER BY ${seqKey('RELATEDPERSON_SEQ_KEY')}, ds_row))::VARCHAR AS related_persons
      FROM fd_relatedpersons GROUP BY ACCESSIONNUMBER),
    rec AS (
      SELECT ACCESSIONNUMBER AS acc, to_json(list(struct_pack(
          name := ${nz('RECIPIENTNAME')}, crd := ${nz('RECIPIENTCRDNUMBER')}, associated_bd_name := ${nz('ASSOCIATEDBDNAME')},
          associated_bd_crd := ${nz('ASSOCIATEDBDCRDNUMBER')}, city := ${nz('CITY')}, state_or_country := ${nz('STATEORCOUNTRY')},
          states_of_solicitation := list_filter(list_transform(string_split(coalesce(STATES_OR_VALUE_LIST, ''), ','), x -> trim(x)), x -> x <> ''),
          foreign_solicitation := ${sqlBool('FOREIGNSOLICITATION')}) ORDER BY ${seqKey('RECIPIENT_SEQ_KEY')}, ds_row))::VARCHAR AS recipients
      FROM fd_recipients GROUP BY ACCESSIONNUMBER),
    sig AS (
      SELECT ACCESSIONNUMBER AS acc, to_json(list(struct_pack(
          issuer_name := ${nz('ISSUERNAME')}, signature_name := ${nz('SIGNATURENAME')}, name_of_signer := ${nz('NAMEOFSIGNER')},
          title := ${nz('SIGNATURETITLE')},
          date := strftime(${anyDate('SIGNATUREDATE')}, '%Y-%m-%d')) ORDER BY ${seqKey('SIGNATURE_SEQ_KEY')}, ds_row))::VARCHAR AS signatures
      FROM fd_signatures GROUP BY ACCESSIONNUMBER)
    SELECT s.ACCESSIONNUMBER AS accession, upper(trim(s.SUBMISSIONTYPE)) AS submission_type,
      coalesce(${sqlBool('o.ISAMENDMENT')}, upper(trim(s.SUBMISSIONTYPE)) = 'D/A') AS is_amendment,
      ${nz('o.PREVIOUSACCESSIONNUMBER')} AS previous_accession,
      ${filed} AS filed_date, CAST(year(${filed}) AS VARCHAR) || 'Q' || CAST(quarter(${filed}) AS VARCHAR) AS filed_quarter,
      iss.cik AS issuer_cik, iss.name AS issuer_name, iss.state, iss.state_description, iss.city, iss.jurisdiction_of_inc, iss.entity_type, iss.year_of_inc,
      ${nz('o.INDUSTRYGROUPTYPE')} AS industry_group, ${nz('o.INVESTMENTFUNDTYPE')} AS investment_fund_type,
      coalesce(trim(o.INDUSTRYGROUPTYPE) = 'Pooled Investment Fund', false) AS is_pooled_fund,
      ${sqlBool('o.IS40ACT')} AS is_40_act, ${nz('o.REVENUERANGE')} AS revenue_range, ${nz('o.AGGREGATENETASSETVALUERANGE')} AS nav_range,
      to_json(list_filter(list_transform(string_split(coalesce(o.FEDERALEXEMPTIONS_ITEMS_LIST, ''), ','), x -> trim(x)),
        x -> x <> ''))::VARCHAR AS federal_exemptions,
      TRY_CAST(trim(o.SALE_DATE) AS DATE) AS date_of_first_sale, ${sqlBool('o.YETTOOCCUR')} AS first_sale_yet_to_occur,
      ${sqlBool('o.MORETHANONEYEAR')} AS more_than_one_year,
      to_json(list_filter([
        CASE WHEN ${sqlBool('o.ISEQUITYTYPE')} THEN 'Equity' END, CASE WHEN ${sqlBool('o.ISDEBTTYPE')} THEN 'Debt' END,
        CASE WHEN ${sqlBool('o.ISOPTIONTOACQUIRETYPE')} THEN 'Option to acquire' END,
        CASE WHEN ${sqlBool('o.ISSECURITYTOBEACQUIREDTYPE')} THEN 'Security to be acquired' END,
        CASE WHEN ${sqlBool('o.ISPOOLEDINVESTMENTFUNDTYPE')} THEN 'Pooled investment fund interests' END,
        CASE WHEN ${sqlBool('o.ISTENANTINCOMMONTYPE')} THEN 'Tenant-in-common' END,
        CASE WHEN ${sqlBool('o.ISMINERALPROPERTYTYPE')} THEN 'Mineral property' END,
        CASE WHEN ${sqlBool('o.ISOTHERTYPE')} THEN 'Other' END], x -> x IS NOT NULL))::VARCHAR AS security_types,
      ${usd('o.MINIMUMINVESTMENTACCEPTED')} AS minimum_investment,
      ${usd('o.TOTALOFFERINGAMOUNT')} AS total_offering_amount, ${indefinite('o.TOTALOFFERINGAMOUNT')} AS total_offering_indefinite,
      ${usd('o.TOTALAMOUNTSOLD')} AS total_amount_sold,
      ${usd('o.TOTALREMAINING')} AS total_remaining, ${indefinite('o.TOTALREMAINING')} AS total_remaining_indefinite,
      ${sqlBool('o.HASNONACCREDITEDINVESTORS')} AS has_non_accredited_investors,
      TRY_CAST(o.NUMBERNONACCREDITEDINVESTORS AS INTEGER) AS num_non_accredited_investors,
      TRY_CAST(o.TOTALNUMBERALREADYINVESTED AS INTEGER) AS total_investors,
      ${usd('o.SALESCOMM_DOLLARAMOUNT')} AS sales_commissions_usd, ${usd('o.FINDERSFEE_DOLLARAMOUNT')} AS finders_fees_usd,
      ${usd('o.GROSSPROCEEDSUSED_DOLLARAMOUNT')} AS gross_proceeds_used_usd,
      coalesce(iss.issuers, '[]') AS issuers, coalesce(rel.related_persons, '[]') AS related_persons,
      coalesce(rec.recipients, '[]') AS recipients, coalesce(sig.signatures, '[]') AS signatures,
      'data_set' AS source_kind,
      'https://www.sec.gov/Archives/edgar/data/' || CAST(CAST(iss.cik AS BIGINT) AS VARCHAR) || '/' ||
        replace(s.ACCESSIONNUMBER, '-', '') || '/' || s.ACCESSIONNUMBER || '-index.htm' AS source_url,
      ${ctx.parserVersion} AS parser_version
    FROM fd_formdsubmission s
    LEFT JOIN fd_offering o ON o.ACCESSIONNUMBER = s.ACCESSIONNUMBER
    LEFT JOIN iss ON iss.acc = s.ACCESSIONNUMBER LEFT JOIN rel ON rel.acc = s.ACCESSIONNUMBER
    LEFT JOIN rec ON rec.acc = s.ACCESSIONNUMBER LEFT JOIN sig ON sig.acc = s.ACCESSIONNUMBER
    WHERE ${filed} IS NOT NULL AND iss.cik IS NOT NULL AND regexp_matches(iss.cik, '^\\d{10}$')`);
  ctx.progress.rows(insertedRows(staged));
  const bad = await ctx.sql(`SELECT s.ACCESSIONNUMBER AS accession FROM fd_formdsubmission s
    WHERE s.ACCESSIONNUMBER NOT IN (SELECT accession FROM staging_form_d_offerings) LIMIT 1000`);
  for (const b of bad)
    ctx.badRow({ file: 'FORMDSUBMISSION.tsv', line: null, reason: `accession ${b.accession}: unparsable FILING_DATE or no primary issuer CIK` });
}
