import { cleanText, normalizeAccession, padCik, toIsoDate } from '../../common/normalize.ts';

/**
 * data.sec.gov submissions JSON (per-CIK `CIK##########.json`, its `-submissions-NNN.json` overflow pages,
 * and the members of the bulk submissions.zip): the entity header and the columnar filing arrays.
 */

export interface SubmissionEntity {
  cik: string;
  name: string;
  entity_type: string | null;
  sic: string | null;
  sic_description: string | null;
  tickers: string[];
  exchanges: (string | null)[];
  state_of_incorp: string | null;
  state_of_incorp_description: string | null;
  fiscal_year_end: string | null;
  ein: string | null;
  category: string | null;
  phone: string | null;
  website: string | null;
  business_address: Record<string, unknown> | null;
  mailing_address: Record<string, unknown> | null;
  former_names: { name: string; from: string | null; to: string | null }[];
  insider_issuer: boolean | null;
}

export interface SubmissionFiling {
  accession: string;
  cik: string;
  form: string;
  filed_date: string;
  report_date: string | null;
  /** As published, without the trailing `Z` (which is not reliable: often US Eastern time). */
  acceptance_datetime: string | null;
  act: string | null;
  file_number: string | null;
  film_number: string | null;
  /** Comma-joined 8-K item numbers, e.g. `2.02,9.01`; null when none. */
  items: string | null;
  size: number | null;
  is_xbrl: boolean | null;
  is_inline_xbrl: boolean | null;
  primary_document: string | null;
  primary_doc_description: string | null;
}

const str = (v: unknown): string | null => (v == null ? null : cleanText(String(v)));

/** `CIK0000320193.json` → entity file; `CIK0000320193-submissions-001.json` → overflow page of that CIK. */
export function classifySubmissionFile(name: string): { cik: string; overflow: boolean } | null {
  const m = name.match(/CIK(\d{10})(-submissions-\d+)?(_[^/]*)?\.json$/i);
  return m ? { cik: m[1], overflow: !!m[2] } : null;
}

function address(a: unknown): Record<string, unknown> | null {
  if (!a || typeof a !== 'object') return null;
  const o = a as Record<string, unknown>;
  const out = {
    street1: str(o.street1),
    street2: str(o.street2),
    city: str(o.city),
    state_or_country: str(o.stateOrCountry),
    postal_code: str(o.zipCode),
    state_or_country_description: str(o.stateOrCountryDescription),
  };
  return Object.values(out).some((v) => v != null) ? out : null;
}

export function parseSubmissionEntity(doc: Record<string, unknown>, fallbackCik?: string): SubmissionEntity | null {
  const cik = padCik(doc.cik) ?? (fallbackCik ? padCik(fallbackCik) : null);
  const name = str(doc.name);
  if (!cik || !name) return null;
  const addresses = (doc.addresses ?? {}) as Record<string, unknown>;
  const tickers = Array.isArray(doc.tickers) ? doc.tickers.map((t) => str(t)).filter((t): t is string => !!t) : [];
  const exchanges = Array.isArray(doc.exchanges) ? doc.exchanges.map((e) => str(e)) : [];
  const formerNames = Array.isArray(doc.formerNames) ? doc.formerNames : [];
  return {
    cik,
    name,
    entity_type: str(doc.entityType),
    sic: str(doc.sic),
    sic_description: str(doc.sicDescription),
    tickers,
    exchanges,
    state_of_incorp: str(doc.stateOfIncorporation),
    state_of_incorp_description: str(doc.stateOfIncorporationDescription),
    fiscal_year_end: str(doc.fiscalYearEnd),
    ein: str(doc.ein),
    // The regulator joins several statuses with a literal `<br>`.
    category:
      str(doc.category)
        ?.split(/<br\s*\/?>/i)
        .map((s) => s.trim())
        .filter(Boolean)
        .join('; ') ?? null,
    phone: str(doc.phone),
    website: str(doc.website),
    business_address: address(addresses.business),
    mailing_address: address(addresses.mailing),
    former_names: formerNames
      .map((f: Record<string, unknown>) => ({ name: str(f?.name) ?? '', from: toIsoDate(f?.from), to: toIsoDate(f?.to) }))
      .filter((f) => f.name),
    insider_issuer: doc.insiderTransactionForIssuerExists == null ? null : Number(doc.insiderTransactionForIssuerExists) === 1,
  };
}

const flag = (v: unknown): boolean | null => (v === 1 || v === '1' || v === true ? true : v === 0 || v === '0' || v === false ? false : null);

/**
 * The columnar arrays (`filings.recent`, or a whole overflow page) to one object per filing. Index i of every
 * array is one filing; a filing without a valid accession or filing date is reported, not guessed.
 */
export function* submissionFilings(columns: Record<string, unknown>, cik: string): Generator<{ filing: SubmissionFiling } | { error: string; index: number }> {
  const col = (k: string): unknown[] => (Array.isArray(columns[k]) ? (columns[k] as unknown[]) : []);
  const acc = col('accessionNumber');
  const [filingDate, reportDate, acceptance, act, form, fileNumber, filmNumber, items, size, isXbrl, isIxbrl, primaryDoc, primaryDesc] = [
    'filingDate',
    'reportDate',
    'acceptanceDateTime',
    'act',
    'form',
    'fileNumber',
    'filmNumber',
    'items',
    'size',
    'isXBRL',
    'isInlineXBRL',
    'primaryDocument',
    'primaryDocDescription',
  ].map(col);
  for (let i = 0; i < acc.length; i++) {
    const accession = normalizeAccession(acc[i]);
    const filed = toIsoDate(filingDate[i]);
    const formType = str(form[i]);
    if (!accession || !filed || !formType) {
      yield { error: `filing #${i}: missing or malformed accessionNumber/filingDate/form`, index: i };
      continue;
    }
    const acceptedRaw = str(acceptance[i]);
    const accepted = acceptedRaw?.match(/^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})/)?.[1] ?? null;
    const itemList =
      str(items[i])
        ?.split(',')
        .map((s) => s.trim())
        .filter(Boolean) ?? [];
    const sz = Number(size[i]);
    yield {
      filing: {
        accession,
        cik,
        form: formType,
        filed_date: filed,
        report_date: toIsoDate(reportDate[i]),
        acceptance_datetime: accepted,
        act: str(act[i]),
        file_number: str(fileNumber[i]),
        film_number: str(filmNumber[i]),
        items: itemList.length ? itemList.join(',') : null,
        size: Number.isFinite(sz) && size[i] !== '' && size[i] != null ? sz : null,
        is_xbrl: flag(isXbrl[i]),
        is_inline_xbrl: flag(isIxbrl[i]),
        primary_document: str(primaryDoc[i]),
        primary_doc_description: str(primaryDesc[i]),
      },
    };
  }
}

/** The filing arrays of a submissions document: `filings.recent` of an entity file, or the page itself. */
export function filingColumns(doc: Record<string, unknown>, overflow: boolean): Record<string, unknown> {
  if (overflow) return doc;
  const filings = (doc.filings ?? {}) as Record<string, unknown>;
  return (filings.recent ?? {}) as Record<string, unknown>;
}
