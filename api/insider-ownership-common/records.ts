import { z } from 'zod';

/** Lake values → API record values, shared by the insider, Form 144, ownership and raises endpoints. */

export const str = (v: unknown): string | null => (v == null || v === '' ? null : String(v));
export const num = (v: unknown): number | null => (v == null || v === '' ? null : Number(v));
export const int = (v: unknown): number | null => (v == null || v === '' ? null : Math.round(Number(v)));
export const bool = (v: unknown): boolean | null => (v == null ? null : Boolean(v));

export function isoDate(v: unknown): string | null {
  if (v == null) return null;
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  return String(v).slice(0, 10);
}

/** JSON columns come back from the lake as JSON text. */
export function jsonArray<T = unknown>(v: unknown): T[] {
  if (Array.isArray(v)) return v as T[];
  if (typeof v !== 'string' || !v) return [];
  try {
    const parsed = JSON.parse(v);
    return Array.isArray(parsed) ? (parsed as T[]) : [];
  } catch {
    return [];
  }
}

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
