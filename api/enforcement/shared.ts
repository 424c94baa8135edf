import { f, type Filter } from '../core/endpoint.ts';
import { p } from '../core/params.ts';

/** Record converters and parameters shared by the enforcement-family routes. */

/** The `Amount` record (schemas/records/shared.ts) of a parsed amount column and its phrase. */
export function amount(usd: unknown, text: unknown) {
  return usd == null ? null : { amount_usd: Number(usd), text: String(text ?? '') };
}

/**
 * A release-number parameter of one family: `LR-26040`, `lr26040` and `26040` are the same release
 * (the regulator prints all three); anything else is a 422 naming the parameter.
 */
export function releaseNumberParam(prefix: 'LR' | '34', description: string) {
  const pattern = prefix === 'LR' ? /^(LR[-\s]?)?\d{3,6}$/ : /^(34-)?\d{4,7}$/;
  return p.str({
    pattern,
    patternText: prefix === 'LR' ? '^(LR-?)?\\d{3,6}$' : '^(34-)?\\d{4,7}$',
    upper: true,
    maxLength: 20,
    description,
    example: prefix === 'LR' ? 'LR-26040' : '34-100512',
  });
}

export function releaseNumberFilter<C extends string>(column: C, prefix: 'LR' | '34'): Filter<string, C> {
  // The parameter pattern already admitted only `<prefix>-N`, `<prefix>N` (LR) or the bare number.
  return f.eqNormalized(column, (v) => `${prefix}-${prefix === 'LR' ? v.replace(/^LR[-\s]?/, '') : v.replace(/^34-/, '')}`);
}

export const dateParams = (what: string) => ({
  date_from: p.date({ description: `Earliest ${what} (YYYY-MM-DD, inclusive).` }),
  date_to: p.date({ description: `Latest ${what} (YYYY-MM-DD, inclusive).` }),
});
