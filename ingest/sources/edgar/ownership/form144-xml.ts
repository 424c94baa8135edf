import { cleanText, normalizeAccession, padCik, toBool, toIsoDate, toNumber } from '../../common/normalize.ts';
import { findXmlByRoot, isSubmissionContainer, readSubmissionHeader } from '../sgml.ts';
import { all, children, find, findText, parseXml, textOf } from '../../common/xml-tree.ts';
import { normalizeBrokerName } from './broker.ts';

/** Form 144 / 144/A notice XML (namespaced `edgarSubmission`, matched on local names). */

export interface Form144Line {
  class_of_securities: string | null;
  broker_name: string | null;
  broker_normalized_name: string | null;
  broker_street1: string | null;
  broker_street2: string | null;
  broker_city: string | null;
  broker_state: string | null;
  broker_zip: string | null;
  /** Units TO BE sold (proposed, not executed). */
  units_to_be_sold: number | null;
  aggregate_market_value: number | null;
  units_outstanding: number | null;
  approx_sale_date: string | null;
  exchange: string | null;
}

export interface Form144Notice {
  accession: string | null;
  filed_date: string | null;
  submission_type: string | null;
  is_amendment: boolean;
  filer_cik: string | null;
  issuer_cik: string | null;
  issuer_name: string | null;
  sec_file_number: string | null;
  person_name: string | null;
  relationships: string[];
  lines: Form144Line[];
  securities_to_be_sold: {
    class_of_securities: string | null;
    acquired_date: string | null;
    nature_of_acquisition: string | null;
    acquired_from: string | null;
    is_gift: boolean | null;
    amount: number | null;
    payment_date: string | null;
    nature_of_payment: string | null;
  }[];
  nothing_to_report_past_3_months: boolean | null;
  sold_past_3_months: {
    seller: string | null;
    class_of_securities: string | null;
    sale_date: string | null;
    amount: number | null;
    gross_proceeds: number | null;
  }[];
  remarks: string | null;
  notice_date: string | null;
  plan_adoption_dates: string[];
  /** noticeSignature/signature as typed (the signing date is `notice_date`). */
  signature: string | null;
}

export class Form144XmlError extends Error {}

/** Placeholder dates such as 01/02/1933 appear in plan adoption dates; a 10b5-1 plan cannot predate 2000. */
function plausibleDate(raw: string | null): string | null {
  const d = toIsoDate(raw);
  return d && d >= '2000-01-01' ? d : null;
}

export function parseForm144Xml(input: string, meta: { accession?: string } = {}): Form144Notice {
  const header = isSubmissionContainer(input) ? readSubmissionHeader(input) : null;
  const xml = findXmlByRoot(input, 'edgarSubmission');
  if (!xml) throw new Form144XmlError('no edgarSubmission XML in the input');
  const root = find(parseXml(xml), 'edgarSubmission');
  const fd = find(root, 'formData');
  const info = find(fd, 'issuerInfo');
  if (!root || !fd || !info || (!find(info, 'nameOfPersonForWhoseAccountTheSecuritiesAreToBeSold') && !find(fd, 'securitiesInformation'))) {
    throw new Form144XmlError('edgarSubmission without Form 144 issuerInfo/securitiesInformation');
  }
  const type = findText(root, 'headerData/submissionType')?.toUpperCase() ?? header?.formType ?? null;
  return {
    accession: normalizeAccession(meta.accession) ?? header?.accession ?? null,
    filed_date: header?.filedDate ?? null,
    submission_type: type,
    is_amendment: type?.endsWith('/A') ?? false,
    filer_cik: padCik(findText(root, 'headerData/filerInfo/filer/filerCredentials/cik')),
    issuer_cik: padCik(findText(info, 'issuerCik')),
    issuer_name: findText(info, 'issuerName'),
    sec_file_number: findText(info, 'secFileNumber'),
    person_name: findText(info, 'nameOfPersonForWhoseAccountTheSecuritiesAreToBeSold'),
    relationships: all(info, 'relationshipToIssuer')
      .map(textOf)
      .filter((x): x is string => !!x),
    lines: children(fd, 'securitiesInformation').map((s) => {
      const broker = findText(s, 'brokerOrMarketmakerDetails/name');
      return {
        class_of_securities: findText(s, 'securitiesClassTitle'),
        broker_name: broker,
        broker_normalized_name: normalizeBrokerName(broker),
        broker_street1: findText(s, 'brokerOrMarketmakerDetails/address/street1'),
        broker_street2: findText(s, 'brokerOrMarketmakerDetails/address/street2'),
        broker_city: findText(s, 'brokerOrMarketmakerDetails/address/city'),
        broker_state: findText(s, 'brokerOrMarketmakerDetails/address/stateOrCountry'),
        broker_zip: findText(s, 'brokerOrMarketmakerDetails/address/zipCode'),
        units_to_be_sold: toNumber(findText(s, 'noOfUnitsSold')),
        aggregate_market_value: toNumber(findText(s, 'aggregateMarketValue')),
        units_outstanding: toNumber(findText(s, 'noOfUnitsOutstanding')),
        approx_sale_date: toIsoDate(findText(s, 'approxSaleDate')),
        exchange: findText(s, 'securitiesExchangeName'),
      };
    }),
    securities_to_be_sold: children(fd, 'securitiesToBeSold').map((s) => ({
      class_of_securities: findText(s, 'securitiesClassTitle'),
      acquired_date: toIsoDate(findText(s, 'acquiredDate')),
      nature_of_acquisition: findText(s, 'natureOfAcquisitionTransaction'),
      acquired_from: findText(s, 'nameOfPersonfromWhomAcquired'),
      is_gift: toBool(findText(s, 'isGiftTransaction')),
      amount: toNumber(findText(s, 'amountOfSecuritiesAcquired')),
      payment_date: toIsoDate(findText(s, 'paymentDate')),
      nature_of_payment: findText(s, 'natureOfPayment'),
    })),
    nothing_to_report_past_3_months: toBool(findText(fd, 'nothingToReportFlagOnSecuritiesSoldInPast3Months')),
    sold_past_3_months: children(fd, 'securitiesSoldInPast3Months').map((s) => ({
      seller: findText(s, 'sellerDetails/name'),
      class_of_securities: findText(s, 'securitiesClassTitle'),
      sale_date: toIsoDate(findText(s, 'saleDate')),
      amount: toNumber(findText(s, 'amountOfSecuritiesSold')),
      gross_proceeds: toNumber(findText(s, 'grossProceeds')),
    })),
    remarks: cleanText(findText(fd, 'remarks')),
    notice_date: toIsoDate(findText(fd, 'noticeSignature/noticeDate')),
    plan_adoption_dates: all(find(fd, 'noticeSignature'), 'planAdoptionDate')
      .map((d) => plausibleDate(textOf(d)))
      .filter((x): x is string => !!x),
    signature: findText(fd, 'noticeSignature/signature'),
  };
}
