import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Rng } from '../../samples/random.ts';
import { writeZip } from '../../sources/common/zip.ts';
import type { SampleOptions } from '../../sources/common/context.ts';
import { dmy } from '../../samples/securities.ts';

/**
 * N-CEN filings as the dissemination full-submission `.txt` (SGML header + primary_doc.xml), with the real
 * element names: registrant-level auditor and underwriter, per-series advisers, sub-advisers, custodians,
 * transfer agents, administrators and pricing services, affiliated and not.
 */
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

function provider(tag: string, name: string, extra: Record<string, string>, affiliated?: boolean, affTag?: string): string {
  const inner = Object.entries(extra)
    .map(([k, v]) => `<${k}>${esc(v)}</${k}>`)
    .join('');
  const aff =
    affiliated === undefined
      ? ''
      : `<${affTag ?? `is${tag[0].toUpperCase()}${tag.slice(1)}Affiliated`}>${affiliated ? 'Y' : 'N'}` +
        `</${affTag ?? `is${tag[0].toUpperCase()}${tag.slice(1)}Affiliated`}>`;
  return `<${tag}><${tag}Name>${esc(name)}</${tag}Name>${inner}<${tag}StateCountry ${tag}State="US-NY" ${tag}Country="US"/>${aff}</${tag}>`;
}

export async function writeNcenSample(dir: string, opts: SampleOptions): Promise<void> {
  const rng = new Rng(opts.seed + 202);
  await mkdir(dir, { recursive: true });
  const filers = Math.max(3, Math.round(12 * opts.scale));
  for (let i = 0; i < filers; i++) {
    const cik = String(900100 + i * 11).padStart(10, '0');
    const acc = `0001410368-25-${String(10000 + i).padStart(6, '0')}`;
    const trust = `${rng.pick(['Granite', 'Harbor', 'Summit', 'Orchard'])} Investment Trust ${i + 1}`;
    const adviser = `${trust.split(' ')[0]} Capital Management LLC`;
    const series = Array.from({ length: rng.int(1, 3) }, (_, s) => {
      const id = `S${String(20000 + i * 10 + s).padStart(9, '0')}`;
      return (
        `<managementInvestmentQuestion><mgmtInvFundName>${trust.split(' ')[0]} Fund ${s + 1}</mgmtInvFundName><mgmtInvSeriesId>${id}</mgmtInvSeriesId>` +
        '<investmentAdvisers>' +
        provider('investmentAdviser', adviser, {
          investmentAdviserFileNo: `801-${70000 + i}`,
          investmentAdviserCrdNo: String(150000 + i),
          investmentAdviserLei: `5493${String(i).padStart(16, '0')}`,
        }) +
        '</investmentAdvisers>' +
        (rng.chance(0.5)
          ? '<subAdvisers>' +
            provider('subAdviser', 'Northstar Asset Advisors LP', { subAdviserFileNo: '801-88123' }, false, 'isSubAdviserAffiliated') +
            '</subAdvisers>'
          : '') +
        '<transferAgents>' +
        provider('transferAgent', 'Orchard Shareholder Services Inc', { transferAgentFileNo: '084-06001' }, rng.chance(0.3)) +
        '</transferAgents>' +
        '<custodians>' +
        provider('custodian', rng.pick(['Meridian Trust Company', 'Tidewater Bank NA']), { custodianLei: '571474TGEMMWANRLN572' }, false) +
        '</custodians>' +
        `<admins>${provider('admin', `${trust.split(' ')[0]} Fund Services LLC`, {}, true)}</admins>` +
        `<pricingServices>${provider('pricingService', 'Lumen Pricing Data Inc', {}, false)}</pricingServices>` +
        `</managementInvestmentQuestion>`
      );
    }).join('');
    const xml =
      `<?xml version="1.0" encoding="UTF-8"?><edgarSubmission xmlns="http://www.sec.gov/edgar/ncen" xmlns:com="http://www.sec.gov/edgar/common">` +
      '<headerData><submissionType>N-CEN</submissionType><filerInfo><filer><issuerCredentials>' +
      `<cik>${cik}</cik><ccc>XXXXXXXX</ccc></issuerCredentials></filer></filerInfo></headerData>` +
      `<formData><generalInfo><reportEndingPeriod>2024-12-31</reportEndingPeriod></generalInfo>` +
      `<registrantInfo><registrantFullName>${esc(trust)}</registrantFullName>` +
      `<investmentCompFileNo>811-${30000 + i}</investmentCompFileNo><registrantCik>${cik}</registrantCik>` +
      '<publicAccountants>' +
      provider('publicAccountant', 'Willow & Pine LLP', { pcaobNumber: '238' }, false, 'isPublicAccountantAffiliated') +
      '</publicAccountants>' +
      '<principalUnderwriters>' +
      provider(
        'principalUnderwriter',
        `${trust.split(' ')[0]} Distributors LLC`,
        { principalUnderwriterFileNumber: '8-12345', principalUnderwriterCrdNumber: '7654' },
        true,
        'isPrincipalUnderwriterAffiliatedWithRegistrant',
      ) +
      '</principalUnderwriters>' +
      `</registrantInfo><managementInvestmentQuestionSeriesInfo>${series}</managementInvestmentQuestionSeriesInfo></formData></edgarSubmission>`;
    const txt =
      `<SEC-DOCUMENT>${acc}.txt : 20250310\n<SEC-HEADER>${acc}.hdr.sgml : 20250310\n` +
      `<ACCEPTANCE-DATETIME>20250310120000\nACCESSION NUMBER:\t\t${acc}\n` +
      'CONFORMED SUBMISSION TYPE:\tN-CEN\nPUBLIC DOCUMENT COUNT:\t\t1\n' +
      'CONFORMED PERIOD OF REPORT:\t20241231\nFILED AS OF DATE:\t\t20250310\n\nFILER:\n\n' +
      `\tCOMPANY DATA:\t\n\t\tCOMPANY CONFORMED NAME:\t\t\t${trust.toUpperCase()}\n` +
      `\t\tCENTRAL INDEX KEY:\t\t\t${cik}\n</SEC-HEADER>\n<DOCUMENT>\n<TYPE>N-CEN\n<SEQUENCE>1\n` +
      `<FILENAME>primary_doc.xml\n<TEXT>\n<XML>\n${xml}\n</XML>\n</TEXT>\n</DOCUMENT>\n</SEC-DOCUMENT>\n`;
    await writeFile(join(dir, `${acc}.txt`), txt);
  }
  await writeNcenDatasetSample(dir, opts);
}

/** Headers of the N-CEN members the loader reads (docs/formats/07-nport-ncen.md); unlisted trailing columns left out. */
const DATASET_HEADERS: Record<string, string[]> = {
  SUBMISSION: [
    'ACCESSION_NUMBER',
    'SUBMISSION_TYPE',
    'CIK',
    'FILING_DATE',
    'REPORT_ENDING_PERIOD',
    'IS_REPORT_PERIOD_LT_12MONTH',
    'FILE_NUM',
    'REGISTRANT_SIGNED_NAME',
    'DATE_SIGNED',
    'SIGNATURE',
    'TITLE',
    'IS_LEGAL_PROCEEDINGS',
  ],
  REGISTRANT: ['ACCESSION_NUMBER', 'REGISTRANT_NAME', 'FILE_NUM', 'CIK', 'LEI', 'INVESTMENT_COMPANY_TYPE', 'TOTAL_SERIES'],
  FUND_REPORTED_INFO: ['FUND_ID', 'ACCESSION_NUMBER', 'FUND_NAME', 'SERIES_ID', 'LEI', 'IS_ETF', 'IS_INDEX', 'IS_MONEY_MARKET'],
  ADVISER: [
    'FUND_ID',
    'ADVISER_TYPE',
    'ADVISER_NAME',
    'FILE_NUM',
    'CRD_NUM',
    'ADVISER_LEI',
    'STATE',
    'COUNTRY',
    'IS_AFFILIATED',
    'ADVISOR_START_DATE',
    'ADVISOR_TERMINATED_DATE',
  ],
  ADMIN: ['FUND_ID', 'ADMIN_NAME', 'ADMIN_LEI', 'STATE', 'COUNTRY', 'IS_AFFILIATED'],
  CUSTODIAN: ['FUND_ID', 'CUSTODIAN_NAME', 'CUSTODIAN_LEI', 'STATE', 'COUNTRY', 'IS_AFFILIATED', 'CUSTODY_TYPE'],
  TRANSFER_AGENT: ['FUND_ID', 'TRANSFERAGENT_NAME', 'TRANSFERAGENT_LEI', 'FILE_NUM', 'STATE', 'COUNTRY', 'IS_AFFILIATED'],
  PRICING_SERVICE: ['FUND_ID', 'PRICING_SERVICE_NAME', 'PRICING_SERVICE_LEI', 'STATE', 'COUNTRY', 'IS_AFFILIATED'],
  PRINCIPAL_UNDERWRITER: ['ACCESSION_NUMBER', 'UNDERWRITER_NAME', 'UNDERWRITER_LEI', 'CRD_NUM', 'FILE_NUM', 'IS_AFFILIATED'],
  PUBLIC_ACCOUNTANT: ['ACCESSION_NUMBER', 'PUB_ACCOUNTANT_NAME', 'PUB_ACCOUNTANT_LEI', 'PCAOB_NUM', 'STATE', 'COUNTRY'],
};

/**
 * The quarterly N-CEN data set (`2025q1_ncen.zip`): tab-separated members keyed by ACCESSION_NUMBER and
 * FUND_ID = `{accession}_{cik}_{series}`, dates `DD-MON-YYYY`, flags `Y`/`N`. Other registrants than the XML sample,
 * with sub-advisers (ADVISER_TYPE) and one filing without a REPORT_ENDING_PERIOD (reported as a bad row).
 */
export async function writeNcenDatasetSample(dir: string, opts: SampleOptions): Promise<void> {
  const rng = new Rng(opts.seed + 303);
  const rows: Record<string, (string | number | null)[][]> = Object.fromEntries(Object.keys(DATASET_HEADERS).map((k) => [k, []]));
  const filers = Math.max(3, Math.round(10 * opts.scale));
  for (let i = 0; i < filers; i++) {
    const cik = String(930200 + i * 13);
    const acc = `0001193125-25-${String(70000 + i).padStart(6, '0')}`;
    const trust = `${rng.pick(['Cedar', 'Beacon', 'Keystone', 'Atlas'])} Funds Trust ${i + 1}`;
    const stem = trust.split(' ')[0];
    rows.SUBMISSION.push([
      acc,
      i === filers - 1 ? 'N-CEN/A' : 'N-CEN',
      cik,
      dmy('2025-02-14'),
      i === 1 ? '' : dmy('2024-12-31'),
      'N',
      `811-${40000 + i}`,
      'Jane Roe',
      dmy('2025-02-13'),
      'Jane Roe',
      'Treasurer',
      'N',
    ]);
    rows.REGISTRANT.push([acc, trust, `811-${40000 + i}`, cik, `5493${String(900 + i).padStart(16, '0')}`, 'N-1A', 2]);
    rows.PRINCIPAL_UNDERWRITER.push([acc, `${stem} Distributors LLC`, null, String(8800 + i), `8-${60000 + i}`, 'Y']);
    rows.PUBLIC_ACCOUNTANT.push([acc, rng.pick(['Willow & Pine LLP', 'Harbor Audit LLP']), null, '238', 'US-MA', 'US']);
    for (let sIdx = 0; sIdx < 2; sIdx++) {
      const series = `S${String(30000 + i * 10 + sIdx).padStart(9, '0')}`;
      const fundId = `${acc}_${cik.padStart(10, '0')}_${series}`;
      rows.FUND_REPORTED_INFO.push([fundId, acc, `${stem} ${sIdx ? 'Bond' : 'Equity'} Fund`, series, null, 'N', sIdx ? 'N' : 'Y', 'N']);
      rows.ADVISER.push([fundId, 'Adviser', `${stem} Capital Management LLC`, `801-${71000 + i}`, String(160000 + i), null, 'US-NY', 'US', 'N', null, null]);
      if (sIdx === 1)
        rows.ADVISER.push([fundId, 'Sub-Adviser', 'Kestrel Fixed Income Partners LP', '801-99001', '170001', null, 'US-IL', 'US', 'N', null, null]);
      rows.ADMIN.push([fundId, `${stem} Fund Services LLC`, null, 'US-NY', 'US', 'Y']);
      rows.CUSTODIAN.push([
        fundId,
        rng.pick(['Meridian Trust Company', 'Tidewater Bank NA']),
        '571474TGEMMWANRLN572',
        'US-MA',
        'US',
        'N',
        'Bank - section 17(f)(1)',
      ]);
      rows.TRANSFER_AGENT.push([fundId, 'Orchard Shareholder Services Inc', null, '084-06001', 'US-MO', 'US', 'N']);
      rows.PRICING_SERVICE.push([fundId, 'Lumen Pricing Data Inc', null, 'US-NY', 'US', 'N']);
    }
  }
  const folder = '2025q1_ncen';
  await writeZip(
    join(dir, `${folder}.zip`),
    Object.entries(DATASET_HEADERS).map(([member, header]) => ({
      name: `${folder}/${member}.tsv`,
      data: Buffer.from(`${[header, ...rows[member]].map((r) => r.map((c) => (c == null ? '' : String(c))).join('\t')).join('\n')}\n`),
    })),
  );
}
