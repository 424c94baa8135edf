import type { LoadContext } from '../../sources/common/context.ts';
import { loadMemberTables, loadTsv } from '../../sources/edgar/funds/tsv.ts';
import { boolSql, cikSql, dmySql, numSql, textSql } from '../../sources/edgar/funds/work.ts';

/**
 * Loads one unpacked Form 13F data set (SUBMISSION, COVERPAGE, SUMMARYPAGE, INFOTABLE; OTHERMANAGER, OTHERMANAGER2
 * and SIGNATURE when present) into the raw tables with DuckDB's reader: the ≈3 million INFOTABLE rows never pass
 * through JS.
 */
export const DATASET_MEMBERS = [
  'SUBMISSION.TSV',
  'COVERPAGE.TSV',
  'SUMMARYPAGE.TSV',
  'INFOTABLE.TSV',
  'OTHERMANAGER.TSV',
  'OTHERMANAGER2.TSV',
  'SIGNATURE.TSV',
];

const MANAGER_COLUMNS = ['ACCESSION_NUMBER', 'CIK', 'FORM13FFILENUMBER', 'CRDNUMBER', 'SECFILENUMBER', 'NAME'];

/** One JSON list per accession of an other-manager member, in the member's key order. */
function managersJson(table: string, key: string, withSequence: boolean): string {
  const seq = withSequence ? `sequence_number := ${numSql(key, 'INTEGER')}, ` : '';
  return `SELECT trim(ACCESSION_NUMBER) AS acc, to_json(list(struct_pack(${seq}cik := ${cikSql('CIK')},
      form13f_file_number := ${textSql('FORM13FFILENUMBER')}, crd_number := ${textSql('CRDNUMBER')},
      sec_file_number := ${textSql('SECFILENUMBER')}, name := ${textSql('NAME')}) ORDER BY TRY_CAST(${key} AS BIGINT)))::VARCHAR AS list
    FROM ${table} GROUP BY 1`;
}

export async function loadDataset13f(ctx: LoadContext, members: Map<string, string>, label: string): Promise<void> {
  const ok = await loadMemberTables(
    ctx,
    members,
    label,
    ['SUBMISSION.TSV', 'COVERPAGE.TSV', 'INFOTABLE.TSV'],
    [
      { member: 'SUBMISSION.TSV', table: 'ds13f_sub', columns: [] },
      { member: 'COVERPAGE.TSV', table: 'ds13f_cover', columns: [] },
      {
        member: 'SUMMARYPAGE.TSV',
        table: 'ds13f_summary',
        columns: ['ACCESSION_NUMBER', 'OTHERINCLUDEDMANAGERSCOUNT', 'TABLEENTRYTOTAL', 'TABLEVALUETOTAL', 'ISCONFIDENTIALOMITTED'],
      },
      { member: 'OTHERMANAGER.TSV', table: 'ds13f_othermgr', columns: [...MANAGER_COLUMNS, 'OTHERMANAGER_SK'] },
      { member: 'OTHERMANAGER2.TSV', table: 'ds13f_othermgr2', columns: [...MANAGER_COLUMNS, 'SEQUENCENUMBER'] },
      {
        member: 'SIGNATURE.TSV',
        table: 'ds13f_signature',
        columns: ['ACCESSION_NUMBER', 'NAME', 'TITLE', 'PHONE', 'SIGNATURE', 'CITY', 'STATEORCOUNTRY', 'SIGNATUREDATE'],
      },
    ],
  );
  if (!ok) return;
  const bad = await ctx.sql(`SELECT ACCESSION_NUMBER AS a FROM ds13f_sub WHERE ${dmySql('PERIODOFREPORT')} IS NULL OR ${cikSql('CIK')} IS NULL`);
  for (const b of bad) ctx.badRow({ file: 'SUBMISSION.tsv', line: null, reason: `${b.a}: unparsable CIK or PERIODOFREPORT` });

  await ctx.sql(`
    INSERT INTO raw13f_filing
    SELECT trim(s.ACCESSION_NUMBER), ${cikSql('s.CIK')}, ${textSql('c.FILINGMANAGER_NAME')}, ${textSql('c.FILINGMANAGER_STREET1')},
           ${textSql('c.FILINGMANAGER_STREET2')}, ${textSql('c.FILINGMANAGER_CITY')}, ${textSql('c.FILINGMANAGER_STATEORCOUNTRY')},
           ${textSql('c.FILINGMANAGER_ZIPCODE')}, coalesce(${dmySql('s.PERIODOFREPORT')}, ${dmySql('c.REPORTCALENDARORQUARTER')}),
           ${dmySql('s.FILING_DATE')}, NULL, upper(trim(s.SUBMISSIONTYPE)), ${boolSql('c.ISAMENDMENT')}, ${numSql('c.AMENDMENTNO', 'INTEGER')},
           upper(${textSql('c.AMENDMENTTYPE')}), upper(${textSql('c.REPORTTYPE')}), ${textSql('c.FORM13FFILENUMBER')}, ${textSql('c.CRDNUMBER')},
           ${textSql('c.SECFILENUMBER')}, ${numSql('p.OTHERINCLUDEDMANAGERSCOUNT', 'INTEGER')}, ${numSql('p.TABLEENTRYTOTAL', 'INTEGER')},
           ${numSql('p.TABLEVALUETOTAL')}, ${boolSql('p.ISCONFIDENTIALOMITTED')}, NULL, 'sec_13f_dataset',
           NULL, om.list, om2.list, ${textSql('g.NAME')}, ${textSql('g.TITLE')}, ${textSql('g.PHONE')}, ${textSql('g.SIGNATURE')},
           ${textSql('g.CITY')}, ${textSql('g.STATEORCOUNTRY')}, ${dmySql('g.SIGNATUREDATE')}
    FROM ds13f_sub s
    LEFT JOIN ds13f_cover c ON trim(c.ACCESSION_NUMBER) = trim(s.ACCESSION_NUMBER)
    LEFT JOIN ds13f_summary p ON trim(p.ACCESSION_NUMBER) = trim(s.ACCESSION_NUMBER)
    LEFT JOIN (${managersJson('ds13f_othermgr', 'OTHERMANAGER_SK', false)}) om ON om.acc = trim(s.ACCESSION_NUMBER)
    LEFT JOIN (${managersJson('ds13f_othermgr2', 'SEQUENCENUMBER', true)}) om2 ON om2.acc = trim(s.ACCESSION_NUMBER)
    LEFT JOIN (SELECT * FROM ds13f_signature QUALIFY row_number() OVER (PARTITION BY trim(ACCESSION_NUMBER) ORDER BY 1) = 1) g
      ON trim(g.ACCESSION_NUMBER) = trim(s.ACCESSION_NUMBER)
    WHERE ${cikSql('s.CIK')} IS NOT NULL AND coalesce(${dmySql('s.PERIODOFREPORT')}, ${dmySql('c.REPORTCALENDARORQUARTER')}) IS NOT NULL
      AND trim(s.ACCESSION_NUMBER) NOT IN (SELECT accession_number FROM raw13f_filing)`);

  // line_no holds INFOTABLE_SK (file order) until lines.ts turns it into the position inside the filing's table.
  await loadTsv(
    ctx,
    members.get('INFOTABLE.TSV')!,
    (rel) => `
    INSERT INTO raw13f_info
    SELECT trim(ACCESSION_NUMBER), TRY_CAST(INFOTABLE_SK AS BIGINT),
           ${textSql('NAMEOFISSUER')}, ${textSql('TITLEOFCLASS')}, nullif(trim(CUSIP), ''), ${textSql('FIGI')},
           ${numSql('VALUE')}, ${numSql('SSHPRNAMT')}, upper(${textSql('SSHPRNAMTTYPE')}), ${textSql('PUTCALL')},
           upper(${textSql('INVESTMENTDISCRETION')}), ${textSql('OTHERMANAGER')},
           ${numSql('VOTING_AUTH_SOLE', 'BIGINT')}, ${numSql('VOTING_AUTH_SHARED', 'BIGINT')}, ${numSql('VOTING_AUTH_NONE', 'BIGINT')}
    FROM ${rel}`,
  );
}
