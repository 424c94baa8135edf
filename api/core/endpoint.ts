import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { TableSpec } from '../../schemas/table.ts';
import type { ParamDefs, ParamValues, ValidationDetail } from './params.ts';

/**
 * Endpoint definitions. A dataset's API is a list of these (the module `api/<dataset>/routes.ts` default-exports
 * an array); the app turns each into an Express route, a validator, a cost and an OpenAPI entry.
 */

export interface SqlBuilder {
  /** Registers a bound parameter and returns its placeholder (`$3`). User input only ever enters SQL this way. */
  param(value: unknown): string;
}

/** A filter turns a validated parameter value into one SQL condition (column names are ours, values bound). */
export type Filter<T> = (value: T, b: SqlBuilder, all: Record<string, unknown>) => string | null;

export interface Warning {
  code: string;
  message: string;
}

export interface EnvelopeInput<R = unknown> {
  data: R[];
  page?: { limit: number; next_cursor: string | null; has_more: boolean };
  as_of?: string | null;
  source: string;
  query_echo?: Record<string, unknown>;
  warnings?: Warning[];
}

export interface OrderColumn {
  column: string;
  dir: 'asc' | 'desc';
}

/** How many credits a call costs: a fixed number, or a range scaled by result size inside the handler. */
export type Cost = number | { min: number; max: number };

interface Common {
  path: string;
  summary: string;
  description?: string;
  tag: string;
  /** Source label in the envelope. */
  source: string;
}

export interface ListEndpoint<P extends ParamDefs = ParamDefs, R = unknown> extends Common {
  kind: 'list';
  table: TableSpec;
  params: P;
  filters: { [K in keyof P]?: Filter<NonNullable<ParamValues<P>[K]>> };
  /** Cross-field checks (ranges); each issue becomes a 422 detail entry. */
  validate?: (values: ParamValues<P>) => (ValidationDetail | null)[];
  /**
   * Async normalization after validation (identifier resolution: ticker or name → CIK). May throw
   * `entityUnresolved`. The returned values are what the filters, `query_echo` and the cursor see.
   */
  resolve?: (values: ParamValues<P>, services: import('./services.ts').Services) => Promise<ParamValues<P>>;
  /** Snapshot datasets serve only their newest partition (and `as_of` is its date). */
  scope?: 'all' | 'latest_partition';
  /** Page order; the columns must be non-null and together unique (end with the primary key). */
  orderBy: OrderColumn[];
  /**
   * Another copy of the table, sorted for another selective filter (a covering "index"), chosen from the validated
   * values; its page order must follow its own sort. The cursor stays bound to the filters, hence to the variant.
   */
  variant?: (values: ParamValues<P>) => { table: TableSpec; orderBy: OrderColumn[] } | null;
  record: z.ZodType<R>;
  toRecord(row: Record<string, unknown>): R;
  cost?: number;
  defaultLimit?: number;
}

export interface LookupEndpoint<P extends ParamDefs = ParamDefs, R = unknown> extends Common {
  kind: 'lookup';
  table: TableSpec;
  pathParams: P;
  filters: { [K in keyof P]?: Filter<NonNullable<ParamValues<P>[K]>> };
  scope?: 'all' | 'latest_partition';
  /** When several rows match (history), the first in this order is served. */
  orderBy?: OrderColumn[];
  record: z.ZodType<R>;
  toRecord(row: Record<string, unknown>): R;
  notFound: (values: ParamValues<P>) => string;
  cost?: number;
}

export interface RouteContext<Q extends ParamDefs = ParamDefs, PP extends ParamDefs = ParamDefs, B = unknown> {
  query: ParamValues<Q>;
  path: ParamValues<PP>;
  body: B;
  /** The caller's account (null on public routes). */
  account: import('./auth.ts').Account | null;
  services: import('./services.ts').Services;
  /** For size-scaled costs: set the final cost within the route's declared range. */
  setCost(credits: number): void;
  req: Request;
  res: Response;
}

export interface CustomEndpoint<Q extends ParamDefs = ParamDefs, PP extends ParamDefs = ParamDefs, B = unknown, R = unknown> extends Common {
  kind: 'custom';
  method: 'get' | 'post' | 'patch' | 'delete';
  params?: Q;
  pathParams?: PP;
  body?: z.ZodType<B>;
  /** Status for body validation errors: docs/api-contract.md asks 400 on monitor/webhook bodies; 422 elsewhere. */
  bodyErrorStatus?: 400 | 422;
  validate?: (values: ParamValues<Q>) => (ValidationDetail | null)[];
  record: z.ZodType<R>;
  /** Default true; public routes (healthz, sources, openapi) set false. */
  auth?: boolean;
  cost?: Cost;
  /** 'envelope' (default) wraps in the standard envelope; 'raw' sends the handler's object as is. */
  shape?: 'envelope' | 'raw';
  successStatus?: number;
  handler(ctx: RouteContext<Q, PP, B>): Promise<EnvelopeInput<R> | Record<string, unknown>>;
}

export type Endpoint = ListEndpoint<any, any> | LookupEndpoint<any, any> | CustomEndpoint<any, any, any, any>;

/** An endpoint's credit range (a fixed cost is a range of one); the meter and the OpenAPI text both read it. */
export function costRange(ep: Endpoint, fallback: number): { min: number; max: number } {
  const c = ep.cost ?? fallback;
  return typeof c === 'number' ? { min: c, max: c } : c;
}

export function defineList<P extends ParamDefs, R>(e: Omit<ListEndpoint<P, R>, 'kind'>): ListEndpoint<P, R> {
  return { kind: 'list', ...e };
}
export function defineLookup<P extends ParamDefs, R>(e: Omit<LookupEndpoint<P, R>, 'kind'>): LookupEndpoint<P, R> {
  return { kind: 'lookup', ...e };
}
export function defineRoute<Q extends ParamDefs, PP extends ParamDefs, B, R>(
  e: Omit<CustomEndpoint<Q, PP, B, R>, 'kind'>,
): CustomEndpoint<Q, PP, B, R> {
  return { kind: 'custom', ...e };
}

/** Escapes LIKE wildcards so a user's `%` or `_` is matched literally. */
export function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Filter helpers: column names are ours, values always bound. */
export const f = {
  eq: <T>(col: string): Filter<T> => (v, b) => `"${col}" = ${b.param(v)}`,
  /** Case-insensitive equality. */
  ieq: (col: string): Filter<string> => (v, b) => `lower("${col}") = lower(${b.param(v)})`,
  /** Case-insensitive substring over one or more columns (any matches). */
  contains: (...cols: string[]): Filter<string> => (v, b) => {
    const ph = b.param(`%${likeEscape(v)}%`);
    return `(${cols.map((c) => `"${c}" ILIKE ${ph} ESCAPE '\\'`).join(' OR ')})`;
  },
  /** Case-insensitive prefix. */
  startsWith: (col: string): Filter<string> => (v, b) => `"${col}" ILIKE ${b.param(`${likeEscape(v)}%`)} ESCAPE '\\'`,
  gte: <T>(col: string): Filter<T> => (v, b) => `"${col}" >= ${b.param(v)}`,
  lte: <T>(col: string): Filter<T> => (v, b) => `"${col}" <= ${b.param(v)}`,
  gt: <T>(col: string): Filter<T> => (v, b) => `"${col}" > ${b.param(v)}`,
  lt: <T>(col: string): Filter<T> => (v, b) => `"${col}" < ${b.param(v)}`,
  /** Value is one of a list (from a comma-separated parameter). */
  inList: (col: string): Filter<string[]> => (v, b) => (v.length ? `"${col}" IN (${v.map((x) => b.param(x)).join(', ')})` : null),
  /** `true` → rows where the column is true; `false` → false or null. */
  flag: (col: string): Filter<boolean> => (v) => (v ? `"${col}" = true` : `coalesce("${col}", false) = false`),
  /** Free-form condition built by the dataset, e.g. a JSON array membership test. */
  sql: <T>(build: Filter<T>): Filter<T> => build,
};
