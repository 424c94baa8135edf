import { normalizeAccession, padCik, toIsoDate, toIsoTimestamp, cleanText } from '../core/normalize.ts';

/**
 * EDGAR submission containers: the full-submission `.txt` (header lines `KEY:\tvalue`, optionally wrapped in a
 * PEM envelope) and the dissemination-feed `.nc` (SGML tags `<KEY>value`, sometimes CR-only line ends).
 * Forms 3/4/5, 144, D and Schedule 13D/G carry their structured document as an `<XML>` block inside one
 * `<DOCUMENT>`; this module finds it and reads the few header fields the XML itself lacks (accession, filed date).
 */

export type PartyRole = 'subject_company' | 'filed_by' | 'reporting_owner' | 'issuer' | 'filer';

export interface HeaderParty {
  role: PartyRole;
  cik: string | null;
  name: string | null;
}

export interface SubmissionHeader {
  accession: string | null;
  formType: string | null;
  filedDate: string | null;
  periodOfReport: string | null;
  acceptedAt: string | null;
  parties: HeaderParty[];
  groupMembers: string[];
}

export interface EmbeddedXml {
  /** `<TYPE>` of the document that holds the XML. */
  type: string | null;
  filename: string | null;
  xml: string;
}

/** True when the text is an SGML container rather than a bare XML document. */
export function isSubmissionContainer(text: string): boolean {
  const head = text.slice(0, 2000);
  return /<SEC-DOCUMENT>|<SUBMISSION>|<SEC-HEADER>|-----BEGIN PRIVACY-ENHANCED MESSAGE-----|<IMS-HEADER>/.test(head);
}

const TXT_ROLES: Record<string, PartyRole> = {
  'SUBJECT COMPANY': 'subject_company',
  'FILED BY': 'filed_by',
  'REPORTING-OWNER': 'reporting_owner',
  ISSUER: 'issuer',
  FILER: 'filer',
};
const NC_ROLES: Record<string, PartyRole> = {
  'SUBJECT-COMPANY': 'subject_company',
  'FILED-BY': 'filed_by',
  'REPORTING-OWNER': 'reporting_owner',
  ISSUER: 'issuer',
  FILER: 'filer',
};

/** Reads the submission header of either container flavour; fields it cannot find are null. */
export function readSubmissionHeader(text: string): SubmissionHeader {
  const end = text.search(/<DOCUMENT>/);
  const head = (end >= 0 ? text.slice(0, end) : text.slice(0, 20000)).replace(/\r\n?/g, '\n');
  const out: SubmissionHeader = {
    accession: null, formType: null, filedDate: null, periodOfReport: null, acceptedAt: null, parties: [], groupMembers: [],
  };
  let party: HeaderParty | null = null;
  for (const rawLine of head.split('\n')) {
    const line = rawLine.trimEnd();
    let m: RegExpMatchArray | null;
    if ((m = line.match(/^<([A-Z0-9-]+)>(.*)$/))) {
      // `.nc` flavour: one tag per line, value after the tag, section ends as `</TAG>`.
      const [, tag, value] = m;
      const v = value.trim();
      if (NC_ROLES[tag]) { party = { role: NC_ROLES[tag], cik: null, name: null }; out.parties.push(party); continue; }
      switch (tag) {
        case 'ACCESSION-NUMBER': out.accession ??= normalizeAccession(v); break;
        case 'TYPE': out.formType ??= cleanText(v); break;
        case 'FILING-DATE': out.filedDate ??= toIsoDate(v); break;
        case 'PERIOD': out.periodOfReport ??= toIsoDate(v); break;
        case 'ACCEPTANCE-DATETIME': out.acceptedAt ??= toIsoTimestamp(v); break;
        case 'GROUP-MEMBERS': if (v) out.groupMembers.push(v); break;
        case 'CONFORMED-NAME': if (party && party.name == null) party.name = cleanText(v); break;
        case 'CIK': if (party && party.cik == null) party.cik = padCik(v); break;
      }
      continue;
    }
    if ((m = line.match(/^([A-Z][A-Z -]+):\s*$/)) && TXT_ROLES[m[1]]) {
      party = { role: TXT_ROLES[m[1]], cik: null, name: null };
      out.parties.push(party);
      continue;
    }
    if ((m = line.match(/^\s*([A-Z][A-Z0-9 -]+):\s*(.*)$/))) {
      const key = m[1].trim();
      const v = m[2].trim();
      switch (key) {
        case 'ACCESSION NUMBER': out.accession ??= normalizeAccession(v); break;
        case 'CONFORMED SUBMISSION TYPE': out.formType ??= cleanText(v); break;
        case 'FILED AS OF DATE': out.filedDate ??= toIsoDate(v); break;
        case 'CONFORMED PERIOD OF REPORT': out.periodOfReport ??= toIsoDate(v); break;
        case 'GROUP MEMBERS': if (v) out.groupMembers.push(v); break;
        case 'COMPANY CONFORMED NAME': if (party && party.name == null) party.name = cleanText(v); break;
        case 'CENTRAL INDEX KEY': if (party && party.cik == null) party.cik = padCik(v); break;
      }
      continue;
    }
    if ((m = line.match(/<ACCEPTANCE-DATETIME>(\d{14})/))) out.acceptedAt ??= toIsoTimestamp(m[1]);
  }
  return out;
}

/** Every `<XML>` block of the container, with the `<TYPE>`/`<FILENAME>` of its `<DOCUMENT>`. */
export function extractXmlDocuments(text: string): EmbeddedXml[] {
  const docs: EmbeddedXml[] = [];
  let from = 0;
  for (;;) {
    const start = text.indexOf('<XML>', from);
    if (start < 0) break;
    const stop = text.indexOf('</XML>', start);
    const xml = text.slice(start + 5, stop < 0 ? text.length : stop).trim();
    const docStart = text.lastIndexOf('<DOCUMENT>', start);
    const docHead = docStart >= 0 ? text.slice(docStart, start) : '';
    docs.push({
      type: cleanText(docHead.match(/<TYPE>([^\r\n<]*)/)?.[1]),
      filename: cleanText(docHead.match(/<FILENAME>([^\r\n<]*)/)?.[1]),
      xml,
    });
    if (stop < 0) break;
    from = stop + 6;
  }
  return docs;
}

/**
 * The XML document whose root element has this local name (namespace prefixes ignored): from a container's
 * `<XML>` blocks, or the text itself when it is already that XML. Null when absent (legacy text filings).
 */
export function findXmlByRoot(text: string, rootLocalName: string): string | null {
  const root = new RegExp(`<(?:[A-Za-z0-9_.-]+:)?${rootLocalName}[\\s>/]`);
  if (!isSubmissionContainer(text)) return root.test(text.slice(0, 4000)) || root.test(text) ? text : null;
  for (const d of extractXmlDocuments(text)) if (root.test(d.xml)) return d.xml;
  return null;
}

/** Decodes the five XML entities and numeric references; unknown entities stay as written (real filings have them). */
export function decodeXmlEntities(s: string): string {
  if (s.indexOf('&') < 0) return s;
  return s.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (all, e: string) => {
    switch (e) {
      case 'amp': return '&';
      case 'lt': return '<';
      case 'gt': return '>';
      case 'quot': return '"';
      case 'apos': return "'";
    }
    const code = e[1] === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
    return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : all;
  });
}

/**
 * A full-submission `.txt` in EDGAR's layout around one XML document (demo samples write filings this way, so
 * `make demo` exercises the same container reader as real downloads).
 */
export function submissionTxt(o: {
  accession: string;
  formType: string;
  filedDate: string;
  parties: { role: 'SUBJECT COMPANY' | 'FILED BY' | 'REPORTING-OWNER' | 'ISSUER' | 'FILER'; cik: string; name: string }[];
  xml: string;
}): string {
  const day = o.filedDate.replace(/-/g, '');
  const parties = o.parties
    .map((p) => `${p.role}:\t\n\n\tCOMPANY DATA:\t\n\t\tCOMPANY CONFORMED NAME:\t\t\t${p.name}\n\t\tCENTRAL INDEX KEY:\t\t\t${p.cik}\n`)
    .join('\n');
  return `<SEC-DOCUMENT>${o.accession}.txt : ${day}
<SEC-HEADER>${o.accession}.hdr.sgml : ${day}
<ACCEPTANCE-DATETIME>${day}163000
ACCESSION NUMBER:\t\t${o.accession}
CONFORMED SUBMISSION TYPE:\t${o.formType}
PUBLIC DOCUMENT COUNT:\t\t1
FILED AS OF DATE:\t\t${day}
DATE AS OF CHANGE:\t\t${day}

${parties}</SEC-HEADER>
<DOCUMENT>
<TYPE>${o.formType}
<SEQUENCE>1
<FILENAME>primary_doc.xml
<TEXT>
<XML>
${o.xml}
</XML>
</TEXT>
</DOCUMENT>
</SEC-DOCUMENT>
`;
}
