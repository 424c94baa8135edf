import { z } from 'zod';

/** Record shapes several API areas share. */

/** An office address on the adviser side (Form ADV, IAPD, broker-dealer lists). */
export const OfficeAddress = z.object({
  street1: z.string().nullable(),
  street2: z.string().nullable().optional(),
  city: z.string().nullable(),
  state: z.string().nullable().describe('Two-letter state (US) as published; null for most foreign offices.'),
  postal_code: z.string().nullable(),
  country: z.string().nullable(),
});

/** The spec's enriched-field shape: a resolved value with its confidence (0–1) and freshness. */
export function enriched<T extends z.ZodType>(value: T) {
  return z
    .object({
      value,
      confidence: z.number().describe('0–1: how sure the resolution is.'),
      as_of: z.string().nullable().describe('Date of the directory data the value comes from.'),
    })
    .nullable();
}

/** A document linked from a release page (enforcement, litigation, suspensions, whistleblower orders). */
export const DocumentLink = z.object({ title: z.string(), url: z.string() });

/** A money amount parsed from a release's text, with the phrase it was read from. */
export const Amount = z
  .object({
    amount_usd: z.number().int().describe('Integer USD.'),
    text: z.string().describe('The phrase of the release the amount was parsed from (e.g. "$1.2 million").'),
  })
  .nullable();
