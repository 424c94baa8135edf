import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SampleOptions } from '../../sources/common/context.ts';
import { mulberry32, pick } from '../../samples/random.ts';
import { pad10, SAMPLE_PEOPLE, sampleIssuers } from '../../samples/universe.ts';

/**
 * A demo quarter of the Insider Transactions data set in its published layout (tab-separated members with the
 * real headers, `DD-MON-YYYY` dates, `*_FN` footnote ids), deterministic from the seed.
 */

const MON = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
function ddMon(d: Date): string {
  return `${String(d.getUTCDate()).padStart(2, '0')}-${MON[d.getUTCMonth()]}-${d.getUTCFullYear()}`;
}

const TITLES = ['Chief Executive Officer', 'Chief Financial Officer', 'SVP, General Counsel', 'COO', null];

const HEAD = {
  SUBMISSION: [
    'ACCESSION_NUMBER',
    'FILING_DATE',
    'PERIOD_OF_REPORT',
    'DATE_OF_ORIG_SUB',
    'NO_SECURITIES_OWNED',
    'NOT_SUBJECT_SEC16',
    'FORM3_HOLDINGS_REPORTED',
    'FORM4_TRANS_REPORTED',
    'DOCUMENT_TYPE',
    'ISSUERCIK',
    'ISSUERNAME',
    'ISSUERTRADINGSYMBOL',
    'REMARKS',
    'AFF10B5ONE',
  ].join('\t'),
  REPORTINGOWNER: [
    'ACCESSION_NUMBER',
    'RPTOWNERCIK',
    'RPTOWNERNAME',
    'RPTOWNER_RELATIONSHIP',
    'RPTOWNER_TITLE',
    'RPTOWNER_TXT',
    'RPTOWNER_STREET1',
    'RPTOWNER_STREET2',
    'RPTOWNER_CITY',
    'RPTOWNER_STATE',
    'RPTOWNER_ZIPCODE',
    'RPTOWNER_STATE_DESC',
    'FILE_NUMBER',
  ].join('\t'),
  NONDERIV_TRANS: [
    'ACCESSION_NUMBER',
    'NONDERIV_TRANS_SK',
    'SECURITY_TITLE',
    'SECURITY_TITLE_FN',
    'TRANS_DATE',
    'TRANS_DATE_FN',
    'DEEMED_EXECUTION_DATE',
    'DEEMED_EXECUTION_DATE_FN',
    'TRANS_FORM_TYPE',
    'TRANS_CODE',
    'EQUITY_SWAP_INVOLVED',
    'EQUITY_SWAP_TRANS_CD_FN',
    'TRANS_TIMELINESS',
    'TRANS_TIMELINESS_FN',
    'TRANS_SHARES',
    'TRANS_SHARES_FN',
    'TRANS_PRICEPERSHARE',
    'TRANS_PRICEPERSHARE_FN',
    'TRANS_ACQUIRED_DISP_CD',
    'TRANS_ACQUIRED_DISP_CD_FN',
    'SHRS_OWND_FOLWNG_TRANS',
    'SHRS_OWND_FOLWNG_TRANS_FN',
    'VALU_OWND_FOLWNG_TRANS',
    'VALU_OWND_FOLWNG_TRANS_FN',
    'DIRECT_INDIRECT_OWNERSHIP',
    'DIRECT_INDIRECT_OWNERSHIP_FN',
    'NATURE_OF_OWNERSHIP',
    'NATURE_OF_OWNERSHIP_FN',
  ].join('\t'),
  NONDERIV_HOLDING: [
    'ACCESSION_NUMBER',
    'NONDERIV_HOLDING_SK',
    'SECURITY_TITLE',
    'SECURITY_TITLE_FN',
    'TRANS_FORM_TYPE',
    'TRANS_FORM_TYPE_FN',
    'SHRS_OWND_FOLWNG_TRANS',
    'SHRS_OWND_FOLWNG_TRANS_FN',
    'VALU_OWND_FOLWNG_TRANS',
    'VALU_OWND_FOLWNG_TRANS_FN',
    'DIRECT_INDIRECT_OWNERSHIP',
    'DIRECT_INDIRECT_OWNERSHIP_FN',
    'NATURE_OF_OWNERSHIP',
    'NATURE_OF_OWNERSHIP_FN',
  ].join('\t'),
  DERIV_TRANS: [
    'ACCESSION_NUMBER',
    'DERIV_TRANS_SK',
    'SECURITY_TITLE',
    'SECURITY_TITLE_FN',
    'CONV_EXERCISE_PRICE',
    'CONV_EXERCISE_PRICE_FN',
    'TRANS_DATE',
    'TRANS_DATE_FN',
    'DEEMED_EXECUTION_DATE',
    'DEEMED_EXECUTION_DATE_FN',
    'TRANS_FORM_TYPE',
    'TRANS_CODE',
    'EQUITY_SWAP_INVOLVED',
    'EQUITY_SWAP_TRANS_CD_FN',
    'TRANS_TIMELINESS',
    'TRANS_TIMELINESS_FN',
    'TRANS_SHARES',
    'TRANS_SHARES_FN',
    'TRANS_TOTAL_VALUE',
    'TRANS_TOTAL_VALUE_FN',
    'TRANS_PRICEPERSHARE',
    'TRANS_PRICEPERSHARE_FN',
    'TRANS_ACQUIRED_DISP_CD',
    'TRANS_ACQUIRED_DISP_CD_FN',
    'EXCERCISE_DATE',
    'EXCERCISE_DATE_FN',
    'EXPIRATION_DATE',
    'EXPIRATION_DATE_FN',
    'UNDLYNG_SEC_TITLE',
    'UNDLYNG_SEC_TITLE_FN',
    'UNDLYNG_SEC_SHARES',
    'UNDLYNG_SEC_SHARES_FN',
    'UNDLYNG_SEC_VALUE',
    'UNDLYNG_SEC_VALUE_FN',
    'SHRS_OWND_FOLWNG_TRANS',
    'SHRS_OWND_FOLWNG_TRANS_FN',
    'VALU_OWND_FOLWNG_TRANS',
    'VALU_OWND_FOLWNG_TRANS_FN',
    'DIRECT_INDIRECT_OWNERSHIP',
    'DIRECT_INDIRECT_OWNERSHIP_FN',
    'NATURE_OF_OWNERSHIP',
    'NATURE_OF_OWNERSHIP_FN',
  ].join('\t'),
  DERIV_HOLDING: [
    'ACCESSION_NUMBER',
    'DERIV_HOLDING_SK',
    'SECURITY_TITLE',
    'SECURITY_TITLE_FN',
    'CONV_EXERCISE_PRICE',
    'CONV_EXERCISE_PRICE_FN',
    'TRANS_FORM_TYPE',
    'TRANS_FORM_TYPE_FN',
    'EXERCISE_DATE',
    'EXERCISE_DATE_FN',
    'EXPIRATION_DATE',
    'EXPIRATION_DATE_FN',
    'UNDLYNG_SEC_TITLE',
    'UNDLYNG_SEC_TITLE_FN',
    'UNDLYNG_SEC_SHARES',
    'UNDLYNG_SEC_SHARES_FN',
    'UNDLYNG_SEC_VALUE',
    'UNDLYNG_SEC_VALUE_FN',
    'SHRS_OWND_FOLWNG_TRANS',
    'SHRS_OWND_FOLWNG_TRANS_FN',
    'VALU_OWND_FOLWNG_TRANS',
    'VALU_OWND_FOLWNG_TRANS_FN',
    'DIRECT_INDIRECT_OWNERSHIP',
    'DIRECT_INDIRECT_OWNERSHIP_FN',
    'NATURE_OF_OWNERSHIP',
    'NATURE_OF_OWNERSHIP_FN',
  ].join('\t'),
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
  // Issuers: the universe's first six reporting companies, so every insider issuer is in the entity directory.
  const issuers = sampleIssuers(opts.seed)
    .slice(0, 6)
    .map((c) => [pad10(c.cik), c.name, c.ticker]);
  const filings = Math.max(1, Math.round(60 * opts.scale));
  let sk = 1000000;
  for (let i = 0; i < filings; i++) {
    const acc = `0001${String(100000 + ((opts.seed * 7919 + i * 104729) % 899999)).padStart(6, '0')}-24-${String(i + 1).padStart(6, '0')}`;
    const [cik, name, ticker] = pick(rnd, issuers);
    const filed = new Date(Date.UTC(2024, 6 + Math.floor(rnd() * 3), 1 + Math.floor(rnd() * 28)));
    const period = new Date(filed.getTime() - 2 * 86400000);
    const amended = rnd() < 0.08;
    const person = pick(rnd, SAMPLE_PEOPLE);
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
