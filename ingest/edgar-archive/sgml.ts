import { padCik, normalizeAccession, toIsoDate } from '../core/normalize.ts';

/**
 * The full submission `.txt` (colon-dialect header) and the dissemination-feed `.nc` (tagged-dialect header, CR
 * line endings) split into header facts and documents (formats/01-edgar-indexes.md §5). Not XML: a leaf tag's
 * value runs to the end of its line, so this is a line scanner. PEM wrappers of pre-2010 filings are ignored.
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

const ROLE_COLON: Record<string, string> = {
  'FILER:': 'FILER', 'REPORTING-OWNER:': 'REPORTING-OWNER', 'ISSUER:': 'ISSUER', 'SUBJECT COMPANY:': 'SUBJECT-COMPANY',
  'FILED BY:': 'FILED-BY',
};
const ROLE_TAGS = new Set(['FILER', 'REPORTING-OWNER', 'ISSUER', 'SUBJECT-COMPANY', 'FILED-BY']);

function parseColonHeader(lines: string[], h: SubmissionHeader): void {
  let party: SubmissionParty | null = null;
  for (const line of lines) {
    const t = line.trim();
    if (ROLE_COLON[t]) {
      party = { role: ROLE_COLON[t]!, name: null, cik: null };
      h.parties.push(party);
      continue;
    }
    if (t.startsWith('<ACCEPTANCE-DATETIME>')) h.accepted = t.slice('<ACCEPTANCE-DATETIME>'.length).trim();
    const idx = t.indexOf(':');
    if (idx < 0) continue;
    const key = t.slice(0, idx).trim();
    const value = t.slice(idx + 1).trim();
    switch (key) {
      case 'ACCESSION NUMBER': h.accession = normalizeAccession(value); break;
      case 'CONFORMED SUBMISSION TYPE': h.form = value || null; break;
      case 'PUBLIC DOCUMENT COUNT': h.documentCount = Number(value) || null; break;
      case 'CONFORMED PERIOD OF REPORT': h.period = toIsoDate(value); break;
      case 'FILED AS OF DATE': h.filed = toIsoDate(value); break;
      case 'ITEM INFORMATION': if (value) h.items.push(value); break;
      case 'COMPANY CONFORMED NAME': if (party && !party.name) party.name = value; break;
      case 'CENTRAL INDEX KEY': if (party && !party.cik) party.cik = padCik(value); break;
    }
  }
}

function parseTaggedHeader(lines: string[], h: SubmissionHeader): void {
  let party: SubmissionParty | null = null;
  for (const line of lines) {
    const m = /^<([A-Z0-9-]+)>(.*)$/.exec(line.trim());
    if (!m) continue;
    const [, tag, raw] = m;
    const value = raw!.trim();
    if (ROLE_TAGS.has(tag!)) {
      party = { role: tag!, name: null, cik: null };
      h.parties.push(party);
      continue;
    }
    switch (tag) {
      case 'ACCESSION-NUMBER': h.accession = normalizeAccession(value); break;
      case 'TYPE': if (!h.form) h.form = value || null; break;
      case 'PUBLIC-DOCUMENT-COUNT': h.documentCount = Number(value) || null; break;
      case 'PERIOD': h.period = toIsoDate(value); break;
      case 'FILING-DATE': h.filed = toIsoDate(value); break;
      case 'ACCEPTANCE-DATETIME': h.accepted = value; break;
      case 'ITEMS': if (value) h.items.push(value); break;
      case 'CONFORMED-NAME': if (party && !party.name) party.name = value; break;
      case 'CIK': if (party && !party.cik) party.cik = padCik(value); break;
    }
  }
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
  const lines = text.split(/\r\n|\r|\n/);
  const header: SubmissionHeader = { accession: null, form: null, period: null, filed: null, accepted: null, documentCount: null, items: [], parties: [] };
  const documents: SubmissionDocument[] = [];
  const headerLines: string[] = [];
  let i = 0;
  let tagged = false;
  for (; i < lines.length; i++) {
    const t = lines[i]!.trim();
    if (t === '<DOCUMENT>') break;
    if (t === '<SUBMISSION>') tagged = true;
    headerLines.push(lines[i]!);
  }
  if (tagged) parseTaggedHeader(headerLines, header);
  else parseColonHeader(headerLines, header);

  while (i < lines.length) {
    if (lines[i]!.trim() !== '<DOCUMENT>') { i++; continue; }
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
  return parseSubmission(cut >= 0 ? text.slice(0, cut) : text).header;
}
