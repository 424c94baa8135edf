/**
 * A filing of the demo's filing index (the lake's `filings` table) as the sample archive writes it: the caller
 * picks these from the lake, so the archive always holds filings the index lists, whatever the samples generate.
 */
export interface SampleArchiveFiling {
  accession: string;
  /** Every CIK the filing index lists it under, 10 digits; the first is the filer (the issuer of a Form 4). */
  ciks: string[];
  company: string;
  /** The issuer's ticker, when the entity directory has one (full-text display names carry it). */
  ticker: string | null;
  form: string;
  /** 8-K item numbers (`1.05`, `9.01`). */
  items: string[];
  filedDate: string;
  reportDate: string | null;
  /** `YYYY-MM-DD HH:MM:SS`, US Eastern, as EDGAR prints it. */
  accepted: string | null;
  /** The primary document's file name as the index lists it; a name is made up when it has none. */
  primaryDocument: string | null;
  /** Form 4: the reporting owner (the second CIK the index lists the filing under). */
  owner: { cik: string; name: string } | null;
}

/** One file of a filing: its place in the submission, its index-page type and its body. */
export interface ArchiveDocument {
  sequence: number;
  type: string;
  description: string;
  fileName: string;
  body: string;
  /** The index page links the regulator's HTML rendering of ownership XML (`xslF345X05/…`) besides the file. */
  xslRendering?: boolean;
}

export const acc18 = (accession: string) => accession.replace(/-/g, '');
export const cikNumber = (cik: string) => String(Number(cik));
/** `2024-03-19` → `20240319`, as the submission header prints dates. */
export const compactDate = (iso: string) => iso.replace(/-/g, '');

export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Title case for a conformed (upper-case) company name, as the documents themselves print it. */
export function displayName(company: string): string {
  return company.toLowerCase().replace(/\b([a-z])/g, (c) => c.toUpperCase());
}
