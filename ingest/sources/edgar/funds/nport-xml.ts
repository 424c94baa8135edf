import { cleanText, normalizeAccession, padCik, toBool, toIsoDate, toNumber } from '../../common/normalize.ts';
import { at, children, streamXml, textAt, type XmlNode } from '../../common/xml-tree.ts';
import { extractXmlDocuments, isSubmissionContainer, readSubmissionHeader } from '../sgml.ts';

/**
 * An NPORT-P `primary_doc.xml` (bare or inside a submission container). Positions (`invstOrSec`) are emitted
 * one at a time and dropped, so large fund reports stream. `genInfo` precedes the positions in the schema,
 * so the registrant/series context is known when the first position closes.
 */
export interface NportHolding {
  holding_id: string;
  issuer_name: string | null;
  issuer_lei: string | null;
  security_title: string | null;
  cusip: string | null;
  isin: string | null;
  ticker: string | null;
  balance: number | null;
  units: string | null;
  currency: string | null;
  exchange_rate: number | null;
  value_usd: number | null;
  pct_of_net_assets: number | null;
  payoff_profile: string | null;
  asset_category: string | null;
  issuer_category: string | null;
  inv_country: string | null;
  is_restricted: boolean | null;
  fair_value_level: string | null;
}

export interface NportContext {
  accession_number: string | null;
  submission_type: string | null;
  filing_date: string | null;
  registrant_cik: string | null;
  registrant_name: string | null;
  series_id: string | null;
  fund_name: string | null;
  report_date: string | null;
  report_period_end: string | null;
  total_assets: number | null;
  net_assets: number | null;
}

/** `N/A`, blanks and all-zero CUSIPs mean "none". */
function cleanCusip(raw: string | null): string | null {
  const s = (raw ?? '').trim().toUpperCase();
  if (!s || s === 'N/A' || /^0+$/.test(s)) return null;
  return s;
}

function holdingOf(n: XmlNode, ordinal: number): NportHolding {
  const ids = at(n, 'identifiers');
  const curCond = at(n, 'currencyConditional');
  const assetCond = at(n, 'assetConditional');
  const issuerCond = at(n, 'issuerConditional');
  const lei = cleanText(textAt(n, 'lei'));
  return {
    holding_id: String(ordinal),
    issuer_name: cleanText(textAt(n, 'name')),
    issuer_lei: lei && lei.toUpperCase() !== 'N/A' ? lei : null,
    security_title: cleanText(textAt(n, 'title')),
    cusip: cleanCusip(textAt(n, 'cusip')),
    isin: cleanText(at(ids, 'isin')?.attrs.value) ?? null,
    ticker: cleanText(at(ids, 'ticker')?.attrs.value) ?? null,
    balance: toNumber(textAt(n, 'balance')),
    units: cleanText(textAt(n, 'units')),
    currency: cleanText(textAt(n, 'curCd')) ?? cleanText(curCond?.attrs.curCd),
    exchange_rate: toNumber(curCond?.attrs.exchangeRt),
    value_usd: toNumber(textAt(n, 'valUSD')),
    pct_of_net_assets: toNumber(textAt(n, 'pctVal')),
    payoff_profile: cleanText(textAt(n, 'payoffProfile')),
    asset_category: cleanText(textAt(n, 'assetCat')) ?? cleanText(assetCond?.attrs.assetCat),
    issuer_category: cleanText(textAt(n, 'issuerCat')) ?? cleanText(issuerCond?.attrs.issuerCat),
    inv_country: cleanText(textAt(n, 'invCountry')),
    is_restricted: toBool(textAt(n, 'isRestrictedSec')),
    fair_value_level: cleanText(textAt(n, 'fairValLevel')),
  };
}

function contextOf(root: XmlNode, hdr: Partial<NportContext>): NportContext {
  const sub = children(root, 'edgarSubmission')[0] ?? root;
  const gen = at(sub, 'formData/genInfo');
  const fund = at(sub, 'formData/fundInfo');
  return {
    accession_number: hdr.accession_number ?? null,
    filing_date: hdr.filing_date ?? null,
    submission_type: cleanText(textAt(sub, 'headerData/submissionType')) ?? hdr.submission_type ?? null,
    registrant_cik: padCik(textAt(gen, 'regCik')) ?? padCik(textAt(sub, 'headerData/filerInfo/filer/issuerCredentials/cik')),
    registrant_name: cleanText(textAt(gen, 'regName')),
    series_id: cleanText(textAt(gen, 'seriesId')) ?? cleanText(textAt(sub, 'headerData/filerInfo/seriesClassInfo/seriesId')),
    fund_name: cleanText(textAt(gen, 'seriesName')),
    report_date: toIsoDate(textAt(gen, 'repPdDate')),
    report_period_end: toIsoDate(textAt(gen, 'repPdEnd')),
    total_assets: toNumber(textAt(fund, 'totAssets')),
    net_assets: toNumber(textAt(fund, 'netAssets')),
  };
}

export async function parseNportReport(
  text: string,
  onHolding: (h: NportHolding, ctx: NportContext) => void | Promise<void>,
  hints: { accession?: string | null } = {},
): Promise<NportContext> {
  let xml = text;
  const hdr: Partial<NportContext> = { accession_number: hints.accession ? normalizeAccession(hints.accession) : null };
  if (isSubmissionContainer(text)) {
    const h = readSubmissionHeader(text);
    hdr.accession_number ??= h.accession;
    hdr.filing_date = h.filedDate;
    hdr.submission_type = h.formType;
    xml = extractXmlDocuments(text).find((d) => /<(?:\w+:)?edgarSubmission[\s>]/.test(d.xml))?.xml ?? '';
  }
  let ordinal = 0;
  let ctx: NportContext | null = null;
  const root = await streamXml(xml, new Set(['invstOrSec']), async (node, _path, partial) => {
    ctx ??= contextOf(partial, hdr);
    await onHolding(holdingOf(node, ++ordinal), ctx);
  });
  return ctx ?? contextOf(root, hdr);
}
