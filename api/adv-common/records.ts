import { z } from 'zod';

/** Shared helpers for the adviser-side API records. */

export { str, num, bool, isoDate, jsonList } from '../core/records.ts';

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
