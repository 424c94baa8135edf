import {
  acceptanceToIso,
  FilingNotFoundError,
  formFromCover,
  primaryDocument,
  type FilingDocument,
  type FilingManifest,
} from '../../ingest/sources/edgar/index.ts';
import { notFound, ValidationError } from '../core/errors.ts';
import { p } from '../core/params.ts';
import type { Services } from '../core/services.ts';
import { SOURCE as LABEL } from '../../schemas/sources.ts';

/**
 * Per-filing parsers: documents, item extraction, insider transactions, 8-K items, Exhibit 21. Each reads one
 * filing from the regulator's archive on demand through the services' filing store (shared HTTP client, on-disk
 * filing cache). What every one of them shares: the parameters, reading through the store, the envelope.
 */

export const SOURCE = LABEL.sec_edgar_archive;
export const TAG = 'Per-filing parsers';
export const COST = { min: 10, max: 20 };

export const accessionPath = { accession: p.accession({ required: true, description: 'Accession number, with or without dashes.' }) };

export const cikParam = {
  cik: p.cik({
    description:
      "CIK of a party to the filing. Only needed when the filing is not in the lake's filing index and was " +
      "submitted by a filing agent (the accession prefix is then the agent's CIK).",
  }),
};

/** The store's "no such filing or document" as the API's 404. */
async function orNotFound<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof FilingNotFoundError) throw notFound(err.message);
    throw err;
  }
}

export function loadManifest(services: Services, accession: string, cik?: string): Promise<FilingManifest & { cached: boolean }> {
  return orNotFound(() => services.filings.manifest(accession, cik));
}

export function loadDocument(services: Services, m: FilingManifest, doc: FilingDocument) {
  return orNotFound(() => services.filings.documentText(m, doc));
}

export function loadDerived<T>(services: Services, m: FilingManifest, doc: FilingDocument, kind: string, compute: (text: string) => T) {
  return orNotFound(() => services.filings.derived(m, doc, kind, compute));
}

export function wrongForm(accession: string, message: string): ValidationError {
  return new ValidationError([{ loc: ['path', 'accession'], msg: message, type: 'value_error', input: accession }]);
}

export function envelope<R>(m: FilingManifest, data: R[], echo: Record<string, unknown>) {
  // The filing's acceptance time (US Eastern on EDGAR) in UTC; its filing date when only that is known.
  const asOf = acceptanceToIso(m.accepted) ?? acceptanceToIso(m.filed_date);
  return { data, as_of: asOf, source: SOURCE, query_echo: { accession: m.accession, ...echo } };
}

/** The form of the filing; from the primary document's cover page when only the directory listing was found. */
export async function formOf(services: Services, m: FilingManifest): Promise<{ form: string | null; primary: FilingDocument | null }> {
  const primary = primaryDocument(m);
  if (m.form || !primary) return { form: m.form, primary };
  const { text } = await loadDocument(services, m, primary);
  return { form: formFromCover(text), primary };
}
