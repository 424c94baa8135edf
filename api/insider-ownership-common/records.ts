import { z } from 'zod';

/** Lake values → API record values, shared by the insider, Form 144, ownership and raises endpoints. */

export { str, num, int, bool, isoDate, jsonList as jsonArray } from '../core/records.ts';

export { OwnerRecord } from '../../schemas/records/reporting-owner.ts';

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
