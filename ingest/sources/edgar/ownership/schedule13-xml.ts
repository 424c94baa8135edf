import { cleanText, normalizeAccession, padCik, toBool, toIsoDate, toNumber } from '../../common/normalize.ts';
import { findXmlByRoot, isSubmissionContainer, readSubmissionHeader, type FilingHeader } from '../sgml.ts';
import { all, children, find, findText, parseXml, textOf, type XmlNode } from '../../common/xml-tree.ts';
import { parseLegacySchedule13 } from './schedule13-legacy.ts';
import { classifyForm, type ReportingPerson, type Schedule13Filing } from './schedule13-filing.ts';

/**
 * Schedules 13D and 13G: the structured XML (since 2024-12-18, namespaces schedule13D / schedule13g, element
 * names differ between the two) and, best-effort, the legacy SC 13D/G text or HTML cover pages.
 */

export class Schedule13Error extends Error {}

function personOf13D(p: XmlNode): ReportingPerson {
  const noCik = toBool(findText(p, 'reportingPersonNoCIK'));
  return {
    cik: noCik ? null : padCik(findText(p, 'reportingPersonCIK')),
    name: findText(p, 'reportingPersonName'),
    citizenship: findText(p, 'citizenshipOrOrganization'),
    sole_voting_power: toNumber(findText(p, 'soleVotingPower')),
    shared_voting_power: toNumber(findText(p, 'sharedVotingPower')),
    sole_dispositive_power: toNumber(findText(p, 'soleDispositivePower')),
    shared_dispositive_power: toNumber(findText(p, 'sharedDispositivePower')),
    aggregate_amount: toNumber(findText(p, 'aggregateAmountOwned')),
    percent_of_class: toNumber(findText(p, 'percentOfClass')),
    type_of_reporting_person: all(p, 'typeOfReportingPerson').map(textOf).filter(Boolean).join(',') || null,
    member_of_group: findText(p, 'memberOfGroup'),
    fund_type: all(p, 'fundType').map(textOf).filter(Boolean).join(',') || null,
    comment: findText(p, 'commentContent'),
  };
}

function personOf13G(p: XmlNode): ReportingPerson {
  const shares = find(p, 'reportingPersonBeneficiallyOwnedNumberOfShares');
  return {
    cik: padCik(findText(p, 'reportingPersonCIK')),
    name: findText(p, 'reportingPersonName'),
    citizenship: findText(p, 'citizenshipOrOrganization'),
    sole_voting_power: toNumber(findText(shares, 'soleVotingPower')),
    shared_voting_power: toNumber(findText(shares, 'sharedVotingPower')),
    sole_dispositive_power: toNumber(findText(shares, 'soleDispositivePower')),
    shared_dispositive_power: toNumber(findText(shares, 'sharedDispositivePower')),
    aggregate_amount: toNumber(findText(p, 'reportingPersonBeneficiallyOwnedAggregateNumberOfShares')),
    percent_of_class: toNumber(findText(p, 'classPercent')),
    type_of_reporting_person: all(p, 'typeOfReportingPerson').map(textOf).filter(Boolean).join(',') || null,
    member_of_group: findText(p, 'memberGroup'),
    fund_type: null,
    comment: findText(p, 'comments') ?? findText(p, 'commentContent'),
  };
}

function parseStructured(xml: string, header: FilingHeader | null): Schedule13Filing {
  const root = find(parseXml(xml), 'edgarSubmission');
  const fd = find(root, 'formData');
  const cover = find(fd, 'coverPageHeader');
  if (!root || !fd || !cover) throw new Schedule13Error('edgarSubmission without a Schedule 13D/G coverPageHeader');
  const formType = findText(root, 'headerData/submissionType') ?? header?.formType ?? null;
  const cls = classifyForm(formType);
  const issuer = find(cover, 'issuerInfo');
  const is13G = cls.schedule === '13G' || find(fd, 'coverPageHeaderReportingPersonDetails') != null;
  const persons = is13G
    ? children(fd, 'coverPageHeaderReportingPersonDetails').map(personOf13G)
    : all(find(fd, 'reportingPersons'), 'reportingPersonInfo').map(personOf13D);
  const cusip = findText(issuer, 'issuerCUSIP') ?? findText(issuer, 'issuerCusipNumber');
  const sigDates = all(fd, 'signatureDetails')
    .map((s) => toIsoDate(findText(s, 'date')))
    .filter((x): x is string => !!x)
    .sort();
  const filerCik = padCik(findText(root, 'headerData/filerInfo/filer/filerCredentials/cik'));
  const filedBy = header?.parties.find((p) => p.role === 'filed_by');
  return {
    accession: header?.accession ?? null,
    filed_date: header?.filedDate ?? null,
    form_type: formType,
    schedule: cls.schedule ?? (is13G ? '13G' : '13D'),
    is_amendment: cls.is_amendment,
    amendment_no: toNumber(findText(cover, 'amendmentNo')),
    previous_accession: normalizeAccession(findText(root, 'headerData/previousAccessionNumber')),
    structured: true,
    filer_cik: filerCik ?? filedBy?.cik ?? null,
    filer_name: filedBy?.name ?? persons.find((p) => p.cik && p.cik === filerCik)?.name ?? persons[0]?.name ?? null,
    subject_cik: padCik(findText(issuer, 'issuerCIK')) ?? header?.parties.find((p) => p.role === 'subject_company')?.cik ?? null,
    issuer_name: findText(issuer, 'issuerName'),
    cusip: cusip ? cusip.toUpperCase() : null,
    securities_class_title: findText(cover, 'securitiesClassTitle'),
    event_date: toIsoDate(findText(cover, 'dateOfEvent') ?? findText(cover, 'eventDateRequiresFilingThisStatement')),
    rule_designations: all(cover, 'designateRulePursuantThisScheduleFiled')
      .map(textOf)
      .filter((x): x is string => !!x),
    group_members: header?.groupMembers ?? [],
    persons,
    signature_date: sigDates.pop() ?? null,
  };
}

/**
 * One Schedule 13D/G filing: structured XML when present, else the legacy cover page (text/HTML) read with
 * regexes. `meta.accession` overrides the container header.
 */
export function parseSchedule13(input: string, meta: { accession?: string } = {}): Schedule13Filing {
  const header = isSubmissionContainer(input) ? readSubmissionHeader(input) : null;
  const xml = findXmlByRoot(input, 'edgarSubmission');
  const out = xml ? parseStructured(xml, header) : parseLegacySchedule13(input, header);
  out.accession = normalizeAccession(meta.accession) ?? out.accession;
  out.filer_name = cleanText(out.filer_name);
  return out;
}
