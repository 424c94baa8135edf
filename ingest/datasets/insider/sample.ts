import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SampleOptions } from '../../pipeline/contract.ts';
import { mulberry32, pick } from '../../samples/random.ts';

/**
 * A demo quarter of the Insider Transactions data set in its published layout (tab-separated members with the
 * real headers, `DD-MON-YYYY` dates, `*_FN` footnote ids), deterministic from the seed.
 */

const MON = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
function ddMon(d: Date): string {
  return `${String(d.getUTCDate()).padStart(2, '0')}-${MON[d.getUTCMonth()]}-${d.getUTCFullYear()}`;
}

const ISSUERS = [
  ['0000320193', 'Apple Inc.', 'AAPL'],
  ['0001318605', 'Tesla, Inc.', 'TSLA'],
  ['0001640147', 'Snowflake Inc.', 'SNOW'],
  ['0000007536', 'ARROW ELECTRONICS, INC.', 'ARW'],
  ['0001617553', 'ZIPRECRUITER, INC.', 'ZIP'],
  ['0000933972', '374Water Inc.', 'SCWO'],
];
const PEOPLE = ['Rivera Ana', 'Chen Wei', 'Okafor Chidi', 'Larsen Ingrid', 'Patel Ravi', 'Dubois Claire', 'Nakamura Ken', 'Silva Joao'];
const TITLES = ['Chief Executive Officer', 'Chief Financial Officer', 'SVP, General Counsel', 'COO', null];

const HEAD = {
  SUBMISSION:
    'ACCESSION_NUMBER\tFILING_DATE\tPERIOD_OF_REPORT\tDATE_OF_ORIG_SUB\tNO_SECURITIES_OWNED\tNOT_SUBJECT_SEC16\tFORM3_HOLDINGS_REPORTED\tFORM4_TRANS_REPORTED\tDOCUMENT_TYPE\tISSUERCIK\tISSUERNAME\tISSUERTRADINGSYMBOL\tREMARKS\tAFF10B5ONE',
  REPORTINGOWNER:
    'ACCESSION_NUMBER\tRPTOWNERCIK\tRPTOWNERNAME\tRPTOWNER_RELATIONSHIP\tRPTOWNER_TITLE\tRPTOWNER_TXT\tRPTOWNER_STREET1\tRPTOWNER_STREET2\tRPTOWNER_CITY\tRPTOWNER_STATE\tRPTOWNER_ZIPCODE\tRPTOWNER_STATE_DESC\tFILE_NUMBER',
  NONDERIV_TRANS:
    'ACCESSION_NUMBER\tNONDERIV_TRANS_SK\tSECURITY_TITLE\tSECURITY_TITLE_FN\tTRANS_DATE\tTRANS_DATE_FN\tDEEMED_EXECUTION_DATE\tDEEMED_EXECUTION_DATE_FN\tTRANS_FORM_TYPE\tTRANS_CODE\tEQUITY_SWAP_INVOLVED\tEQUITY_SWAP_TRANS_CD_FN\tTRANS_TIMELINESS\tTRANS_TIMELINESS_FN\tTRANS_SHARES\tTRANS_SHARES_FN\tTRANS_PRICEPERSHARE\tTRANS_PRICEPERSHARE_FN\tTRANS_ACQUIRED_DISP_CD\tTRANS_ACQUIRED_DISP_CD_FN\tSHRS_OWND_FOLWNG_TRANS\tSHRS_OWND_FOLWNG_TRANS_FN\tVALU_OWND_FOLWNG_TRANS\tVALU_OWND_FOLWNG_TRANS_FN\tDIRECT_INDIRECT_OWNERSHIP\tDIRECT_INDIRECT_OWNERSHIP_FN\tNATURE_OF_OWNERSHIP\tNATURE_OF_OWNERSHIP_FN',
  NONDERIV_HOLDING:
    'ACCESSION_NUMBER\tNONDERIV_HOLDING_SK\tSECURITY_TITLE\tSECURITY_TITLE_FN\tTRANS_FORM_TYPE\tTRANS_FORM_TYPE_FN\tSHRS_OWND_FOLWNG_TRANS\tSHRS_OWND_FOLWNG_TRANS_FN\tVALU_OWND_FOLWNG_TRANS\tVALU_OWND_FOLWNG_TRANS_FN\tDIRECT_INDIRECT_OWNERSHIP\tDIRECT_INDIRECT_OWNERSHIP_FN\tNATURE_OF_OWNERSHIP\tNATURE_OF_OWNERSHIP_FN',
  DERIV_TRANS:
    'ACCESSION_NUMBER\tDERIV_TRANS_SK\tSECURITY_TITLE\tSECURITY_TITLE_FN\tCONV_EXERCISE_PRICE\tCONV_EXERCISE_PRICE_FN\tTRANS_DATE\tTRANS_DATE_FN\tDEEMED_EXECUTION_DATE\tDEEMED_EXECUTION_DATE_FN\tTRANS_FORM_TYPE\tTRANS_CODE\tEQUITY_SWAP_INVOLVED\tEQUITY_SWAP_TRANS_CD_FN\tTRANS_TIMELINESS\tTRANS_TIMELINESS_FN\tTRANS_SHARES\tTRANS_SHARES_FN\tTRANS_TOTAL_VALUE\tTRANS_TOTAL_VALUE_FN\tTRANS_PRICEPERSHARE\tTRANS_PRICEPERSHARE_FN\tTRANS_ACQUIRED_DISP_CD\tTRANS_ACQUIRED_DISP_CD_FN\tEXCERCISE_DATE\tEXCERCISE_DATE_FN\tEXPIRATION_DATE\tEXPIRATION_DATE_FN\tUNDLYNG_SEC_TITLE\tUNDLYNG_SEC_TITLE_FN\tUNDLYNG_SEC_SHARES\tUNDLYNG_SEC_SHARES_FN\tUNDLYNG_SEC_VALUE\tUNDLYNG_SEC_VALUE_FN\tSHRS_OWND_FOLWNG_TRANS\tSHRS_OWND_FOLWNG_TRANS_FN\tVALU_OWND_FOLWNG_TRANS\tVALU_OWND_FOLWNG_TRANS_FN\tDIRECT_INDIRECT_OWNERSHIP\tDIRECT_INDIRECT_OWNERSHIP_FN\tNATURE_OF_OWNERSHIP\tNATURE_OF_OWNERSHIP_FN',
  DERIV_HOLDING:
    'ACCESSION_NUMBER\tDERIV_HOLDING_SK\tSECURITY_TITLE\tSECURITY_TITLE_FN\tCONV_EXERCISE_PRICE\tCONV_EXERCISE_PRICE_FN\tTRANS_FORM_TYPE\tTRANS_FORM_TYPE_FN\tEXERCISE_DATE\tEXERCISE_DATE_FN\tEXPIRATION_DATE\tEXPIRATION_DATE_FN\tUNDLYNG_SEC_TITLE\tUNDLYNG_SEC_TITLE_FN\tUNDLYNG_SEC_SHARES\tUNDLYNG_SEC_SHARES_FN\tUNDLYNG_SEC_VALUE\tUNDLYNG_SEC_VALUE_FN\tSHRS_OWND_FOLWNG_TRANS\tSHRS_OWND_FOLWNG_TRANS_FN\tVALU_OWND_FOLWNG_TRANS\tVALU_OWND_FOLWNG_TRANS_FN\tDIRECT_INDIRECT_OWNERSHIP\tDIRECT_INDIRECT_OWNERSHIP_FN\tNATURE_OF_OWNERSHIP\tNATURE_OF_OWNERSHIP_FN',
  FOOTNOTES: 'ACCESSION_NUMBER\tFOOTNOTE_ID\tFOOTNOTE_TXT',
  OWNER_SIGNATURE: 'ACCESSION_NUMBER\tOWNERSIGNATURENAME\tOWNERSIGNATUREDATE',
};

export async function writeInsiderSample(dir: string, opts: SampleOptions): Promise<void> {
  const rnd = mulberry32(opts.seed);
  const out: Record<keyof typeof HEAD, string[]> = {
    SUBMISSION: [],
    REPORTINGOWNER: [],
    NONDERIV_TRANS: [],
    NONDERIV_HOLDING: [],
    DERIV_TRANS: [],
    DERIV_HOLDING: [],
    FOOTNOTES: [],
    OWNER_SIGNATURE: [],
  };
  const filings = Math.max(1, Math.round(60 * opts.scale));
  let sk = 1000000;
  for (let i = 0; i < filings; i++) {
    const acc = `0001${String(100000 + ((opts.seed * 7919 + i * 104729) % 899999)).padStart(6, '0')}-24-${String(i + 1).padStart(6, '0')}`;
    const [cik, name, ticker] = pick(rnd, ISSUERS);
    const filed = new Date(Date.UTC(2024, 6 + Math.floor(rnd() * 3), 1 + Math.floor(rnd() * 28)));
    const period = new Date(filed.getTime() - 2 * 86400000);
    const amended = rnd() < 0.08;
    const person = pick(rnd, PEOPLE);
    const title = pick(rnd, TITLES);
    const isDirector = title === null;
    const plan = rnd() < 0.4;
    out.SUBMISSION.push(
      [acc, ddMon(filed), ddMon(period), amended ? ddMon(period) : '', '', '0', '', '', amended ? '4/A' : '4', cik, name, ticker, '', plan ? '1' : '0'].join(
        '\t',
      ),
    );
    out.REPORTINGOWNER.push(
      [
        acc,
        String(1900000 + Math.floor(rnd() * 99999)).padStart(10, '0'),
        person,
        isDirector ? 'Director' : 'Officer',
        title ?? '',
        '',
        '1 MAIN STREET',
        '',
        'SAN JOSE',
        'CA',
        '95113',
        '',
        `001-3${String(i).padStart(4, '0')}`,
      ].join('\t'),
    );
    let owned = Math.round(20000 + rnd() * 500000);
    const code = pick(rnd, ['S', 'S', 'P', 'M', 'A', 'F', 'G']);
    const trades = 1 + Math.floor(rnd() * 3);
    for (let t = 0; t < trades; t++) {
      const shares = Math.round(100 + rnd() * 20000);
      const acquired = code === 'P' || code === 'M' || code === 'A';
      owned += acquired ? shares : -Math.min(shares, owned);
      const price = code === 'A' || code === 'G' ? '0.0' : (20 + rnd() * 300).toFixed(4);
      const priceFn = code === 'S' ? 'F1' : '';
      out.NONDERIV_TRANS.push(
        [
          acc,
          String(++sk),
          'Common Stock',
          '',
          ddMon(period),
          '',
          '',
          '',
          '4',
          code,
          '0',
          '',
          '',
          '',
          `${shares}.0`,
          '',
          price,
          priceFn,
          acquired ? 'A' : 'D',
          '',
          `${owned}.0`,
          '',
          '',
          '',
          'D',
          '',
          '',
          '',
        ].join('\t'),
      );
    }
    if (code === 'S')
      out.FOOTNOTES.push(
        [
          acc,
          'F1',
          'The price reported is a weighted average price. These shares were sold in multiple transactions at prices ranging from $1.00 to $2.00, inclusive.',
        ].join('\t'),
      );
    if (code === 'M') {
      const n = Math.round(1000 + rnd() * 5000);
      out.DERIV_TRANS.push(
        [
          acc,
          String(++sk),
          'Stock Option (Right to Buy)',
          '',
          (5 + rnd() * 50).toFixed(2),
          '',
          ddMon(period),
          '',
          '',
          '',
          '4',
          'M',
          '0',
          '',
          '',
          '',
          `${n}.0`,
          '',
          '',
          '',
          '0.0',
          '',
          'D',
          '',
          '',
          'F2',
          ddMon(new Date(Date.UTC(2031, 1, 1))),
          '',
          'Common Stock',
          '',
          `${n}.0`,
          '',
          '',
          '',
          '0.0',
          '',
          '',
          '',
          'D',
          '',
          '',
          '',
        ].join('\t'),
      );
      out.FOOTNOTES.push([acc, 'F2', 'The option is fully vested.'].join('\t'));
    }
    if (rnd() < 0.3)
      out.NONDERIV_HOLDING.push(
        [acc, String(++sk), 'Common Stock', '', '', '', `${Math.round(rnd() * 90000)}.0`, '', '', '', 'I', '', 'By Trust', ''].join('\t'),
      );
    out.OWNER_SIGNATURE.push([acc, `/s/ ${person}`, ddMon(filed)].join('\t'));
  }
  const folder = join(dir, 'insider', '2024q3_form345');
  await mkdir(folder, { recursive: true });
  for (const [member, lines] of Object.entries(out)) {
    await writeFile(join(folder, `${member}.tsv`), `${[HEAD[member as keyof typeof HEAD], ...lines].join('\n')}\n`);
  }
}
