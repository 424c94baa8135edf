import { z } from 'zod';

/** API records of /v1/insider (and the reporting owner /v1/filings/{accession}/insiders shares). */

/** A Form 3/4/5 reporting owner, as `/v1/insider` and `/v1/filings/{accession}/insiders` both return it. */
export const OwnerRecord = z.object({
  cik: z.string().nullable(),
  name: z.string().nullable(),
  relationships: z.array(z.string()).describe('Director, Officer, TenPercentOwner, Other.'),
  officer_title: z.string().nullable(),
  other_text: z.string().nullable(),
});

/** A Form 3/4/5 `ownerSignature`: the name as signed (often "/s/ …, attorney-in-fact") and its date. */
export const SignatureRecord = z.object({
  name: z.string().nullable(),
  date: z.string().nullable().describe('YYYY-MM-DD.'),
});

export const FootnoteRecord = z.object({
  field: z.string().describe('Form element the footnote is attached to, e.g. transactionPricePerShare.'),
  id: z.string(),
  text: z.string().nullable(),
});

export const InsiderTransaction = z.object({
  accession: z.string(),
  row_seq: z.number().int().describe("Position among the filing's transactions (Table I first, then Table II)."),
  form_type: z.string().nullable().describe('3, 4, 5 or an amendment 3/A, 4/A, 5/A.'),
  is_amendment: z.boolean(),
  filed_date: z.string(),
  period_of_report: z.string().nullable(),
  issuer: z.object({ cik: z.string(), name: z.string().nullable(), ticker: z.string().nullable() }),
  owners: z.array(OwnerRecord).describe("Every reporting owner; a joint filing's transactions belong to all of them."),
  relationship: z.string().nullable().describe("Union of the owners' relationships, comma-separated."),
  officer_title: z.string().nullable(),
  derivative: z.boolean().describe('True for Table II (options, RSUs, convertibles).'),
  security_title: z.string().nullable(),
  transaction_date: z.string().nullable(),
  deemed_execution_date: z.string().nullable(),
  trans_code: z.string().nullable().describe('P purchase, S sale, M exercise/settlement, A grant, F tax withholding, G gift, C conversion, …'),
  equity_swap_involved: z.boolean().nullable(),
  shares: z.number().nullable(),
  price_per_share: z.number().nullable().describe('USD; null when the filer gave the price only in a footnote.'),
  price_footnote: z.string().nullable().describe('Text of the footnotes on the price (weighted-average ranges, price given only in a footnote).'),
  acquired_disposed: z.string().nullable().describe('A acquired, D disposed.'),
  value_usd: z.number().nullable().describe('shares × price_per_share.'),
  shares_owned_after: z.number().nullable(),
  value_owned_after: z.number().nullable(),
  direct_indirect: z.string().nullable().describe('D direct, I indirect.'),
  nature_of_ownership: z.string().nullable(),
  conversion_or_exercise_price: z.number().nullable(),
  exercise_date: z.string().nullable(),
  expiration_date: z.string().nullable(),
  underlying_security_title: z.string().nullable(),
  underlying_security_shares: z.number().nullable(),
  aff10b5one: z.boolean().nullable().describe('Rule 10b5-1 checkbox of the filing (forms since 2023); null on older forms.'),
  footnotes: z.array(FootnoteRecord).describe('Every footnote reference of the row, resolved to its text.'),
  signatures: z.array(SignatureRecord).describe("The filing's owner signatures."),
  source: z.string(),
  source_kind: z.string().describe('data_set or xml.'),
  source_url: z.string().nullable(),
});
