import { z } from 'zod';
import type { ParamDef } from '../core/params.ts';
import { p } from '../core/params.ts';

/** Record helpers shared by the 13F, N-PORT and N-CEN routes. */
export { str, num, bool, isoDate as day } from '../core/records.ts';

/** Enriched-field shape of docs/api-contract.md: a resolved value with its confidence (0–1) and freshness. */
export function enriched<T extends z.ZodType>(value: T) {
  return z
    .object({
      value,
      confidence: z.number().describe('0–1: how sure the resolution is.'),
      as_of: z.string().nullable().describe('Date of the directory data the value comes from.'),
    })
    .nullable();
}

/** A boolean parameter that is `false` when absent (so its filter always applies). */
export function boolDefaultFalse(description: string): ParamDef<boolean> {
  const base = p.bool({ description });
  return {
    ...base,
    zod: base.zod.transform((v) => v ?? false) as unknown as ParamDef<boolean>['zod'],
    openapi: { ...base.openapi, default: false },
  };
}
