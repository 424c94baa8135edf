import { z } from 'zod';
import { OwnerRecord, SignatureRecord } from './insider.ts';

/** Records of the per-filing parsers (`/v1/filings/{accession}/…`). */

export const DocumentRecord = z.object({
  sequence: z.number().int().nullable().describe('Position in the submission; null for the complete submission text file.'),
  type: z.string().nullable().describe('Document type: 10-K, EX-21.1, GRAPHIC, XML, EX-101.INS …; null when only the directory listing was available.'),
  description: z.string().nullable(),
  file_name: z.string().nullable().describe('Null for unnamed documents of 1990s submissions (they live only in the .txt).'),
  size: z.number().int().nullable().describe('Bytes (uuencoded files: decoded size).'),
  url: z.string().describe('Direct URL on the archive.'),
});

export const ExtractRecord = z.object({
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

export const InsiderRowRecord = z.object({
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

export const InsidersRecord = z.object({
  accession: z.string(),
  form_type: z.string().nullable(),
  period_of_report: z.string().nullable(),
  issuer: z.object({ cik: z.string().nullable(), name: z.string().nullable(), ticker: z.string().nullable() }),
  owners: z.array(OwnerRecord),
  transactions: z.array(InsiderRowRecord).describe('Table I and Table II rows (transactions and holdings) in document order.'),
  footnotes: z.array(z.object({ id: z.string(), text: z.string() })),
  remarks: z.string().nullable(),
  signatures: z.array(SignatureRecord).describe('ownerSignature elements: signatureName and signatureDate (YYYY-MM-DD).'),
  source_url: z.string(),
});

export const EventItemRecord = z.object({
  item: z.string().describe('8-K item number (5.02); pre-2004 reports use 1-12.'),
  title: z.string().describe('Canonical item title.'),
  excerpt: z.string().nullable().describe('About the first 300 characters of the item text; null when only the header lists the item.'),
  detected_from: z.string().describe('document (heading found in the text) or header (declared in the filing header only).'),
  accession: z.string(),
  source_url: z.string(),
});

const SubsidiaryRecord = z.object({
  name: z.string(),
  jurisdiction: z.string().nullable(),
  ownership_percent: z.number().nullable().describe('Percent of voting securities owned, where the exhibit gives it.'),
  level: z.number().int().describe('0 = top level; deeper for indented plain-text hierarchies.'),
  parent: z.string().nullable(),
});

export const SubsidiariesRecord = z.object({
  accession: z.string(),
  exhibit: z.string().describe('Exhibit type, e.g. EX-21.1.'),
  subsidiary_count: z.number().int(),
  subsidiaries: z.array(SubsidiaryRecord),
  raw_text: z.string().describe('The exhibit as plain text.'),
  source_url: z.string(),
});

const CoverSecurityRecord = z.object({
  title: z.string().nullable().describe('Title of the class (dei:Security12bTitle).'),
  trading_symbol: z.string().nullable().describe('Null for a class listed without a symbol (dei:NoTradingSymbolFlag).'),
  exchange: z.string().nullable().describe('Exchange name as printed, e.g. The Nasdaq Stock Market LLC.'),
});

export const CoverRecord = z.object({
  accession: z.string(),
  form: z.string().describe('Form of the filing: 10-K, 10-Q, 8-K, 20-F, 40-F (or their /A).'),
  method: z.enum(['ixbrl', 'text']).describe('ixbrl: read from the inline XBRL dei: facts; text: read from the printed cover (documents without inline XBRL).'),
  fields_from_text: z.array(z.string()).describe('With method ixbrl: fields the dei: facts lacked and the printed cover supplied.'),
  document_type: z.string().nullable().describe('dei:DocumentType, or the FORM heading of the text.'),
  amendment: z.boolean().nullable(),
  registrant_name: z.string().nullable(),
  cik: z.string().nullable().describe('10-digit CIK (dei:EntityCentralIndexKey); null on the text path.'),
  file_number: z.string().nullable().describe('Commission file number.'),
  period_of_report: z.string().nullable().describe('YYYY-MM-DD: fiscal period end (10-K, 10-Q, 20-F, 40-F) or date of report (8-K).'),
  date_of_report: z.string().nullable().describe('8-K: date of the earliest event reported (= period_of_report); null for other forms.'),
  fiscal_year_end: z.string().nullable().describe('MM-DD (dei:CurrentFiscalYearEndDate).'),
  fiscal_year_focus: z.string().nullable(),
  fiscal_period_focus: z.string().nullable().describe('FY, Q1, Q2, Q3.'),
  filer_category: z.string().nullable().describe('Large accelerated filer, Accelerated filer, Non-accelerated filer …'),
  shares_outstanding: z
    .array(z.object({ shares: z.number(), as_of: z.string().nullable(), security_class: z.string().nullable() }))
    .describe('One entry per class (security_class: the XBRL class member; null for a single class).'),
  public_float: z.object({ amount_usd: z.number(), as_of: z.string().nullable() }).nullable(),
  securities: z.array(CoverSecurityRecord).describe('Securities registered under Section 12(b), with symbols and exchanges.'),
  state_of_incorporation: z.string().nullable(),
  irs_number: z.string().nullable().describe('IRS employer identification number.'),
  address: z.object({
    street1: z.string().nullable(),
    street2: z.string().nullable(),
    city: z.string().nullable(),
    state: z.string().nullable(),
    zip: z.string().nullable(),
    country: z.string().nullable(),
  }),
  phone: z.string().nullable(),
  well_known_seasoned_issuer: z.boolean().nullable().describe('Check mark; null when the cover does not ask (10-Q, 8-K) or neither box is ticked.'),
  shell_company: z.boolean().nullable(),
  emerging_growth_company: z.boolean().nullable(),
  document: z.string().nullable().describe('File the cover was read from.'),
  source_url: z.string(),
});
