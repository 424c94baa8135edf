import { cleanText, normalizeAccession, padCik, toBool, toInt, toIsoDate } from '../../common/normalize.ts';
import { findXmlByRoot, isSubmissionContainer, readSubmissionHeader } from '../sgml.ts';
import { all, children, find, findText, parseXml, textOf, type XmlNode } from '../../common/xml-tree.ts';

/** Form D / D/A (`edgarSubmission`, no namespace) into one offering record with its people. */

export interface FormDIssuer {
  is_primary: boolean;
  cik: string | null;
  name: string | null;
  street1: string | null;
  street2: string | null;
  city: string | null;
  state_or_country: string | null;
  state_or_country_description: string | null;
  zip: string | null;
  phone: string | null;
  jurisdiction_of_inc: string | null;
  entity_type: string | null;
  year_of_inc: string | null;
  /** overFiveYears | withinFiveYears | yetToBeFormed */
  year_of_inc_choice: string | null;
}

export interface FormDRelatedPerson {
  first_name: string | null;
  middle_name: string | null;
  last_name: string | null;
  city: string | null;
  state_or_country: string | null;
  relationships: string[];
  clarification: string | null;
}

export interface FormDRecipient {
  name: string | null;
  crd: string | null;
  associated_bd_name: string | null;
  associated_bd_crd: string | null;
  city: string | null;
  state_or_country: string | null;
  states_of_solicitation: string[];
  foreign_solicitation: boolean | null;
}

/** A dollar amount field: whole USD, or the literal `Indefinite` kept apart. */
export interface Amount {
  usd: number | null;
  indefinite: boolean;
}

export interface FormDFiling {
  accession: string | null;
  filed_date: string | null;
  schema_version: string | null;
  submission_type: string | null;
  is_amendment: boolean;
  previous_accession: string | null;
  issuers: FormDIssuer[];
  related_persons: FormDRelatedPerson[];
  recipients: FormDRecipient[];
  industry_group: string | null;
  investment_fund_type: string | null;
  is_40_act: boolean | null;
  revenue_range: string | null;
  nav_range: string | null;
  federal_exemptions: string[];
  date_of_first_sale: string | null;
  first_sale_yet_to_occur: boolean | null;
  more_than_one_year: boolean | null;
  security_types: string[];
  other_security_description: string | null;
  is_business_combination: boolean | null;
  minimum_investment: number | null;
  total_offering: Amount;
  total_sold: Amount;
  total_remaining: Amount;
  has_non_accredited_investors: boolean | null;
  num_non_accredited_investors: number | null;
  total_investors: number | null;
  sales_commissions_usd: number | null;
  finders_fees_usd: number | null;
  gross_proceeds_used_usd: number | null;
  /** signatureBlock/signature: `signature_name` is the signature as typed ("/s/ …"), `name_of_signer` the printed name. */
  signatures: { issuer_name: string | null; signature_name: string | null; name_of_signer: string | null; title: string | null; date: string | null }[];
}

export class FormDXmlError extends Error {}

function amount(raw: string | null): Amount {
  if (raw && /^indefinite$/i.test(raw.trim())) return { usd: null, indefinite: true };
  return { usd: toInt(raw), indefinite: false };
}

function issuerOf(node: XmlNode, primary: boolean): FormDIssuer {
  const yoi = find(node, 'yearOfInc');
  const choice = yoi?.children.find((c) => ['overFiveYears', 'withinFiveYears', 'yetToBeFormed'].includes(c.name) && toBool(textOf(c)));
  return {
    is_primary: primary,
    cik: padCik(findText(node, 'cik')),
    name: findText(node, 'entityName'),
    street1: findText(node, 'issuerAddress/street1'),
    street2: findText(node, 'issuerAddress/street2'),
    city: findText(node, 'issuerAddress/city'),
    state_or_country: findText(node, 'issuerAddress/stateOrCountry'),
    state_or_country_description: findText(node, 'issuerAddress/stateOrCountryDescription'),
    zip: findText(node, 'issuerAddress/zipCode'),
    phone: findText(node, 'issuerPhoneNumber'),
    jurisdiction_of_inc: findText(node, 'jurisdictionOfInc'),
    entity_type: findText(node, 'entityType'),
    year_of_inc: findText(yoi, 'value'),
    year_of_inc_choice: choice?.name ?? null,
  };
}

const SECURITY_TYPES: Record<string, string> = {
  isEquityType: 'Equity',
  isDebtType: 'Debt',
  isOptionToAcquireType: 'Option to acquire',
  isSecurityToBeAcquiredType: 'Security to be acquired',
  isPooledInvestmentFundType: 'Pooled investment fund interests',
  isTenantInCommonType: 'Tenant-in-common',
  isMineralPropertyType: 'Mineral property',
  isOtherType: 'Other',
};

export function parseFormDXml(input: string, meta: { accession?: string } = {}): FormDFiling {
  const header = isSubmissionContainer(input) ? readSubmissionHeader(input) : null;
  const xml = findXmlByRoot(input, 'edgarSubmission');
  if (!xml) throw new FormDXmlError('no Form D edgarSubmission XML in the input');
  const root = find(parseXml(xml), 'edgarSubmission');
  const od = find(root, 'offeringData');
  if (!root || !od) throw new FormDXmlError('edgarSubmission without offeringData: not a Form D');
  const submissionType = findText(root, 'submissionType')?.toUpperCase() ?? header?.formType ?? null;
  const amendment = toBool(findText(od, 'typeOfFiling/newOrAmendment/isAmendment'));
  const types = find(od, 'typesOfSecuritiesOffered');
  const signatures = all(find(od, 'signatureBlock'), 'signature').map((s) => ({
    issuer_name: findText(s, 'issuerName'),
    signature_name: findText(s, 'signatureName'),
    name_of_signer: findText(s, 'nameOfSigner'),
    title: findText(s, 'signatureTitle'),
    date: toIsoDate(findText(s, 'signatureDate')),
  }));
  return {
    accession: normalizeAccession(meta.accession) ?? header?.accession ?? null,
    filed_date: header?.filedDate ?? null,
    schema_version: findText(root, 'schemaVersion'),
    submission_type: submissionType,
    is_amendment: amendment ?? submissionType === 'D/A',
    previous_accession: normalizeAccession(findText(od, 'typeOfFiling/newOrAmendment/previousAccessionNumber')),
    issuers: [...children(root, 'primaryIssuer').map((n) => issuerOf(n, true)), ...children(find(root, 'issuerList'), 'issuer').map((n) => issuerOf(n, false))],
    related_persons: all(find(root, 'relatedPersonsList'), 'relatedPersonInfo').map((p) => ({
      first_name: findText(p, 'relatedPersonName/firstName'),
      middle_name: findText(p, 'relatedPersonName/middleName'),
      last_name: findText(p, 'relatedPersonName/lastName'),
      city: findText(p, 'relatedPersonAddress/city'),
      state_or_country: findText(p, 'relatedPersonAddress/stateOrCountry'),
      relationships: all(find(p, 'relatedPersonRelationshipList'), 'relationship')
        .map(textOf)
        .filter((x): x is string => !!x),
      clarification: findText(p, 'relationshipClarification'),
    })),
    recipients: all(find(od, 'salesCompensationList'), 'recipient').map((r) => {
      const states = find(r, 'statesOfSolicitationList');
      return {
        name: findText(r, 'recipientName'),
        crd: findText(r, 'recipientCRDNumber'),
        associated_bd_name: findText(r, 'associatedBDName'),
        associated_bd_crd: findText(r, 'associatedBDCRDNumber'),
        city: findText(r, 'recipientAddress/city'),
        state_or_country: findText(r, 'recipientAddress/stateOrCountry'),
        states_of_solicitation: (states?.children ?? [])
          .filter((c) => c.name === 'state' || c.name === 'value')
          .map(textOf)
          .filter((x): x is string => !!x),
        foreign_solicitation: toBool(findText(r, 'foreignSolicitation')),
      };
    }),
    industry_group: findText(od, 'industryGroup/industryGroupType'),
    investment_fund_type: findText(od, 'industryGroup/investmentFundInfo/investmentFundType'),
    is_40_act: toBool(findText(od, 'industryGroup/investmentFundInfo/is40Act')),
    revenue_range: findText(od, 'issuerSize/revenueRange'),
    nav_range: findText(od, 'issuerSize/aggregateNetAssetValueRange'),
    federal_exemptions: children(find(od, 'federalExemptionsExclusions'), 'item')
      .map(textOf)
      .filter((x): x is string => !!x),
    date_of_first_sale: toIsoDate(findText(od, 'typeOfFiling/dateOfFirstSale/value')),
    first_sale_yet_to_occur: toBool(findText(od, 'typeOfFiling/dateOfFirstSale/yetToOccur')),
    more_than_one_year: toBool(findText(od, 'durationOfOffering/moreThanOneYear')),
    security_types: Object.entries(SECURITY_TYPES)
      .filter(([k]) => toBool(findText(types, k)))
      .map(([, v]) => v),
    other_security_description: findText(types, 'descriptionOfOtherType'),
    is_business_combination: toBool(findText(od, 'businessCombinationTransaction/isBusinessCombinationTransaction')),
    minimum_investment: toInt(findText(od, 'minimumInvestmentAccepted')),
    total_offering: amount(findText(od, 'offeringSalesAmounts/totalOfferingAmount')),
    total_sold: amount(findText(od, 'offeringSalesAmounts/totalAmountSold')),
    total_remaining: amount(findText(od, 'offeringSalesAmounts/totalRemaining')),
    has_non_accredited_investors: toBool(findText(od, 'investors/hasNonAccreditedInvestors')),
    num_non_accredited_investors: toInt(findText(od, 'investors/numberNonAccreditedInvestors')),
    total_investors: toInt(findText(od, 'investors/totalNumberAlreadyInvested')),
    sales_commissions_usd: toInt(findText(od, 'salesCommissionsFindersFees/salesCommissions/dollarAmount')),
    finders_fees_usd: toInt(findText(od, 'salesCommissionsFindersFees/findersFees/dollarAmount')),
    gross_proceeds_used_usd: toInt(findText(od, 'useOfProceeds/grossProceedsUsed/dollarAmount')),
    signatures,
  };
}

/** Sort of a person's display name for the related-persons list: `First Middle Last`. */
export function personName(p: { first_name: string | null; middle_name: string | null; last_name: string | null }): string | null {
  const parts = [p.first_name, p.middle_name, p.last_name].filter((x) => x && !/^(n\/?a|-)$/i.test(x));
  return cleanText(parts.join(' '));
}
