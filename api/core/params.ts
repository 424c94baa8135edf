import { z } from 'zod';
import { normalizeAccession, padCik, toIsoDate } from '../../ingest/sources/common/index.ts';

/**
 * Query and path parameters. Each helper is the single source of a parameter's validation, its 422 detail
 * (pydantic-style `type`/`ctx`, as docs/api-contract.md shows), its OpenAPI entry and its TypeScript type.
 */

export interface ParamIssue {
  type: string;
  msg: string;
  ctx?: Record<string, unknown>;
}

type Parsed<T> = { value: T } | { issue: ParamIssue };

export interface OpenApiSchema {
  type?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  enum?: readonly string[];
  default?: unknown;
  example?: unknown;
  items?: OpenApiSchema;
}

export interface ParamDef<T> {
  /** Converts the raw query value; adds pydantic-style issues on failure. */
  zod: z.ZodType<T>;
  openapi: OpenApiSchema;
  description: string;
  required: boolean;
}

export interface ParamOptions {
  description?: string;
  example?: unknown;
}

function build<T>(
  parse: (s: string) => Parsed<T>,
  openapi: OpenApiSchema,
  opts: ParamOptions & { required?: boolean; emptyIsAbsent?: boolean; defaultValue?: T },
): ParamDef<T | undefined> {
  const required = opts.required ?? false;
  const zod = z.any().transform((raw, ctx): T | undefined => {
    // A repeated query parameter counts once: the last value wins, as in most web frameworks.
    const v = Array.isArray(raw) ? raw[raw.length - 1] : raw;
    if (v === undefined || (v === '' && opts.emptyIsAbsent)) {
      if (required) {
        ctx.addIssue({ code: 'custom', message: 'Field required', params: { type: 'missing' }, input: null });
        return z.NEVER;
      }
      return opts.defaultValue;
    }
    const r = parse(String(v));
    if ('issue' in r) {
      ctx.addIssue({ code: 'custom', message: r.issue.msg, params: { type: r.issue.type, ctx: r.issue.ctx }, input: v });
      return z.NEVER;
    }
    return r.value;
  });
  return {
    zod: zod as unknown as z.ZodType<T | undefined>,
    openapi: { ...openapi, ...(opts.example !== undefined ? { example: opts.example } : {}) },
    description: opts.description ?? '',
    required,
  };
}

function bounds(n: number, o: { ge?: number; le?: number }): ParamIssue | null {
  if (o.ge !== undefined && n < o.ge) return { type: 'greater_than_equal', msg: `Input should be greater than or equal to ${o.ge}`, ctx: { ge: o.ge } };
  if (o.le !== undefined && n > o.le) return { type: 'less_than_equal', msg: `Input should be less than or equal to ${o.le}`, ctx: { le: o.le } };
  return null;
}

export interface StrOptions extends ParamOptions {
  pattern?: RegExp;
  /** Shown in the 422 `ctx.pattern`; defaults to the regex source. */
  patternText?: string;
  upper?: boolean;
  lower?: boolean;
  maxLength?: number;
  required?: boolean;
}

export const p = {
  str(o: StrOptions = {}) {
    return build<string>(
      (s) => {
        let v = s.trim();
        if (o.maxLength && v.length > o.maxLength) {
          return { issue: { type: 'string_too_long', msg: `String should have at most ${o.maxLength} characters`, ctx: { max_length: o.maxLength } } };
        }
        if (o.upper) v = v.toUpperCase();
        if (o.lower) v = v.toLowerCase();
        if (o.pattern && !o.pattern.test(v)) {
          const pattern = o.patternText ?? o.pattern.source;
          return { issue: { type: 'string_pattern_mismatch', msg: `String should match pattern '${pattern}'`, ctx: { pattern } } };
        }
        return { value: v };
      },
      { type: 'string', ...(o.pattern ? { pattern: o.patternText ?? o.pattern.source } : {}) },
      { ...o, emptyIsAbsent: !o.required },
    );
  },

  int(o: ParamOptions & { ge?: number; le?: number; required?: boolean; default?: number } = {}) {
    return build<number>(
      (s) => {
        if (!/^[-+]?\d+$/.test(s.trim()))
          return { issue: { type: 'int_parsing', msg: 'Input should be a valid integer, unable to parse string as an integer' } };
        const n = Number(s);
        if (!Number.isSafeInteger(n)) return { issue: { type: 'int_parsing', msg: 'Input should be a valid integer, number too large' } };
        const b = bounds(n, o);
        return b ? { issue: b } : { value: n };
      },
      {
        type: 'integer',
        ...(o.ge !== undefined ? { minimum: o.ge } : {}),
        ...(o.le !== undefined ? { maximum: o.le } : {}),
        ...(o.default !== undefined ? { default: o.default } : {}),
      },
      { ...o, defaultValue: o.default },
    );
  },

  float(o: ParamOptions & { ge?: number; le?: number; required?: boolean } = {}) {
    return build<number>(
      (s) => {
        const t = s.trim();
        if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(t))
          return { issue: { type: 'float_parsing', msg: 'Input should be a valid number, unable to parse string as a number' } };
        const n = Number(t);
        // `1e309` parses to Infinity, which no column compares with: pydantic's own refusal of it.
        if (!Number.isFinite(n)) return { issue: { type: 'finite_number', msg: 'Input should be a finite number' } };
        const b = bounds(n, o);
        return b ? { issue: b } : { value: n };
      },
      { type: 'number', ...(o.ge !== undefined ? { minimum: o.ge } : {}), ...(o.le !== undefined ? { maximum: o.le } : {}) },
      o,
    );
  },

  bool(o: ParamOptions & { required?: boolean } = {}) {
    return build<boolean>(
      (s) => {
        const t = s.trim().toLowerCase();
        if (['true', '1', 'yes', 'on', 't', 'y'].includes(t)) return { value: true };
        if (['false', '0', 'no', 'off', 'f', 'n'].includes(t)) return { value: false };
        return { issue: { type: 'bool_parsing', msg: 'Input should be a valid boolean, unable to interpret input' } };
      },
      { type: 'boolean' },
      o,
    );
  },

  /** `YYYY-MM-DD`, a real calendar date (2024-13-01 → 422). */
  date(o: ParamOptions & { required?: boolean } = {}) {
    return build<string>(
      (s) => {
        const t = s.trim();
        const iso = /^\d{4}-\d{2}-\d{2}$/.test(t) ? toIsoDate(t) : null;
        if (!iso) return { issue: { type: 'date_parsing', msg: 'Input should be a valid date in the format YYYY-MM-DD', ctx: { format: 'YYYY-MM-DD' } } };
        return { value: iso };
      },
      { type: 'string', format: 'date' },
      { ...o, emptyIsAbsent: false },
    );
  },

  /**
   * `YYYY-MM-DD` or an ISO 8601 UTC timestamp (`2024-03-01T12:30:00Z`, seconds and fraction optional), a real date
   * and time (2024-02-30 → 422, not a cast error of the database); normalized to `YYYY-MM-DD` or
   * `YYYY-MM-DDTHH:MM:SS[.fff]` without the `Z`.
   */
  timestamp(o: ParamOptions & { required?: boolean } = {}) {
    const pattern = '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,6})?)?Z?)?$';
    return build<string>(
      (s) => {
        const t = s.trim();
        const m = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,6})?)?Z?)?$/.exec(t);
        const date = m ? toIsoDate(m[1]) : null;
        const [hh, mm, ss] = [m?.[2], m?.[3], m?.[4]].map((x) => Number(x ?? 0));
        if (!m || !date || hh > 23 || mm > 59 || ss > 59) {
          return {
            issue: { type: 'datetime_parsing', msg: 'Input should be a valid date or UTC timestamp (YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ)', ctx: { pattern } },
          };
        }
        if (m[2] === undefined) return { value: date };
        const pad = (n: number) => String(n).padStart(2, '0');
        return { value: `${date}T${pad(hh)}:${pad(mm)}:${pad(ss)}${m[5] ?? ''}` };
      },
      { type: 'string', pattern },
      { ...o, emptyIsAbsent: false },
    );
  },

  enum<const T extends readonly string[]>(values: T, o: ParamOptions & { required?: boolean; lower?: boolean; upper?: boolean } = {}) {
    return build<T[number]>(
      (s) => {
        let t = s.trim();
        if (o.lower) t = t.toLowerCase();
        if (o.upper) t = t.toUpperCase();
        if ((values as readonly string[]).includes(t)) return { value: t as T[number] };
        const expected = values.map((v) => `'${v}'`).join(', ');
        return { issue: { type: 'enum', msg: `Input should be ${expected}`, ctx: { expected } } };
      },
      { type: 'string', enum: values },
      o,
    );
  },

  /** A CIK with or without leading zeros; normalized to 10 digits. */
  cik(o: ParamOptions & { required?: boolean } = {}) {
    return build<string>(
      (s) => {
        const v = padCik(s);
        if (!v)
          return { issue: { type: 'string_pattern_mismatch', msg: "String should match pattern '^(CIK)?\\d{1,10}$'", ctx: { pattern: '^(CIK)?\\d{1,10}$' } } };
        return { value: v };
      },
      { type: 'string', pattern: '^(CIK)?\\d{1,10}$' },
      { ...o, example: o.example ?? '0000320193' },
    );
  },

  /** An accession number with or without dashes; normalized to `0001234567-24-000123`. */
  accession(o: ParamOptions & { required?: boolean } = {}) {
    const pattern = '^\\d{10}-?\\d{2}-?\\d{6}$';
    return build<string>(
      (s) => {
        const v = normalizeAccession(s);
        if (!v) return { issue: { type: 'string_pattern_mismatch', msg: `String should match pattern '${pattern}'`, ctx: { pattern } } };
        return { value: v };
      },
      { type: 'string', pattern },
      { ...o, example: o.example ?? '0000320193-24-000123' },
    );
  },

  /** Comma-separated list, trimmed, empties dropped. */
  csv(o: ParamOptions & { required?: boolean; upper?: boolean; item?: RegExp; itemText?: string } = {}) {
    return build<string[]>(
      (s) => {
        const items = s
          .split(',')
          .map((x) => (o.upper ? x.trim().toUpperCase() : x.trim()))
          .filter(Boolean);
        if (o.item) {
          const bad = items.find((x) => !o.item!.test(x));
          if (bad !== undefined) {
            const pattern = o.itemText ?? o.item.source;
            return { issue: { type: 'string_pattern_mismatch', msg: `Each item should match pattern '${pattern}' (got '${bad}')`, ctx: { pattern } } };
          }
        }
        return { value: items };
      },
      { type: 'string' },
      o,
    );
  },
};

/** A CRD (firm or individual registration number), 1-10 digits; the lake stores it without leading zeros. */
export function crdParam(o: ParamOptions & { required?: boolean } = {}) {
  return p.str({ ...o, pattern: /^\d{1,10}$/, patternText: '^\\d{1,10}$' });
}

/** `000148826` → `148826`: how CRDs are stored (a lone `0` stays). */
export function withoutLeadingZeros(v: string): string {
  return v.replace(/^0+(?=\d)/, '');
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

/** The largest page a list serves (`limit`). */
export const MAX_PAGE_LIMIT = 100;

/**
 * Standard paging parameters (`limit` 1-100, default 25; opaque `cursor`). Built once per default and shared: every
 * list request asks for them, and building their zod schemas each time was ≈ 0.1 ms of a request's CPU (the
 * request-overhead bench's profile, docs/read-path.md).
 */
export function pagingParams(defaultLimit = 25): ParamDefs & { limit: ParamDef<number | undefined>; cursor: ParamDef<string | undefined> } {
  let defs = PAGING.get(defaultLimit);
  if (!defs) {
    defs = {
      limit: p.int({ ge: 1, le: MAX_PAGE_LIMIT, default: defaultLimit, description: `Page size, 1-${MAX_PAGE_LIMIT} (default ${defaultLimit}).` }),
      cursor: p.str({ description: 'Opaque cursor taken verbatim from `page.next_cursor`.' }),
    };
    PAGING.set(defaultLimit, defs);
  }
  return defs;
}

const PAGING = new Map<number, { limit: ParamDef<number | undefined>; cursor: ParamDef<string | undefined> }>();

export type ParamDefs = Record<string, ParamDef<unknown>>;
export type ParamValues<P extends ParamDefs> = { [K in keyof P]: P[K] extends ParamDef<infer T> ? T : never };

/** A 422 detail entry, exactly the API contract's shape (docs/api-contract.md). */
export interface ValidationDetail {
  loc: (string | number)[];
  msg: string;
  type: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
}

/** Validates raw query/path values against param defs; returns typed values or 422 details. */
export function parseParams<P extends ParamDefs>(
  defs: P,
  raw: Record<string, unknown>,
  where: 'query' | 'path',
): { ok: true; values: ParamValues<P> } | { ok: false; detail: ValidationDetail[] } {
  const values: Record<string, unknown> = {};
  const detail: ValidationDetail[] = [];
  for (const [name, def] of Object.entries(defs)) {
    const r = def.zod.safeParse(raw[name]);
    if (r.success) {
      if (r.data !== undefined) values[name] = r.data;
      continue;
    }
    for (const issue of r.error.issues) {
      const params = (issue as { params?: { type?: string; ctx?: Record<string, unknown> } }).params ?? {};
      const entry: ValidationDetail = { loc: [where, name], msg: issue.message, type: params.type ?? 'value_error' };
      if (params.type !== 'missing') entry.input = (issue as { input?: unknown }).input ?? raw[name];
      else entry.input = null;
      if (params.ctx) entry.ctx = params.ctx;
      detail.push(entry);
    }
  }
  // A misspelt filter (`stat=NY`) would otherwise be ignored and the caller served, and charged for, unfiltered data:
  // every query parameter the endpoint does not declare is refused, as the strictest public APIs do.
  if (where === 'query') {
    for (const name of Object.keys(raw)) {
      if (Object.hasOwn(defs, name)) continue;
      detail.push({ loc: ['query', name], msg: 'Extra inputs are not permitted', type: 'extra_forbidden', input: raw[name] });
    }
  }
  return detail.length ? { ok: false, detail } : { ok: true, values: values as ParamValues<P> };
}

/** A cross-field check failure (e.g. `aum_min` > `aum_max`), in the same 422 detail shape. */
export function crossFieldIssue(param: string, msg: string, input: unknown, ctx?: Record<string, unknown>): ValidationDetail {
  return { loc: ['query', param], msg, type: 'value_error', input, ...(ctx ? { ctx } : {}) };
}

/** Range check used by every `*_from`/`*_to`, `min_*`/`max_*` pair. */
export function rangeIssue(values: Record<string, unknown>, lo: string, hi: string): ValidationDetail | null {
  const a = values[lo];
  const b = values[hi];
  if (a === undefined || b === undefined || a === null || b === null) return null;
  if ((a as number | string) > (b as number | string)) {
    return crossFieldIssue(hi, `Value error, ${hi} must be greater than or equal to ${lo}`, b, { [lo]: a });
  }
  return null;
}
