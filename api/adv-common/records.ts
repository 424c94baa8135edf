import { z } from 'zod';

/** Shared helpers for the adviser-side API records. */

/** JSON columns come back from the lake as JSON text. */
export function jsonList(v: unknown): string[] {
  if (Array.isArray(v)) return v as string[];
  if (typeof v !== 'string' || !v) return [];
  try {
    const parsed = JSON.parse(v);
    return Array.isArray(parsed) ? parsed : [];
  } catch {
    return [];
  }
}

export const str = (v: unknown): string | null => (v == null ? null : String(v));
export const num = (v: unknown): number | null => (v == null ? null : Number(v));
export const bool = (v: unknown): boolean | null => (v == null ? null : Boolean(v));

/** DATE columns may surface as Date objects or strings depending on the reader. */
export function isoDate(v: unknown): string | null {
  if (v == null) return null;
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  return String(v).slice(0, 10);
}

export const Address = z.object({
  street1: z.string().nullable(),
  street2: z.string().nullable().optional(),
  city: z.string().nullable(),
  state: z.string().nullable().describe('Two-letter state (US) as published; null for most foreign offices.'),
  postal_code: z.string().nullable(),
  country: z.string().nullable(),
});

/** Parameter patterns shared by the adviser-side lists. */
export const CRD_PATTERN = /^\d{1,10}$/;
export const STATE_PATTERN = /^[A-Z]{2}$/;
