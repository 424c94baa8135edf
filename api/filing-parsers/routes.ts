import { z } from 'zod';
import { OwnerRecord } from '../../schemas/records/insider.ts';
import { defineRoute } from '../core/endpoint.ts';
import { notFound, ValidationError } from '../core/errors.ts';
import { p } from '../core/params.ts';
import type { Services } from '../core/services.ts';
import { classify8kItems } from '../../ingest/sources/edgar/index.ts';
import { parseExhibit21 } from '../../ingest/sources/edgar/index.ts';
import { findItemSections } from '../../ingest/sources/edgar/index.ts';
import { createFilingStore, FilingNotFoundError, formFromCover, parseCost, primaryDocument, type FilingDocument, type FilingManifest, type FilingStore } from '../../ingest/sources/edgar/index.ts';
import { itemFormOf, parseItemParam, validItemKeys } from '../../ingest/sources/edgar/index.ts';
import { OwnershipXmlError, parseOwnershipXml, type OwnershipRow } from '../../ingest/sources/edgar/index.ts';

/**
 * Per-filing parsers: documents, item extraction, insider transactions, 8-K items, Exhibit 21. Each reads one
 * filing from the regulator's archive on demand through the shared HTTP client and the on-disk filing cache.
 */

const SOURCE = 'sec_edgar_archive';
const TAG = 'Per-filing parsers';
const COST = { min: 10, max: 20 };

const stores = new WeakMap<Services, FilingStore>();

/** One store per app: the lake's filing index (when ingested) tells under which CIK an accession is filed. */
export function filingStore(services: Services): FilingStore {
  let s = stores.get(services);
  if (!s) {
    s = createFilingStore({
      http: services.http,
      settings: services.settings,
      lookupCiks: async (acc) => (await services.lake.query('SELECT DISTINCT cik FROM filings WHERE accession = $1', [acc])).map((r) => String(r.cik)),
    });
    stores.set(services, s);
  }
  return s;
}

const accessionPath = { accession: p.accession({ required: true, description: 'Accession number, with or without dashes.' }) };

const cikParam = {
  cik: p.cik({ description: "CIK of a party to the filing. Only needed when the filing is not in the lake's filing index and was submitted by a filing agent (the accession prefix is then the agent's CIK)." }),
};

async function loadManifest(services: Services, accession: string, cik?: string): Promise<FilingManifest & { cached: boolean }> {
  try {
    return await filingStore(services).manifest(accession, cik);
  } catch (err) {
    if (err instanceof FilingNotFoundError) throw notFound(err.message);
    throw err;
  }
}

async function loadDocument(services: Services, m: FilingManifest, doc: FilingDocument) {
  try {
    return await filingStore(services).documentText(m, doc);
  } catch (err) {
    if (err instanceof FilingNotFoundError) throw notFound(err.message);
    throw err;
  }
}

async function loadDerived<T>(services: Services, m: FilingManifest, doc: FilingDocument, kind: string, compute: (text: string) => T) {
  try {
    return await filingStore(services).derived(m, doc, kind, compute);
  } catch (err) {
    if (err instanceof FilingNotFoundError) throw notFound(err.message);
    throw err;
  }
}

function wrongForm(accession: string, message: string): ValidationError {
  return new ValidationError([{ loc: ['path', 'accession'], msg: message, type: 'value_error', input: accession }]);
}

function envelope<R>(m: FilingManifest, data: R[], echo: Record<string, unknown>) {
  return { data, as_of: m.accepted ?? m.filed_date ?? null, source: SOURCE, query_echo: { accession: m.accession, ...echo } };
}

/** The form of the filing; from the primary document's cover page when only the directory listing was found. */
async function formOf(services: Services, m: FilingManifest): Promise<{ form: string | null; primary: FilingDocument | null }> {
  const primary = primaryDocument(m);
  if (m.form || !primary) return { form: m.form, primary };
  const { text } = await loadDocument(services, m, primary);
  return { form: formFromCover(text), primary };
}

const DocumentRecord = z.object({
  sequence: z.number().int().nullable().describe('Position in the submission; null for the complete submission text file.'),
  type: z.string().nullable().describe('Document type: 10-K, EX-21.1, GRAPHIC, XML, EX-101.INS …; null when only the directory listing was available.'),
  description: z.string().nullable(),
  file_name: z.string().nullable().describe('Null for unnamed documents of 1990s submissions (they live only in the .txt).'),
  size: z.number().int().nullable().describe('Bytes (uuencoded files: decoded size).'),
  url: z.string().describe('Direct URL on the archive.'),
});

const documents = defineRoute({
  method: 'get',
  path: '/v1/filings/:accession/documents',
  summary: 'Document manifest of a filing',
  description: 'Every file of the filing with sequence, type, description, file name, size and direct URL, from the filing index page (or the full submission text when the index is missing). Cost 10-20 credits by size.',
  tag: TAG,
  source: SOURCE,
  pathParams: accessionPath,
  params: cikParam,
  record: DocumentRecord,
  cost: COST,
  async handler({ path, query, services, setCost }) {
    const m = await loadManifest(services, path.accession!, query.cik);
    setCost(parseCost(m.cached ? 0 : m.fetched_bytes));
    return envelope(m, m.documents, { form: m.form, manifest_source: m.source });
  },
});

const ExtractRecord = z.object({
  accession: z.string(),
  form: z.string(),
  item: z.string().describe('Normalized item key: 1A (10-K), II-1A (10-Q), 5.02 (8-K).'),
  part: z.string().nullable(),
  title: z.string().describe('Canonical item title.'),
  heading: z.string().describe('The heading as printed in the document.'),
  text: z.string().describe('Plain text of the item, heading excluded.'),
  word_count: z.number().int(),
  document: z.string().nullable().describe('File the item was read from.'),
  source_url: z.string(),
});

const extract = defineRoute({
  method: 'get',
  path: '/v1/filings/:accession/extract',
  summary: 'Text of one item of a 10-K, 10-Q or 8-K',
  description: 'From the item heading to the next item heading, skipping the table of contents and page headers/footers. `item`: 1A, 7, 7A (10-K); II-1A or part2-1a for Part II items of a 10-Q (bare 1-4 mean Part I, bare 1A/5/6 Part II); 2.02, 5.02 (8-K). 404 when the item is not in the filing, 422 when it is not an item of the form.',
  tag: TAG,
  source: SOURCE,
  pathParams: accessionPath,
  params: { ...cikParam, item: p.str({ required: true, maxLength: 32, description: 'Item number, e.g. 1A, 7, II-1A, 5.02.', example: '1A' }) },
  record: ExtractRecord,
  cost: COST,
  async handler({ path, query, services, setCost }) {
    const m = await loadManifest(services, path.accession!, query.cik);
    const { form, primary } = await formOf(services, m);
    const itemForm = itemFormOf(form);
    if (!itemForm) throw wrongForm(m.accession, `Filing ${m.accession} is a ${form ?? 'filing of unknown form'}; items can be extracted from 10-K, 10-Q and 8-K filings`);
    const ref = parseItemParam(query.item!, itemForm);
    if (!ref) {
      throw new ValidationError([{
        loc: ['query', 'item'], msg: `'${query.item}' is not an item of Form ${itemForm}; valid items: ${validItemKeys(itemForm).join(', ')}`,
        type: 'value_error', input: query.item, ctx: { form: itemForm },
      }]);
    }
    if (!primary) throw notFound(`Filing ${m.accession} has no primary document`);
    const { value: sections, fetchedBytes, textBytes } = await loadDerived(services, m, primary, `items-${itemForm}`, (text) => findItemSections(text, itemForm));
    setCost(parseCost(fetchedBytes + textBytes));
    const section = sections.find((s) => s.key === ref.key);
    if (!section) throw notFound(`Item ${ref.key} (${ref.title}) was not found in ${primary.file_name ?? 'the primary document'} of filing ${m.accession}`);
    return envelope(m, [{
      accession: m.accession, form: form!, item: section.key, part: section.part, title: section.title, heading: section.heading,
      text: section.text, word_count: section.text.split(/\s+/).filter(Boolean).length, document: primary.file_name, source_url: primary.url,
    }], { item: ref.key, form });
  },
});

const RowRecord = z.object({
  seq: z.number().int(),
  table: z.string().describe('non_derivative (Table I) or derivative (Table II).'),
  kind: z.string().describe('transaction or holding.'),
  security_title: z.string().nullable(),
  transaction_date: z.string().nullable(),
  trans_code: z.string().nullable(),
  shares: z.number().nullable(),
  price_per_share: z.number().nullable(),
  price_footnote: z.string().nullable(),
  acquired_disposed: z.string().nullable(),
  shares_owned_after: z.number().nullable(),
  direct_indirect: z.string().nullable(),
  nature_of_ownership: z.string().nullable(),
  conversion_or_exercise_price: z.number().nullable(),
  exercise_date: z.string().nullable(),
  expiration_date: z.string().nullable(),
  underlying_security_title: z.string().nullable(),
  underlying_security_shares: z.number().nullable(),
  value_usd: z.number().nullable(),
  footnotes: z.array(z.object({ field: z.string(), id: z.string(), text: z.string().nullable() })),
});
const InsidersRecord = z.object({
  accession: z.string(),
  form_type: z.string().nullable(),
  period_of_report: z.string().nullable(),
  issuer: z.object({ cik: z.string().nullable(), name: z.string().nullable(), ticker: z.string().nullable() }),
  owners: z.array(OwnerRecord),
  transactions: z.array(RowRecord).describe('Table I and Table II rows (transactions and holdings) in document order.'),
  footnotes: z.array(z.object({ id: z.string(), text: z.string() })),
  remarks: z.string().nullable(),
  source_url: z.string(),
});

function rowRecord(r: OwnershipRow): z.infer<typeof RowRecord> {
  return {
    seq: r.seq, table: r.table, kind: r.kind, security_title: r.securityTitle, transaction_date: r.transactionDate,
    trans_code: r.transactionCode, shares: r.shares, price_per_share: r.pricePerShare, price_footnote: r.priceFootnote,
    acquired_disposed: r.acquiredDisposed, shares_owned_after: r.sharesOwnedAfter, direct_indirect: r.directIndirect,
    nature_of_ownership: r.natureOfOwnership, conversion_or_exercise_price: r.conversionOrExercisePrice,
    exercise_date: r.exerciseDate, expiration_date: r.expirationDate, underlying_security_title: r.underlyingSecurityTitle,
    underlying_security_shares: r.underlyingSecurityShares, value_usd: r.valueUsd, footnotes: r.footnotes,
  };
}

const OWNERSHIP_FORMS = /^[345](\/A)?$/;

const insiders = defineRoute({
  method: 'get',
  path: '/v1/filings/:accession/insiders',
  summary: 'Insider transactions of a Form 3/4/5 filing',
  description: 'Issuer, reporting owners with their relationship, and every Table I/II transaction and holding (shares, price, A/D, holdings after, footnotes), parsed by the same parser as /v1/insider.',
  tag: TAG,
  source: SOURCE,
  pathParams: accessionPath,
  params: cikParam,
  record: InsidersRecord,
  cost: COST,
  async handler({ path, query, services, setCost }) {
    const m = await loadManifest(services, path.accession!, query.cik);
    const doc = m.documents.find((d) => d.type && OWNERSHIP_FORMS.test(d.type) && /\.xml$/i.test(d.file_name ?? '.xml'))
      ?? (m.form === null ? m.documents.find((d) => /\.xml$/i.test(d.file_name ?? '') && !/^(FilingSummary|primary_doc)\.xml$/i.test(d.file_name ?? '')) : undefined);
    if (!doc || (m.form && !OWNERSHIP_FORMS.test(m.form))) throw wrongForm(m.accession, `Filing ${m.accession} is a ${m.form ?? 'filing of unknown form'}, not a Form 3, 4 or 5`);
    const { text, fetchedBytes } = await loadDocument(services, m, doc);
    setCost(parseCost(fetchedBytes + text.length));
    let parsed;
    try {
      parsed = parseOwnershipXml(text, { accession: m.accession, url: doc.url });
    } catch (err) {
      if (err instanceof OwnershipXmlError) throw notFound(`Filing ${m.accession} has no ownership XML (pre-2003 text filing?)`);
      throw err;
    }
    return envelope(m, [{
      accession: m.accession,
      form_type: parsed.documentType ?? m.form,
      period_of_report: parsed.periodOfReport,
      issuer: { cik: parsed.issuer.cik, name: parsed.issuer.name, ticker: parsed.issuer.tradingSymbol },
      owners: parsed.owners.map((o) => ({ cik: o.cik, name: o.name, relationships: o.relationships, officer_title: o.officerTitle, other_text: o.otherText })),
      transactions: parsed.rows.map(rowRecord),
      footnotes: parsed.footnotes,
      remarks: parsed.remarks,
      source_url: doc.url,
    }], {});
  },
});

const EventRecord = z.object({
  item: z.string().describe('8-K item number (5.02); pre-2004 reports use 1-12.'),
  title: z.string().describe('Canonical item title.'),
  excerpt: z.string().nullable().describe('About the first 300 characters of the item text; null when only the header lists the item.'),
  detected_from: z.string().describe('document (heading found in the text) or header (declared in the filing header only).'),
  accession: z.string(),
  source_url: z.string(),
});

const events = defineRoute({
  method: 'get',
  path: '/v1/filings/:accession/events',
  summary: 'Items reported in an 8-K',
  description: 'Each item the 8-K reports, with its canonical title and a short excerpt, from the item headings of the primary document and the items declared in the filing header.',
  tag: TAG,
  source: SOURCE,
  pathParams: accessionPath,
  params: cikParam,
  record: EventRecord,
  cost: COST,
  async handler({ path, query, services, setCost }) {
    const m = await loadManifest(services, path.accession!, query.cik);
    const { form, primary } = await formOf(services, m);
    if (itemFormOf(form) !== '8-K') throw wrongForm(m.accession, `Filing ${m.accession} is a ${form ?? 'filing of unknown form'}, not an 8-K`);
    if (!primary) throw notFound(`Filing ${m.accession} has no primary document`);
    const { value: items, fetchedBytes, textBytes } = await loadDerived(services, m, primary, `events-${m.items.join('_')}`, (text) => classify8kItems(text, m.items));
    setCost(parseCost(fetchedBytes + textBytes));
    return envelope(m, items.map((i) => ({ item: i.item, title: i.title, excerpt: i.excerpt, detected_from: i.source, accession: m.accession, source_url: primary.url })), { form });
  },
});

const SubsidiaryRecord = z.object({
  name: z.string(),
  jurisdiction: z.string().nullable(),
  ownership_percent: z.number().nullable().describe('Percent of voting securities owned, where the exhibit gives it.'),
  level: z.number().int().describe('0 = top level; deeper for indented plain-text hierarchies.'),
  parent: z.string().nullable(),
});
const SubsidiariesRecord = z.object({
  accession: z.string(),
  exhibit: z.string().describe('Exhibit type, e.g. EX-21.1.'),
  subsidiary_count: z.number().int(),
  subsidiaries: z.array(SubsidiaryRecord),
  raw_text: z.string().describe('The exhibit as plain text.'),
  source_url: z.string(),
});

const subsidiaries = defineRoute({
  method: 'get',
  path: '/v1/filings/:accession/subsidiaries',
  summary: 'Subsidiaries from Exhibit 21',
  description: 'Rows of subsidiary name, jurisdiction and ownership percent (where given) from the filing\'s Exhibit 21, plus the raw exhibit text. Best-effort: HTML tables, "Name (Jurisdiction)" lines, plain-text columns and indented hierarchies.',
  tag: TAG,
  source: SOURCE,
  pathParams: accessionPath,
  params: cikParam,
  record: SubsidiariesRecord,
  cost: COST,
  async handler({ path, query, services, setCost }) {
    const m = await loadManifest(services, path.accession!, query.cik);
    const doc = m.documents.find((d) => d.type && /^EX-21/i.test(d.type))
      ?? m.documents.find((d) => !d.type && /ex-?21/i.test(d.file_name ?? ''));
    if (!doc) throw notFound(`Filing ${m.accession} (${m.form ?? 'unknown form'}) has no Exhibit 21`);
    const { value: ex, fetchedBytes, textBytes } = await loadDerived(services, m, doc, 'ex21', parseExhibit21);
    setCost(parseCost(fetchedBytes + textBytes));
    return envelope(m, [{
      accession: m.accession, exhibit: doc.type ?? 'EX-21', subsidiary_count: ex.rows.length, subsidiaries: ex.rows, raw_text: ex.text, source_url: doc.url,
    }], {});
  },
});

export default [documents, extract, insiders, events, subsidiaries];
