import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { ErrorCode } from '../../schemas/errors.ts';
import type { OrderColumn, TableSpec } from '../../schemas/table.ts';
import type { ParamDefs, ParamValues, ValidationDetail } from './params.ts';

/**
 * Endpoint definitions. A dataset's API is a list of these (the module `api/<dataset>/routes.ts` default-exports
 * an array); the app turns each into an Express route, a validator, a cost and an OpenAPI entry.
 */

export interface SqlBuilder {
  /** Registers a bound parameter and returns its placeholder (`$3`). User input only ever enters SQL this way. */
  param(value: unknown): string;
}

/** A filter's SQL: one condition from a validated parameter value (column names are ours, values bound), or none. */
export type FilterSql<V> = (value: V, b: SqlBuilder, all: Record<string, unknown>) => string | null;

/**
 * A filter with the columns of the endpoint's table it reads. The columns type the filter (`C`: a list over a table
 * without `stat` refuses `f.eq('stat')` at compile time) and are checked again at start-up (`checkEndpoint`).
 * Columns of other tables a subquery reads are not listed: they are not the endpoint's to check.
 */
export type Filter<V, C extends string = string> = FilterSql<V> & { readonly columns: readonly C[]; readonly keys?: FilterKeys<V> };

/**
 * A filter decided by the keys of one column a query resolves from the value (a ticker to the CIKs that held it, an
 * industry to its filers: `f.keysOf`): the query runs once a request, before the filters' SQL is built
 * (api/core/compile.ts), and `where` then binds the keys, which the page also gets as the column's bound
 * (`ColumnBound.in`). A value resolving to more keys than the filter binds (`max`, by default as many as a key index
 * looks up: `MAX_LOOKUP_KEYS`, api/core/key-located.ts) keeps the query as a subquery of each read instead. Our SQL text, the value bound; the
 * query answers the keys as column `k`.
 */
export interface FilterKeys<V> {
  column: string;
  /** A SELECT of the keys as column `k`, the value (and any other of the request's values, `all`) bound through `b`. */
  query(value: V, b: SqlBuilder, all: Record<string, unknown>): string;
  /** The keys a value spells out itself (a manager's CIK given as digits): no query runs. Null: run the query. */
  known?(value: V): string[] | null;
  /**
   * Most keys bound (default `MAX_LOOKUP_KEYS`): a value resolving to more keeps the query as a subquery of each
   * read. A table without key indexes may bind more (a manager name's CIKs, up to 500, which the holdings summaries
   * test per quarter).
   */
  max?: number;
  /**
   * The condition over the resolved keys (none: a condition that holds for no row). Default: the column is one of
   * them (`keysIn`, api/core/sql.ts).
   */
  where?(keys: readonly string[], b: SqlBuilder): string;
}

/**
 * The column names of a table, as literal types when the table keeps its column keys (`defineTable` with literal
 * columns); plain `string` for a table typed only as `TableSpec`.
 */
export type ColumnOf<T extends TableSpec> = Extract<keyof T['columns'], string>;

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

export type { OrderColumn } from '../../schemas/table.ts';

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

/** Filters by parameter name: each takes that parameter's validated value and reads columns of the table (`C`). */
export type FiltersOf<P extends ParamDefs, C extends string> = { [K in keyof P]?: Filter<NonNullable<ParamValues<P>[K]>, C> };

/**
 * Another copy of a list's table, sorted for another selective filter (a covering "index"), served when `when` holds
 * for the validated values; its page order must follow its own sort. The filters run on it too, so it must have
 * their columns. The cursor stays bound to the filters, hence to the variant.
 */
export interface Variant<P extends ParamDefs = ParamDefs, C extends string = string> {
  when: (values: ParamValues<P>) => boolean;
  table: TableSpec;
  orderBy: OrderColumn<C>[];
}

/** What a list's validated filters bound on one column (`ListEndpoint.bounds`). */
export interface ColumnBound {
  /** Equality to one of these values. */
  in?: readonly string[];
  /** A minimum. */
  gte?: number;
}

export interface ListEndpoint<P extends ParamDefs = ParamDefs, R = unknown, C extends string = string> extends Common {
  kind: 'list';
  table: TableSpec;
  params: P;
  filters: FiltersOf<P, C>;
  /** Cross-field checks (ranges); each issue becomes a 422 detail entry. */
  validate?: (values: ParamValues<P>) => (ValidationDetail | null)[];
  /** Snapshot datasets serve only their newest partition (and `as_of` is its date). */
  scope?: 'all' | 'latest_partition';
  /** Page order; the columns must be non-null and together unique (end with the primary key). */
  orderBy: OrderColumn<C>[];
  variant?: Variant<P, C>;
  /**
   * What the validated (and resolved) values bound, per column: equality to one of `in`, a minimum `gte`. A table
   * with a key summary (`TableSpec.summary`) skips partitions that cannot match; the filters still apply in full.
   */
  bounds?: (values: ParamValues<P>) => Record<string, ColumnBound | undefined>;
  /**
   * How a page whose order starts with the partition column walks the partitions (api/core/page-query.ts): in
   * growing windows (`windows`, for many small partitions such as the events' days), and only within the partition
   * values `bounds` derives from the validated filters (inclusive, in the folder spelling; a filter on another
   * column that implies a range of partitions).
   */
  walk?: { windows?: boolean; bounds?: (values: ParamValues<P>) => { from?: string; to?: string } };
  record: z.ZodType<R>;
  toRecord(row: Record<string, unknown>): R;
  /** Credits per call; default the spec's filterable-list class (`DEFAULT_COST`). */
  cost?: number;
  defaultLimit?: number;
}

export interface LookupEndpoint<P extends ParamDefs = ParamDefs, R = unknown, C extends string = string> extends Common {
  kind: 'lookup';
  table: TableSpec;
  pathParams: P;
  filters: FiltersOf<P, C>;
  scope?: 'all' | 'latest_partition';
  /** When several rows match (history), the first in this order is served. */
  orderBy?: OrderColumn<C>[];
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
  /**
   * The calling key's balance (a key route only), read once per call: the credits header the call answers with
   * reports the same reading instead of reading the store again.
   */
  balance(): Promise<import('./credits.ts').Balance>;
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
  /**
   * Statuses besides success whose body is the route's own record (healthz: 503 with the same body, degraded), with
   * what they mean: for the OpenAPI document.
   */
  otherStatuses?: Record<number, string>;
  /**
   * Error codes the handler answers besides those its definition implies (api/core/statuses.ts derives 401/402/429
   * from auth and cost, 404 from path parameters, 400 from a body, 422 always): `conflict`, the live fetches'
   * `upstream_*`.
   */
  errors?: readonly ErrorCode[];
  handler(ctx: RouteContext<Q, PP, B>): Promise<EnvelopeInput<R> | Record<string, unknown>>;
}

// The set of every endpoint, whatever its parameter and record types: each is checked where it is declared
// (defineList/defineLookup/defineRoute), and the app dispatches on `kind` alone.
// biome-ignore lint/suspicious/noExplicitAny: see above
export type Endpoint = ListEndpoint<any, any> | LookupEndpoint<any, any> | CustomEndpoint<any, any, any, any>;

/** An endpoint's credit range (a fixed cost is a range of one); the meter and the OpenAPI text both read it. */
export function costRange(ep: Endpoint, fallback: number): { min: number; max: number } {
  const c = ep.cost ?? fallback;
  return typeof c === 'number' ? { min: c, max: c } : c;
}

/**
 * A list or lookup definition over the table `T`: its filters and orders may name only `T`'s columns (when `T` keeps
 * literal column keys). `NoInfer` keeps the column names out of inference, so a wrong name is reported where it is
 * written instead of widening the column type.
 */
type Definition<E, T extends TableSpec> = Omit<E, 'kind' | 'table'> & { table: T };

/**
 * A walk's bounds from a date range, for a list partitioned by a period of its order's date: the partitions (`of` a
 * date: its quarter, year, month, in the folder spelling) that the range's ends fall in.
 */
export function datePartitions(of: (isoDate: string) => string | number, from?: string, to?: string): { from?: string; to?: string } {
  return { from: from === undefined ? undefined : String(of(from)), to: to === undefined ? undefined : String(of(to)) };
}

export function defineList<T extends TableSpec, P extends ParamDefs, R>(e: Definition<ListEndpoint<P, R, NoInfer<ColumnOf<T>>>, T>): ListEndpoint<P, R> {
  return { kind: 'list', ...e };
}
export function defineLookup<T extends TableSpec, P extends ParamDefs, R>(e: Definition<LookupEndpoint<P, R, NoInfer<ColumnOf<T>>>, T>): LookupEndpoint<P, R> {
  return { kind: 'lookup', ...e };
}
export function defineRoute<Q extends ParamDefs, PP extends ParamDefs, B, R>(e: Omit<CustomEndpoint<Q, PP, B, R>, 'kind'>): CustomEndpoint<Q, PP, B, R> {
  return { kind: 'custom', ...e };
}

/** Escapes LIKE wildcards so a user's `%` or `_` is matched literally. */
export function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function filter<V, C extends string>(columns: readonly C[], sql: FilterSql<V>): Filter<V, C> {
  // A fresh function: the caller's may be shared (one builder under several parameters) and must not be marked.
  return Object.assign((value: V, b: SqlBuilder, all: Record<string, unknown>) => sql(value, b, all), { columns });
}

/**
 * Filter helpers: each names the columns it reads (typed by the endpoint's table, checked at start-up); values are
 * always bound.
 */
export const f = {
  eq: <C extends string>(col: C): Filter<unknown, C> => filter([col], (v, b) => `"${col}" = ${b.param(v)}`),
  /** Equality with the value normalized first (leading zeros of a CRD, dashes of an EIN…). */
  eqNormalized: <C extends string>(col: C, normalize: (v: string) => string): Filter<string, C> =>
    filter([col], (v, b) => `"${col}" = ${b.param(normalize(v))}`),
  /** Case-insensitive equality. */
  ieq: <C extends string>(col: C): Filter<string, C> => filter([col], (v, b) => `lower("${col}") = lower(${b.param(v)})`),
  /** Case-insensitive substring over one or more columns (any matches). */
  contains: <C extends string>(...cols: C[]): Filter<string, C> =>
    filter(cols, (v, b) => {
      const ph = b.param(`%${likeEscape(v)}%`);
      return `(${cols.map((c) => `"${c}" ILIKE ${ph} ESCAPE '\\'`).join(' OR ')})`;
    }),
  /** Case-insensitive prefix. */
  startsWith: <C extends string>(col: C): Filter<string, C> => filter([col], (v, b) => `"${col}" ILIKE ${b.param(`${likeEscape(v)}%`)} ESCAPE '\\'`),
  gte: <C extends string>(col: C): Filter<unknown, C> => filter([col], (v, b) => `"${col}" >= ${b.param(v)}`),
  lte: <C extends string>(col: C): Filter<unknown, C> => filter([col], (v, b) => `"${col}" <= ${b.param(v)}`),
  gt: <C extends string>(col: C): Filter<unknown, C> => filter([col], (v, b) => `"${col}" > ${b.param(v)}`),
  lt: <C extends string>(col: C): Filter<unknown, C> => filter([col], (v, b) => `"${col}" < ${b.param(v)}`),
  /** Value is one of a list (from a comma-separated parameter). */
  inList: <C extends string>(col: C): Filter<string[], C> =>
    filter([col], (v, b) => (v.length ? `"${col}" IN (${v.map((x) => b.param(x)).join(', ')})` : null)),
  /** `true` → rows where the column is true; `false` → false or null. */
  flag: <C extends string>(col: C): Filter<boolean, C> => filter([col], (v) => (v ? `"${col}" = true` : `coalesce("${col}", false) = false`)),
  /**
   * Free-form condition built by the dataset (a JSON array membership test…), with the table's columns it reads.
   * Annotate the value's type (`(v: string, b) => …`): TypeScript types this call before it knows the endpoint's
   * parameters, so an unannotated value would be `unknown`.
   */
  sql: <V, const C extends string>(columns: readonly C[], build: FilterSql<V>): Filter<V, C> => filter(columns, build),
  /**
   * Rows whose `keys.column` is one of the keys a query resolves from the value (`FilterKeys`): a ticker's filers
   * are looked up once a request, not once per file or quarter a page reads.
   */
  keysOf: <V, const C extends string>(columns: readonly C[], keys: FilterKeys<V>): Filter<V, C> =>
    // Called as a plain filter (keys not resolved first), the keys' query is its subquery.
    Object.assign((value: V, b: SqlBuilder, all: Record<string, unknown>) => `"${keys.column}" IN (SELECT k FROM (${keys.query(value, b, all)}))`, {
      columns,
      keys,
    }),
};
