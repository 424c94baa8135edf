import { cikDigits, normalizeAccession, padCik, toIsoDate } from '../../common/normalize.ts';
import { readLines } from '../../common/lines.ts';

/** One line of an EDGAR form/company/master index: a filing as listed under one filer CIK. */
export interface IndexLine {
  cik: string;
  company: string;
  form: string;
  filedDate: string;
  accession: string;
  /** `edgar/data/{cik}/{acc20}.txt`, relative to /Archives/. */
  filename: string;
}

export type IndexLayout = 'master' | 'form' | 'company';

/** The layout is told by the column-title line, never by the file name (daily files are renamed by mirrors). */
function detectLayout(titleLine: string): IndexLayout | null {
  const t = titleLine.trim();
  if (t.includes('|')) return 'master';
  if (/^Form Type\s/i.test(t)) return 'form';
  if (/^Company Name\s/i.test(t)) return 'company';
  return null;
}

const TAIL = /^(.*?)\s+(\d{1,10})\s+(\d{4}-?\d{2}-?\d{2})\s+(edgar\/\S+)\s*$/;

function accessionOf(filename: string): string | null {
  const m = filename.match(/(\d{10}-?\d{2}-?\d{6})\.txt$/);
  return m ? normalizeAccession(m[1]) : null;
}

/**
 * Parses one data line. Fixed-width columns drift when a name or form type overflows its column, so the
 * CIK/date/file name are taken from the end and the head is split on the first (form.idx) or last
 * (company.idx) run of two or more spaces, falling back to the documented offsets.
 */
export function parseIndexLine(line: string, layout: IndexLayout): IndexLine | { error: string } | null {
  if (!line.trim()) return null;
  let cik: string | null;
  let company: string;
  let form: string;
  let date: string | null;
  let filename: string;
  if (layout === 'master') {
    const parts = line.split('|');
    if (parts.length < 5) return { error: `expected 5 pipe-separated fields, got ${parts.length}` };
    // A pipe inside a company name would add fields: the name is everything between CIK and the last three.
    filename = parts[parts.length - 1].trim();
    date = toIsoDate(parts[parts.length - 2]);
    form = parts[parts.length - 3].trim();
    company = parts
      .slice(1, parts.length - 3)
      .join('|')
      .trim();
    cik = padCik(parts[0]);
  } else {
    const m = line.match(TAIL);
    if (!m) return { error: 'no CIK / date / file name at the end of the line' };
    const head = m[1].trimEnd();
    cik = padCik(m[2]);
    date = toIsoDate(m[3]);
    filename = m[4];
    if (layout === 'form') {
      const split = head.match(/^(.*?\S)\s{2,}(\S.*)$/);
      [form, company] = split ? [split[1], split[2]] : [head.slice(0, 12).trim(), head.slice(12).trim()];
    } else {
      const split = head.match(/^(.*\S)\s{2,}(\S.*)$/);
      [company, form] = split ? [split[1], split[2]] : [head.slice(0, 62).trim(), head.slice(62).trim()];
    }
  }
  if (!cik) return { error: 'CIK is not numeric' };
  if (!date) return { error: 'Date Filed is not a valid date' };
  const accession = accessionOf(filename);
  if (!accession) return { error: `no accession number in file name ${filename}` };
  return { cik, company: company.trim(), form: form.trim(), filedDate: date, accession, filename };
}

/**
 * Streams an index file: skips the free-text preamble up to the first `-----` line (its length differs between
 * quarterly and daily variants, and the daily company.idx title wraps across two lines).
 */
export async function* readIndexFile(path: string): AsyncGenerator<{ row: IndexLine; lineNo: number } | { error: string; lineNo: number }> {
  let layout: IndexLayout | null = null;
  let inData = false;
  for await (const { line, lineNo } of readLines(path)) {
    if (!inData) {
      if (!layout) layout = detectLayout(line);
      if (line.startsWith('-----')) {
        inData = true;
        if (!layout) throw new Error(`${path}: no column-title line before the dashes; not an EDGAR index file`);
      }
      continue;
    }
    const r = parseIndexLine(line, layout!);
    if (!r) continue;
    if ('error' in r) yield { error: r.error, lineNo };
    else yield { row: r, lineNo };
  }
}

const SEC_WWW = 'https://www.sec.gov';

/** Archive URLs of a filing. Records point at the regulator's site, whatever mirror the ingest read from. */
export function filingUrls(cik: string, accession: string, primaryDocument?: string | null) {
  const digits = cikDigits(cik)!;
  const acc18 = accession.replace(/-/g, '');
  const folder = `${SEC_WWW}/Archives/edgar/data/${digits}/${acc18}`;
  return {
    filing_url: `${folder}/${accession}.txt`,
    index_url: `${folder}/${accession}-index.htm`,
    primary_document_url: primaryDocument ? `${folder}/${primaryDocument}` : null,
  };
}
