import { cleanText, normalizeAccession, padCik, toBool, toIsoDate } from '../../common/normalize.ts';
import { all, at, parseXml, textAt, type XmlNode } from '../../common/xml-tree.ts';
import { extractXmlDocuments, isSubmissionContainer, readSubmissionHeader } from '../sgml.ts';

/**
 * Service providers of an N-CEN `primary_doc.xml`. Each provider element names its fields after itself
 * (`custodianName`, `custodianLei`, `isCustodianAffiliated`, …), and a few deviate (`shareholderServiceAgentName`
 * under `shareholderServicingAgent`, `securitiesAgentName` under `securityLending`), so fields are found by
 * suffix rather than by a fixed list of names.
 */
export const PROVIDER_ROLES: Record<string, string> = {
  investmentAdviser: 'adviser',
  subAdviser: 'sub-adviser',
  admin: 'administrator',
  custodian: 'custodian',
  transferAgent: 'transfer agent',
  pricingService: 'pricing service',
  shareholderServicingAgent: 'shareholder servicing agent',
  securityLending: 'securities lending agent',
  brokerDealer: 'broker-dealer',
  broker: 'broker',
  principalUnderwriter: 'underwriter',
  publicAccountant: 'auditor',
};

export interface NcenProvider {
  provider_no: number;
  series_id: string | null;
  fund_name: string | null;
  role: string;
  provider_name: string;
  provider_cik: string | null;
  provider_lei: string | null;
  provider_file_number: string | null;
  provider_crd: string | null;
  state: string | null;
  country: string | null;
  is_affiliated: boolean | null;
}

export interface NcenReport {
  accession_number: string | null;
  filing_date: string | null;
  filer_cik: string | null;
  registrant_name: string | null;
  report_period_end: string | null;
  providers: NcenProvider[];
}

function field(n: XmlNode, suffix: RegExp): string | null {
  const c = n.children.find((x) => suffix.test(x.name));
  return c ? cleanText(c.text) : null;
}

/** `<custodianStateCountry custodianState="US-MA" custodianCountry="US"/>`: attribute names carry the role prefix. */
function attrLike(n: XmlNode | undefined, suffix: RegExp): string | null {
  if (!n) return null;
  const k = Object.keys(n.attrs).find((a) => suffix.test(a));
  return k ? cleanText(n.attrs[k]) : null;
}

function providerOf(n: XmlNode, role: string): Omit<NcenProvider, 'provider_no' | 'series_id' | 'fund_name'> | null {
  const name = field(n, /Name$/);
  if (!name) return null;
  const loc = n.children.find((x) => /StateCountry$/.test(x.name));
  const lei = field(n, /Lei$/);
  return {
    role,
    provider_name: name,
    provider_cik: padCik(field(n, /Cik$/)),
    provider_lei: lei && !/^n\/?a$/i.test(lei) ? lei : null,
    provider_file_number: field(n, /File(No|Number)$/),
    provider_crd: field(n, /Crd(No|Number)$/),
    state: attrLike(loc, /State$/),
    country: field(n, /Country$/) ?? attrLike(loc, /Country$/),
    is_affiliated: toBool(field(n, /^is\w*Affiliated/)),
  };
}

export async function parseNcenReport(text: string, hints: { accession?: string | null } = {}): Promise<NcenReport> {
  let xml = text;
  let accession = hints.accession ? normalizeAccession(hints.accession) : null;
  let filingDate: string | null = null;
  if (isSubmissionContainer(text)) {
    const h = readSubmissionHeader(text);
    accession ??= h.accession;
    filingDate = h.filedDate;
    xml = extractXmlDocuments(text).find((d) => /<(?:\w+:)?edgarSubmission[\s>]/.test(d.xml))?.xml ?? '';
  }
  const doc = parseXml(xml);
  const root = doc.children.find((c) => c.name === 'edgarSubmission') ?? null;
  const form = at(root, 'formData');
  const reg = at(form, 'registrantInfo');
  const out: NcenReport = {
    accession_number: accession,
    filing_date: filingDate,
    filer_cik: padCik(textAt(reg, 'registrantCik')) ?? padCik(textAt(root, 'headerData/filerInfo/filer/issuerCredentials/cik')),
    registrant_name: cleanText(textAt(reg, 'registrantFullName')),
    // Real filings carry it as an attribute of generalInfo; older drafts as a child element.
    report_period_end: toIsoDate(at(form, 'generalInfo')?.attrs.reportEndingPeriod ?? textAt(form, 'generalInfo/reportEndingPeriod')),
    providers: [],
  };
  const push = (p: ReturnType<typeof providerOf>, seriesId: string | null, fund: string | null) => {
    if (p) out.providers.push({ ...p, provider_no: out.providers.length + 1, series_id: seriesId, fund_name: fund });
  };
  for (const el of ['publicAccountant', 'principalUnderwriter']) {
    for (const n of all(reg, el)) push(providerOf(n, PROVIDER_ROLES[el]), null, null);
  }
  for (const fund of all(form, 'managementInvestmentQuestion')) {
    const seriesId = cleanText(textAt(fund, 'mgmtInvSeriesId'));
    const name = cleanText(textAt(fund, 'mgmtInvFundName'));
    for (const [el, role] of Object.entries(PROVIDER_ROLES)) {
      if (el === 'publicAccountant' || el === 'principalUnderwriter') continue;
      for (const n of all(fund, el)) push(providerOf(n, role), seriesId, name);
    }
  }
  return out;
}
