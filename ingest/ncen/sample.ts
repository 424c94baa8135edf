import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Rng } from '../adv-common/rng.ts';
import type { SampleOptions } from '../core/dataset.ts';

/**
 * N-CEN filings as the dissemination full-submission `.txt` (SGML header + primary_doc.xml), with the real
 * element names: registrant-level auditor and underwriter, per-series advisers, sub-advisers, custodians,
 * transfer agents, administrators and pricing services, affiliated and not.
 */
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

function provider(tag: string, name: string, extra: Record<string, string>, affiliated?: boolean, affTag?: string): string {
  const inner = Object.entries(extra).map(([k, v]) => `<${k}>${esc(v)}</${k}>`).join('');
  const aff = affiliated === undefined ? '' : `<${affTag ?? `is${tag[0].toUpperCase()}${tag.slice(1)}Affiliated`}>${affiliated ? 'Y' : 'N'}</${affTag ?? `is${tag[0].toUpperCase()}${tag.slice(1)}Affiliated`}>`;
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
      return `<managementInvestmentQuestion><mgmtInvFundName>${trust.split(' ')[0]} Fund ${s + 1}</mgmtInvFundName><mgmtInvSeriesId>${id}</mgmtInvSeriesId>` +
        `<investmentAdvisers>${provider('investmentAdviser', adviser, { investmentAdviserFileNo: `801-${70000 + i}`, investmentAdviserCrdNo: String(150000 + i), investmentAdviserLei: `5493${String(i).padStart(16, '0')}` })}</investmentAdvisers>` +
        (rng.chance(0.5) ? `<subAdvisers>${provider('subAdviser', 'Northstar Asset Advisors LP', { subAdviserFileNo: '801-88123' }, false, 'isSubAdviserAffiliated')}</subAdvisers>` : '') +
        `<transferAgents>${provider('transferAgent', 'Orchard Shareholder Services Inc', { transferAgentFileNo: '084-06001' }, rng.chance(0.3))}</transferAgents>` +
        `<custodians>${provider('custodian', rng.pick(['Meridian Trust Company', 'Tidewater Bank NA']), { custodianLei: '571474TGEMMWANRLN572' }, false)}</custodians>` +
        `<admins>${provider('admin', `${trust.split(' ')[0]} Fund Services LLC`, {}, true)}</admins>` +
        `<pricingServices>${provider('pricingService', 'Lumen Pricing Data Inc', {}, false)}</pricingServices>` +
        `</managementInvestmentQuestion>`;
    }).join('');
    const xml = `<?xml version="1.0" encoding="UTF-8"?><edgarSubmission xmlns="http://www.sec.gov/edgar/ncen" xmlns:com="http://www.sec.gov/edgar/common">` +
      `<headerData><submissionType>N-CEN</submissionType><filerInfo><filer><issuerCredentials><cik>${cik}</cik><ccc>XXXXXXXX</ccc></issuerCredentials></filer></filerInfo></headerData>` +
      `<formData><generalInfo><reportEndingPeriod>2024-12-31</reportEndingPeriod></generalInfo>` +
      `<registrantInfo><registrantFullName>${esc(trust)}</registrantFullName><investmentCompFileNo>811-${30000 + i}</investmentCompFileNo><registrantCik>${cik}</registrantCik>` +
      `<publicAccountants>${provider('publicAccountant', 'Willow & Pine LLP', { pcaobNumber: '238' }, false, 'isPublicAccountantAffiliated')}</publicAccountants>` +
      `<principalUnderwriters>${provider('principalUnderwriter', `${trust.split(' ')[0]} Distributors LLC`, { principalUnderwriterFileNumber: '8-12345', principalUnderwriterCrdNumber: '7654' }, true, 'isPrincipalUnderwriterAffiliatedWithRegistrant')}</principalUnderwriters>` +
      `</registrantInfo><managementInvestmentQuestionSeriesInfo>${series}</managementInvestmentQuestionSeriesInfo></formData></edgarSubmission>`;
    const txt = `<SEC-DOCUMENT>${acc}.txt : 20250310\n<SEC-HEADER>${acc}.hdr.sgml : 20250310\n<ACCEPTANCE-DATETIME>20250310120000\nACCESSION NUMBER:\t\t${acc}\nCONFORMED SUBMISSION TYPE:\tN-CEN\nPUBLIC DOCUMENT COUNT:\t\t1\nCONFORMED PERIOD OF REPORT:\t20241231\nFILED AS OF DATE:\t\t20250310\n\nFILER:\n\n\tCOMPANY DATA:\t\n\t\tCOMPANY CONFORMED NAME:\t\t\t${trust.toUpperCase()}\n\t\tCENTRAL INDEX KEY:\t\t\t${cik}\n</SEC-HEADER>\n<DOCUMENT>\n<TYPE>N-CEN\n<SEQUENCE>1\n<FILENAME>primary_doc.xml\n<TEXT>\n<XML>\n${xml}\n</XML>\n</TEXT>\n</DOCUMENT>\n</SEC-DOCUMENT>\n`;
    await writeFile(join(dir, `${acc}.txt`), txt);
  }
}
