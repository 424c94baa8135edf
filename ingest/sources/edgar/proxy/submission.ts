import { normalizeAccession, padCik, cleanText } from '../../common/normalize.ts';
import { parseSubmissionHeader } from '../sgml.ts';

/**
 * What a proxy document is and who filed it. A full submission `.txt` (what EDGAR archives serve for an
 * accession) carries the SGML header; a bare `.htm` primary document carries at most inline-XBRL dei
 * facts, so its accession comes from the file name and its filed date stays unknown.
 */

export interface ProxyFilingMeta {
  accession: string | null;
  cik: string | null;
  issuerName: string | null;
  formType: string | null;
  filedDate: string | null;
  /** Header `CONFORMED PERIOD OF REPORT` (for proxies usually the meeting date). */
  periodOfReport: string | null;
  documentName: string | null;
  /**
   * Every registrant of the filing: fund-complex proxies are filed once for dozens of funds (one FILER block
   * each, the same board for all). The issuer (`cik`) is the first; rows are written for each of them.
   */
  filers: { cik: string; name: string | null }[];
}

export interface ProxyDocument {
  meta: ProxyFilingMeta;
  html: string;
}

/** Proxy statement form types whose primary document carries the director and compensation tables. */
const PROXY_FORMS = /^(DEF 14A|DEFR14A|DEFM14A|DEF 14C|PRE 14A|DEFA14A)$/i;

export function readProxySubmission(text: string, fileName: string): ProxyDocument {
  const accFromName = fileName.match(/(\d{10})-?(\d{2})-?(\d{6})/);
  const meta: ProxyFilingMeta = {
    accession: accFromName ? normalizeAccession(accFromName.slice(1).join('')) : null,
    cik: null,
    issuerName: null,
    formType: null,
    filedDate: null,
    periodOfReport: null,
    documentName: null,
    filers: [],
  };
  const headerEnd = text.indexOf('</SEC-HEADER>');
  if (text.startsWith('<SEC-DOCUMENT>') || (headerEnd > 0 && headerEnd < 20000)) {
    const h = parseSubmissionHeader(text.slice(0, headerEnd > 0 ? headerEnd : 20000));
    meta.accession = h.accession ?? meta.accession;
    meta.formType = h.form;
    meta.filedDate = h.filed;
    meta.periodOfReport = h.period;
    // The first FILER block is the issuer on a proxy; later blocks are co-registrants (fund series).
    meta.cik = h.parties.find((p) => p.cik)?.cik ?? null;
    meta.issuerName = cleanText(h.parties.find((p) => p.name)?.name);
    for (const p of h.parties) {
      if ((p.role === 'FILER' || p.role === 'SUBJECT-COMPANY') && p.cik && !meta.filers.some((f) => f.cik === p.cik))
        meta.filers.push({ cik: p.cik, name: cleanText(p.name) });
    }
    const docs = splitDocuments(text);
    const main = docs.find((d) => PROXY_FORMS.test(d.type)) ?? docs.find((d) => /<(html|table)/i.test(d.body.slice(0, 5000)));
    if (main) {
      meta.documentName = main.fileName;
      return { meta, html: main.body };
    }
    return { meta, html: '' };
  }
  return { meta, html: text };
}

interface SubmissionDocument {
  type: string;
  fileName: string | null;
  body: string;
}

/** The `<DOCUMENT>` blocks of a full submission, located by index (bodies can be megabytes of uuencode). */
function splitDocuments(text: string): SubmissionDocument[] {
  const out: SubmissionDocument[] = [];
  let at = text.indexOf('<DOCUMENT>');
  while (at >= 0) {
    const end = text.indexOf('</DOCUMENT>', at);
    const block = text.slice(at, end < 0 ? text.length : end);
    const head = block.slice(0, 2000);
    const textStart = block.indexOf('<TEXT>');
    const textEnd = block.lastIndexOf('</TEXT>');
    out.push({
      type: head.match(/<TYPE>([^\n\r<]*)/)?.[1].trim() ?? '',
      fileName: head.match(/<FILENAME>([^\n\r<]*)/)?.[1].trim() ?? null,
      body: textStart >= 0 ? block.slice(textStart + 6, textEnd > textStart ? textEnd : block.length) : '',
    });
    at = end < 0 ? -1 : text.indexOf('<DOCUMENT>', end);
  }
  return out;
}

/** Fills gaps from inline-XBRL dei facts (bare primary documents). */
export function applyDeiFacts(meta: ProxyFilingMeta, facts: { name: string; text: string }[]): void {
  const fact = (n: string) => facts.find((f) => f.name === n)?.text ?? null;
  meta.cik ??= padCik(fact('dei:EntityCentralIndexKey'));
  meta.issuerName ??= cleanText(fact('dei:EntityRegistrantName'));
  meta.formType ??= cleanText(fact('dei:DocumentType'));
  if (meta.cik && !meta.filers.length) meta.filers.push({ cik: meta.cik, name: meta.issuerName });
}
