import { cleanText, normalizeAccession, padCik, toIsoDate, toIsoTimestamp } from '../common/normalize.ts';

/**
 * EDGAR submission containers: the full submission `.txt` (colon-dialect header `KEY:\tvalue`, sometimes inside
 * a PEM envelope) and the dissemination-feed `.nc` (tagged-dialect header `<KEY>value`, CR line endings), split
 * into header facts and documents (docs/formats/01-edgar-indexes.md). Not XML: a leaf tag's value runs to the end
 * of its line, so this is a line scanner. One header reader serves every dataset; `readSubmissionHeader` is the
 * view the XML-filing parsers (Forms 3/4/5, 144, D, 13D/G, 13F, N-PORT, N-CEN) want.
 */

export interface SubmissionParty {
  /** `FILER`, `REPORTING-OWNER`, `ISSUER`, `SUBJECT-COMPANY`, `FILED-BY`. */
  role: string;
  name: string | null;
  cik: string | null;
}

export interface SubmissionHeader {
  accession: string | null;
  form: string | null;
  period: string | null;
  filed: string | null;
  /** `YYYYMMDDHHMMSS` Eastern, as published. */
  accepted: string | null;
  documentCount: number | null;
  /** `.nc`: item numbers (`5.02`); `.txt`: item titles from `ITEM INFORMATION` lines. */
  items: string[];
  /** Schedule 13D/G `GROUP MEMBERS` lines, as published. */
  groupMembers: string[];
  parties: SubmissionParty[];
}

export interface SubmissionDocument {
  type: string;
  sequence: number | null;
  filename: string | null;
  description: string | null;
  /** Body between `<TEXT>` and `</TEXT>`, wrapper tags (`<XBRL>`, `<XML>`, `<PDF>`) removed. */
  body: string;
  /** Bytes of the file it stands for (uuencoded files: the decoded size). */
  size: number;
  uuencoded: boolean;
}

export interface Submission {
  header: SubmissionHeader;
  documents: SubmissionDocument[];
}

const LINE_BREAK = /\r\n|\r|\n/;

const ROLE_COLON: Record<string, string> = {
  'FILER:': 'FILER',
  'REPORTING-OWNER:': 'REPORTING-OWNER',
  'ISSUER:': 'ISSUER',
  'SUBJECT COMPANY:': 'SUBJECT-COMPANY',
  'FILED BY:': 'FILED-BY',
};
const ROLE_TAGS = new Set(['FILER', 'REPORTING-OWNER', 'ISSUER', 'SUBJECT-COMPANY', 'FILED-BY']);

/** The two dialects name the same facts differently: `.nc` tag → `.txt` key. */
const TAG_KEYS: Record<string, string> = {
  'ACCESSION-NUMBER': 'ACCESSION NUMBER',
  TYPE: 'CONFORMED SUBMISSION TYPE',
  'PUBLIC-DOCUMENT-COUNT': 'PUBLIC DOCUMENT COUNT',
  PERIOD: 'CONFORMED PERIOD OF REPORT',
  'FILING-DATE': 'FILED AS OF DATE',
  'ACCEPTANCE-DATETIME': 'ACCEPTANCE-DATETIME',
  ITEMS: 'ITEM INFORMATION',
  'GROUP-MEMBERS': 'GROUP MEMBERS',
  'CONFORMED-NAME': 'COMPANY CONFORMED NAME',
  CIK: 'CENTRAL INDEX KEY',
};

/**
 * Header lines of either dialect (a `.txt` also carries a few tag lines such as `<ACCEPTANCE-DATETIME>`).
 * The first value of a fact wins; a party's name and CIK are the first ones inside its block.
 */
function parseHeaderLines(lines: string[]): SubmissionHeader {
  const h: SubmissionHeader = {
    accession: null,
    form: null,
    period: null,
    filed: null,
    accepted: null,
    documentCount: null,
    items: [],
    groupMembers: [],
    parties: [],
  };
  let party: SubmissionParty | null = null;
  for (const line of lines) {
    const t = line.trim();
    let role: string | undefined;
    let key: string | undefined;
    let value = '';
    const tag = /^<([A-Z0-9-]+)>(.*)$/.exec(t);
    if (tag) {
      role = ROLE_TAGS.has(tag[1]!) ? tag[1] : undefined;
      key = TAG_KEYS[tag[1]!];
      value = tag[2]!.trim();
    } else {
      role = ROLE_COLON[t];
      const colon = t.indexOf(':');
      if (colon >= 0) {
        key = t.slice(0, colon).trim();
        value = t.slice(colon + 1).trim();
      }
    }
    if (role) {
      party = { role, name: null, cik: null };
      h.parties.push(party);
      continue;
    }
    switch (key) {
      case 'ACCESSION NUMBER':
        h.accession ??= normalizeAccession(value);
        break;
      case 'CONFORMED SUBMISSION TYPE':
        if (!h.form) h.form = value || null;
        break;
      case 'PUBLIC DOCUMENT COUNT':
        h.documentCount ??= Number(value) || null;
        break;
      case 'CONFORMED PERIOD OF REPORT':
        h.period ??= toIsoDate(value);
        break;
      case 'FILED AS OF DATE':
        h.filed ??= toIsoDate(value);
        break;
      case 'ACCEPTANCE-DATETIME':
        if (!h.accepted) h.accepted = value || null;
        break;
      case 'ITEM INFORMATION':
        if (value) h.items.push(value);
        break;
      case 'GROUP MEMBERS':
        if (value) h.groupMembers.push(value);
        break;
      case 'COMPANY CONFORMED NAME':
        if (party && !party.name) party.name = value;
        break;
      case 'CENTRAL INDEX KEY':
        if (party && !party.cik) party.cik = padCik(value);
        break;
    }
  }
  return h;
}

/** Decoded byte count of a uuencoded body (each line's first character encodes its length). */
function uudecodedSize(lines: string[]): number {
  let n = 0;
  for (const l of lines) {
    if (!l || l.startsWith('begin ') || l === 'end' || l === '`') continue;
    n += (l.charCodeAt(0) - 32) & 63;
  }
  return n;
}

const WRAPPERS = /^<\/?(XBRL|XML|PDF|HTML-WRAPPER)>$/i;

function finishDocument(meta: Omit<SubmissionDocument, 'body' | 'size' | 'uuencoded'>, bodyLines: string[]): SubmissionDocument {
  let start = 0;
  let end = bodyLines.length;
  while (start < end && (bodyLines[start]!.trim() === '' || WRAPPERS.test(bodyLines[start]!.trim()))) start++;
  while (end > start && (bodyLines[end - 1]!.trim() === '' || WRAPPERS.test(bodyLines[end - 1]!.trim()))) end--;
  const lines = bodyLines.slice(start, end);
  const uuencoded = lines.length > 0 && /^begin \d{3} /.test(lines[0]!);
  const body = lines.join('\n');
  return { ...meta, body, size: uuencoded ? uudecodedSize(lines) : Buffer.byteLength(body, 'latin1'), uuencoded };
}

/** Splits a submission text (any line endings) into header facts and documents. */
export function parseSubmission(text: string): Submission {
  const lines = text.split(LINE_BREAK);
  const documents: SubmissionDocument[] = [];
  let i = 0;
  while (i < lines.length && lines[i]!.trim() !== '<DOCUMENT>') i++;
  const header = parseHeaderLines(lines.slice(0, i));

  while (i < lines.length) {
    if (lines[i]!.trim() !== '<DOCUMENT>') {
      i++;
      continue;
    }
    i++;
    const meta = { type: '', sequence: null as number | null, filename: null as string | null, description: null as string | null };
    for (; i < lines.length; i++) {
      const t = lines[i]!.trim();
      if (t.startsWith('<TEXT>') || t === '</DOCUMENT>') break;
      const m = /^<(TYPE|SEQUENCE|FILENAME|DESCRIPTION)>(.*)$/.exec(t);
      if (!m) continue;
      const v = m[2]!.trim();
      if (m[1] === 'TYPE') meta.type = v;
      else if (m[1] === 'SEQUENCE') meta.sequence = Number.parseInt(v, 10) || null;
      else if (m[1] === 'FILENAME') meta.filename = v || null;
      else meta.description = v || null;
    }
    const body: string[] = [];
    if (lines[i]?.trim().startsWith('<TEXT>')) {
      const rest = lines[i]!.trim().slice('<TEXT>'.length);
      if (rest) body.push(rest);
      for (i++; i < lines.length; i++) {
        const l = lines[i]!;
        if (l.trim() === '</TEXT>' || l.trim() === '</DOCUMENT>') break;
        body.push(l);
      }
    }
    while (i < lines.length && lines[i]!.trim() !== '</DOCUMENT>') i++;
    i++;
    documents.push(finishDocument(meta, body));
  }
  if (!header.form && documents[0]) header.form = documents[0].type;
  return { header, documents };
}

/** Just the header: stops reading at the first `<DOCUMENT>` (cheap on a 300 MB submission prefix). */
export function parseSubmissionHeader(text: string): SubmissionHeader {
  const cut = text.indexOf('<DOCUMENT>');
  return parseHeaderLines((cut >= 0 ? text.slice(0, cut) : text).split(LINE_BREAK));
}

export type PartyRole = 'subject_company' | 'filed_by' | 'reporting_owner' | 'issuer' | 'filer';

export interface HeaderParty {
  role: PartyRole;
  cik: string | null;
  name: string | null;
}

/** The header as the XML-filing parsers read it: cleaned text, `snake_case` roles, acceptance as an ISO timestamp. */
export interface FilingHeader {
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

/** The submission header of either container flavour for the XML-filing parsers; fields it cannot find are null. */
export function readSubmissionHeader(text: string): FilingHeader {
  // A bare header (no `<DOCUMENT>`) is read no further than its first 20,000 characters.
  const h = parseSubmissionHeader(text.includes('<DOCUMENT>') ? text : text.slice(0, 20000));
  return {
    accession: h.accession,
    formType: cleanText(h.form),
    filedDate: h.filed,
    periodOfReport: h.period,
    acceptedAt: toIsoTimestamp(h.accepted),
    parties: h.parties.map((p) => ({ role: p.role.toLowerCase().replace('-', '_') as PartyRole, cik: p.cik, name: cleanText(p.name) })),
    groupMembers: h.groupMembers,
  };
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
