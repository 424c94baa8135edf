import { readSubmissionHeader, extractXmlDocuments, isSubmissionContainer } from '../sgml.ts';
import { cleanText, normalizeAccession, padCik, toBool, toInt, toIsoDate, toNumber } from '../../common/normalize.ts';
import { at, children, parseXml, textAt, type XmlNode } from '../../common/xml-tree.ts';
import type { RawFiling, RawInfo } from './13f-raw.ts';

/**
 * One 13F-HR/13F-NT filing as published on EDGAR: a full-submission `.txt`, a dissemination `.nc`, or the bare
 * `primary_doc.xml` / information-table XML. Both documents are matched by their root's local name, whatever
 * the namespace prefix.
 */
export interface Parsed13fFiling {
  filing: RawFiling | null;
  rows: RawInfo[];
}

export interface FilingHints {
  accession?: string | null;
  cik?: string | null;
  filingDate?: string | null;
  acceptedAt?: string | null;
}

function rootOf(doc: XmlNode): XmlNode | null {
  return doc.children.find((c) => !c.name.startsWith('?')) ?? null;
}

const upper = (s: string | null) => (s == null ? null : s.toUpperCase());

function infoRows(root: XmlNode, accession: string): RawInfo[] {
  return children(root, 'infoTable').map((it, i) => ({
    accession_number: accession,
    line_no: i + 1,
    issuer_name: cleanText(textAt(it, 'nameOfIssuer')),
    title_of_class: cleanText(textAt(it, 'titleOfClass')),
    cusip_raw: textAt(it, 'cusip'),
    figi: cleanText(textAt(it, 'figi')),
    value_reported: toNumber(textAt(it, 'value')),
    shares: toNumber(textAt(it, 'shrsOrPrnAmt/sshPrnamt')),
    shares_type: upper(cleanText(textAt(it, 'shrsOrPrnAmt/sshPrnamtType'))),
    put_call: cleanText(textAt(it, 'putCall')),
    investment_discretion: upper(cleanText(textAt(it, 'investmentDiscretion'))),
    other_manager: cleanText(textAt(it, 'otherManager')),
    voting_sole: toInt(textAt(it, 'votingAuthority/Sole')),
    voting_shared: toInt(textAt(it, 'votingAuthority/Shared')),
    voting_none: toInt(textAt(it, 'votingAuthority/None')),
  }));
}

/** An other-manager entry of the cover page (`otherManager`) or of the summary page (`otherManager2/otherManager`). */
function managerJson(m: XmlNode | null) {
  return {
    cik: padCik(textAt(m, 'cik')),
    form13f_file_number: cleanText(textAt(m, 'form13FFileNumber')),
    crd_number: cleanText(textAt(m, 'crdNumber')),
    sec_file_number: cleanText(textAt(m, 'secFileNumber')),
    name: cleanText(textAt(m, 'name')),
  };
}

function otherManagers(cover: XmlNode | null, summary: XmlNode | null): { reporting: string | null; included: string | null } {
  const reporting = children(at(cover, 'otherManagersInfo'), 'otherManager').map(managerJson);
  const included = children(at(summary, 'otherManagers2Info'), 'otherManager2').map((m2) => ({
    sequence_number: toInt(textAt(m2, 'sequenceNumber')),
    ...managerJson(at(m2, 'otherManager')),
  }));
  return {
    reporting: reporting.length ? JSON.stringify(reporting) : null,
    included: included.length ? JSON.stringify(included) : null,
  };
}

function coverFiling(root: XmlNode, accession: string, hints: FilingHints): RawFiling | null {
  const header = at(root, 'headerData');
  const form = at(root, 'formData');
  const cover = at(form, 'coverPage');
  const summary = at(form, 'summaryPage');
  const cik = padCik(textAt(header, 'filerInfo/filer/credentials/cik')) ?? hints.cik ?? null;
  const period = toIsoDate(textAt(cover, 'reportCalendarOrQuarter')) ?? toIsoDate(textAt(header, 'filerInfo/periodOfReport'));
  const submissionType = cleanText(textAt(header, 'submissionType'));
  if (!cik || !period || !submissionType) return null;
  const address = at(cover, 'filingManager/address');
  const signature = at(form, 'signatureBlock');
  const others = otherManagers(cover, summary);
  return {
    accession_number: accession,
    cik,
    manager_name: cleanText(textAt(cover, 'filingManager/name')),
    street1: cleanText(textAt(address, 'street1')),
    street2: cleanText(textAt(address, 'street2')),
    city: cleanText(textAt(address, 'city')),
    state_or_country: cleanText(textAt(address, 'stateOrCountry')),
    zip_code: cleanText(textAt(address, 'zipCode')),
    period_of_report: period,
    filing_date: hints.filingDate ?? null,
    accepted_at: hints.acceptedAt ?? null,
    submission_type: submissionType,
    is_amendment: toBool(textAt(cover, 'isAmendment')),
    amendment_no: toInt(textAt(cover, 'amendmentNo')),
    amendment_type: upper(cleanText(textAt(cover, 'amendmentInfo/amendmentType'))),
    report_type: upper(cleanText(textAt(cover, 'reportType'))),
    form13f_file_number: cleanText(textAt(cover, 'form13FFileNumber')),
    crd_number: cleanText(textAt(cover, 'crdNumber')),
    sec_file_number: cleanText(textAt(cover, 'secFileNumber')),
    other_included_managers_count: toInt(textAt(summary, 'otherIncludedManagersCount')),
    table_entry_total: toInt(textAt(summary, 'tableEntryTotal')),
    table_value_total_reported: toNumber(textAt(summary, 'tableValueTotal')),
    is_confidential_omitted: toBool(textAt(summary, 'isConfidentialOmitted')),
    schema_version: cleanText(textAt(root, 'schemaVersion')),
    source: 'sec_13f_xml',
    previous_accession: normalizeAccession(textAt(header, 'previousAccessionNumber')),
    other_managers: others.reporting,
    other_included_managers: others.included,
    signature_name: cleanText(textAt(signature, 'name')),
    signature_title: cleanText(textAt(signature, 'title')),
    signature_phone: cleanText(textAt(signature, 'phone')),
    signature: cleanText(textAt(signature, 'signature')),
    signature_city: cleanText(textAt(signature, 'city')),
    signature_state_or_country: cleanText(textAt(signature, 'stateOrCountry')),
    signature_date: toIsoDate(textAt(signature, 'signatureDate')),
  };
}

/**
 * Parses a 13F filing. The accession comes from the container header or the hints; a bare information table
 * (no cover page) yields rows with `filing: null`, to be attached by the caller.
 */
export async function parse13fFiling(text: string, hints: FilingHints = {}): Promise<Parsed13fFiling> {
  let accession = hints.accession ? normalizeAccession(hints.accession) : null;
  const h: FilingHints = { ...hints };
  let xmls: string[];
  if (isSubmissionContainer(text)) {
    const header = readSubmissionHeader(text);
    accession ??= header.accession;
    h.filingDate ??= header.filedDate;
    h.acceptedAt ??= header.acceptedAt;
    h.cik ??= header.parties.find((p) => p.role === 'filer')?.cik ?? null;
    xmls = extractXmlDocuments(text).map((d) => d.xml);
  } else {
    xmls = [text];
  }
  const acc = accession ?? 'unknown';
  let filing: RawFiling | null = null;
  const rows: RawInfo[] = [];
  for (const xml of xmls) {
    const root = rootOf(parseXml(xml));
    if (!root) continue;
    if (root.name === 'edgarSubmission') filing = coverFiling(root, acc, h);
    else if (root.name === 'informationTable') rows.push(...infoRows(root, acc));
  }
  return { filing, rows };
}
