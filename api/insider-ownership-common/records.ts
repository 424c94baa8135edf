import { z } from 'zod';

/** Lake values → API record values, shared by the insider, Form 144, ownership and raises endpoints. */

export { str, num, int, bool, isoDate, jsonList as jsonArray } from '../core/records.ts';

/** A Form 3/4/5 reporting owner, as `/v1/insider` and `/v1/filings/{accession}/insiders` both return it. */
export const OwnerRecord = z.object({
  cik: z.string().nullable(),
  name: z.string().nullable(),
  relationships: z.array(z.string()).describe('Director, Officer, TenPercentOwner, Other.'),
  officer_title: z.string().nullable(),
  other_text: z.string().nullable(),
});

export const CIK_TEXT = 'A CIK with or without leading zeros.';
export const FootnoteRecord = z.object({
  field: z.string().describe('Form element the footnote is attached to, e.g. transactionPricePerShare.'),
  id: z.string(),
  text: z.string().nullable(),
});

/** Filing-index URL on the regulator's site for an accession. */
export function filingUrl(cik: string | null, accession: string): string | null {
  return cik ? `https://www.sec.gov/Archives/edgar/data/${Number(cik)}/${accession.replace(/-/g, '')}/${accession}-index.htm` : null;
}
