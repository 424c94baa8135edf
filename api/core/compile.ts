import type { Request, Response } from 'express';
import { allColumns, type TableSpec } from '../../schemas/table.ts';
import { keysetCursor } from './cursor.ts';
import type {
  ColumnBound,
  CustomEndpoint,
  Endpoint,
  EnvelopeInput,
  Filter,
  FilterKeys,
  ListEndpoint,
  LookupEndpoint,
  OrderColumn,
  SqlBuilder,
} from './endpoint.ts';
import { ApiError, badRequest, ValidationError } from './errors.ts';
import { pagingParams, parseParams, type ParamDefs, type ValidationDetail } from './params.ts';
import { MAX_LOOKUP_KEYS } from './key-located.ts';
import { selectPage } from './page-query.ts';
import { duckType, keysIn, sqlBuilder } from './sql.ts';
import { orderSql } from '../../ingest/lake/index.ts';
import { toIsoDate } from '../../ingest/sources/common/index.ts';
import type { Services } from './services.ts';
import type { Account } from './auth.ts';
import type { Balance } from './credits.ts';

/** Turns endpoint definitions into request handlers: validation → SQL → envelope. */

/**
 * A list's page order names columns of its table, and ends in one declared `nullable: false`: the keyset steps over
 * NULLs of the columns before it (NULLs last, `keysetPredicate`), but rows equal up to a NULL last column could not be
 * told apart.
 */
function checkOrder(ep: { path: string; table: TableSpec }, order: OrderColumn[]): void {
  const cols = allColumns(ep.table);
  for (const o of order) {
    if (!cols[o.column]) throw new Error(`${ep.path}: order column ${o.column} is not in table ${ep.table.name}`);
  }
  const last = order[order.length - 1];
  if (last && cols[last.column].nullable !== false && last.column !== ep.table.partitionBy) {
    throw new Error(`${ep.path}: the last order column ${last.column} must be declared nullable: false (keyset paging cannot tell rows apart on a NULL)`);
  }
}

function checkFilters(path: string, table: TableSpec, filters: Record<string, unknown>): void {
  const cols = allColumns(table);
  for (const [param, filter] of Object.entries(filters)) {
    const columns = (filter as Partial<Filter<unknown>> | undefined)?.columns;
    if (typeof filter !== 'function' || !Array.isArray(columns)) {
      throw new Error(`${path}: filter ${param} does not name the columns it reads (build it with the f helpers, or f.sql with its columns)`);
    }
    for (const c of columns) {
      if (!cols[c]) throw new Error(`${path}: filter ${param} reads column ${c}, which is not in table ${table.name}`);
    }
  }
}

/**
 * Start-up check of a list or lookup definition: every column its filters, page order and variant name is in its
 * table (the variant's table for the variant), and a list's page orders can be keyset-paged. Throws naming the
 * endpoint and the column; custom routes have nothing to check here.
 */
export function checkEndpoint(ep: Endpoint): void {
  if (ep.kind === 'custom') return;
  checkFilters(ep.path, ep.table, ep.filters);
  if (ep.kind === 'lookup') {
    const cols = allColumns(ep.table);
    const missing = (ep.orderBy ?? []).find((o) => !cols[o.column]);
    if (missing) throw new Error(`${ep.path}: order column ${missing.column} is not in table ${ep.table.name}`);
    return;
  }
  checkOrder(ep, ep.orderBy);
  checkLookupColumns(ep.path, ep.table, ep.filters, ep.orderBy);
  if (ep.variant) {
    checkFilters(`${ep.path} (variant ${ep.variant.table.name})`, ep.variant.table, ep.filters);
    checkOrder({ path: `${ep.path} (variant ${ep.variant.table.name})`, table: ep.variant.table }, ep.variant.orderBy);
    checkLookupColumns(`${ep.path} (variant ${ep.variant.table.name})`, ep.variant.table, ep.filters, ep.variant.orderBy);
  }
}

/**
 * A list's pages read serving copies whose rows hold the table's lookup columns as NULL until the page's rows are
 * chosen (TableSpec.servingLookup): a filter or order on one would see only NULLs.
 */
function checkLookupColumns(path: string, table: TableSpec, filters: Record<string, unknown>, order: OrderColumn[]): void {
  const lifted = new Set(table.servingLookup?.columns ?? []);
  const read = [...Object.values(filters).flatMap((f) => (f as Filter<unknown>).columns), ...order.map((o) => o.column)];
  const hit = read.find((c) => lifted.has(c));
  if (hit)
    throw new Error(
      `${path}: column ${hit} is a serving lookup column of ${table.name} (filled in after the page's rows are chosen): no list may filter or order by it`,
    );
}

async function asOfFor(services: Services, table: TableSpec, scopePartition: string | null): Promise<string | null> {
  const info = await services.lake.tableInfo(table.name);
  if (scopePartition && /^\d{4}-\d{2}-\d{2}$/.test(scopePartition)) return `${scopePartition}T00:00:00Z`;
  return info.refreshedAt;
}

function validated<P extends ParamDefs>(defs: P, raw: Record<string, unknown>, where: 'query' | 'path') {
  const r = parseParams(defs, raw, where);
  if (!r.ok) throw new ValidationError(r.detail);
  return r.values as Record<string, unknown>;
}

function crossChecks(issues: (ValidationDetail | null)[] | undefined): void {
  const list = (issues ?? []).filter((x): x is ValidationDetail => x !== null);
  if (list.length) throw new ValidationError(list);
}

function whereClauses(filters: Record<string, unknown>, values: Record<string, unknown>, b: SqlBuilder, resolved: ResolvedKeys): string[] {
  const out: string[] = [];
  for (const [name, filter] of Object.entries(filters)) {
    const v = values[name];
    if (v === undefined || v === null || typeof filter !== 'function') continue;
    const keyed = resolved.get(name);
    const cond = keyed
      ? (keyed.spec.where ?? ((keys, b) => keysIn(keyed.spec.column, keys, b)))(keyed.keys, b)
      : (filter as (v: unknown, b: SqlBuilder, all: Record<string, unknown>) => string | null)(v, b, values);
    if (cond) out.push(cond);
  }
  return out;
}

/** Per keyed filter (`f.keysOf`) given a value: its definition and the keys its query resolved. */
type ResolvedKeys = Map<string, { spec: FilterKeys<unknown>; keys: string[] }>;

/** The keyed filters' keys, and whether one of them had more than it binds (it stays a subquery: `Filters.lookups`). */
interface Resolution {
  resolved: ResolvedKeys;
  lookups: boolean;
}

/**
 * Runs the keys query of each keyed filter given a value, once for the request (a ticker's filers), stopping past
 * the filter's most keys (`FilterKeys.max`; as many as a key index looks up, `MAX_LOOKUP_KEYS`, unless it says): a
 * filter with more is left out, and keeps its query as a subquery of each read. The LIMIT stops the lookup early for
 * a value with many keys (a common industry's 1,750 filers of 700,000 entities are met within the directory's first
 * percent). A value that spells out its keys (`FilterKeys.known`) runs no query.
 */
async function resolveKeys(services: Services, filters: Record<string, unknown>, values: Record<string, unknown>): Promise<Resolution> {
  const out: ResolvedKeys = new Map();
  let lookups = false;
  for (const [name, filter] of Object.entries(filters)) {
    const spec = (filter as Filter<unknown> | undefined)?.keys;
    const v = values[name];
    if (!spec || v === undefined || v === null) continue;
    const known = spec.known?.(v);
    if (known) {
      out.set(name, { spec, keys: known });
      continue;
    }
    const max = spec.max ?? MAX_LOOKUP_KEYS;
    const b = sqlBuilder();
    const sql = `SELECT k FROM (${spec.query(v, b, values)}) LIMIT ${max + 1}`;
    const keys = (await services.lake.query(sql, b.params)).map((r) => String(r.k));
    if (keys.length <= max) out.set(name, { spec, keys });
    else lookups = true;
  }
  return { resolved: out, lookups };
}

async function scopeClause(
  services: Services,
  table: TableSpec,
  scope: string | undefined,
  b: SqlBuilder,
): Promise<{ sql: string | null; partition: string | null }> {
  if (scope !== 'latest_partition') return { sql: null, partition: null };
  const info = await services.lake.tableInfo(table.name);
  if (!info.latestPartition) return { sql: null, partition: null };
  return { sql: `"${table.partitionBy}" = ${b.param(info.latestPartition)}::${duckType(table, table.partitionBy)}`, partition: info.latestPartition };
}

/**
 * What a keyset cursor's values must look like for the order's column types: a partition walk compares a cursor's
 * date with folder names before any SQL binds it, so a date is checked to be one (the HMAC already refuses edits).
 */
function keyShape(table: TableSpec, order: OrderColumn[]): (k: unknown[]) => boolean {
  const cols = allColumns(table);
  const types = order.map((o) => duckType(table, o.column));
  // A NULL is a position only in a nullable column (the keyset orders it last).
  const nullable = order.map((o) => o.column !== table.partitionBy && cols[o.column]?.nullable !== false);
  return (k) =>
    k.every((v, i) => (v === null ? nullable[i] : types[i] !== 'DATE' || (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) && toIsoDate(v) === v)));
}

/** `gate` runs after validation and before any work: the meter charges there, so a 422 costs nothing. */
export type Gate = () => Promise<void>;

/** A list request after validation: the definition it runs on (variant applied), its values and its filters' SQL. */
export interface FilteredList {
  ep: ListEndpoint;
  values: Record<string, unknown>;
  where: string[];
  params: unknown[];
  scope: { sql: string | null; partition: string | null };
  bounds?: Record<string, ColumnBound>;
  /** A keyed filter had too many keys to bind and reads its table in each read (`Filters.lookups`). */
  lookups: boolean;
}

/**
 * Validates a list request (its own parameters plus `extra`: paging for a page, the format for an export), runs the
 * cross-field checks, picks the variant, resolves the keyed filters' keys and builds the filters' SQL: one path for pages and exports,
 * so both answer the same 422s and select the same rows.
 */
export async function filterList(ep0: ListEndpoint, services: Services, raw: Record<string, unknown>, extra: ParamDefs): Promise<FilteredList> {
  let ep = ep0;
  const values = validated({ ...ep.params, ...extra }, raw, 'query');
  crossChecks(ep.validate?.(values as never));
  // checkEndpoint vetted the variant's table and order at start-up.
  if (ep.variant?.when(values as never)) ep = { ...ep, table: ep.variant.table, orderBy: ep.variant.orderBy };
  const { resolved, lookups } = await resolveKeys(services, ep.filters, values);
  const b = sqlBuilder();
  const where = whereClauses(ep.filters, values, b, resolved);
  const scope = await scopeClause(services, ep.table, ep.scope, b);
  if (scope.sql) where.push(scope.sql);
  const bounds = Object.fromEntries(Object.entries(ep.bounds?.(values as never) ?? {}).filter((e): e is [string, ColumnBound] => !!e[1]));
  // A keyed filter's keys bound its column too (a key index then finds the quarters holding a ticker's filers),
  // unless the list bound it already (a CIK given beside the ticker).
  for (const r of resolved.values()) bounds[r.spec.column] ??= { in: r.keys };
  return { ep, values, where, params: b.params, scope, bounds, lookups };
}

export async function runList(ep0: ListEndpoint, services: Services, req: Request, cursorSecret: string, gate: Gate): Promise<EnvelopeInput> {
  const {
    ep,
    values,
    where,
    params,
    scope: partition,
    bounds,
    lookups,
  } = await filterList(ep0, services, req.query as Record<string, unknown>, pagingParams(ep0.defaultLimit ?? 25));
  const limit = values.limit as number;
  const echo: Record<string, unknown> = { ...values };
  delete echo.cursor;
  // Bound to the endpoint and the filters (hence to the variant table the filters chose).
  const scope = { endpoint: ep.path, filters: echo };
  const cursorKey =
    typeof values.cursor === 'string' ? keysetCursor.read(cursorSecret, scope, values.cursor, ep.orderBy.length, keyShape(ep.table, ep.orderBy)) : null;
  await gate();
  const walk = { windows: ep.walk?.windows, ...ep.walk?.bounds?.(values as never) };
  const rows = await selectPage(services.lake, ep.table, ep.orderBy, { where, params, bounds, lookups }, limit + 1, cursorKey, walk);
  const hasMore = rows.length > limit;
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  const next =
    hasMore && last
      ? keysetCursor.issue(
          cursorSecret,
          scope,
          ep.orderBy.map((o) => last[o.column]),
        )
      : null;
  return {
    data: page.map((r) => ep.toRecord(r)),
    page: { limit, next_cursor: next, has_more: hasMore },
    as_of: await asOfFor(services, ep.table, partition.partition),
    source: ep.source,
    query_echo: echo,
    warnings: page.length ? [] : [{ code: 'empty_result', message: 'No records match the query.' }],
  };
}

export async function runLookup(ep: LookupEndpoint, services: Services, req: Request, gate: Gate): Promise<EnvelopeInput> {
  validated({}, req.query as Record<string, unknown>, 'query');
  const values = validated(ep.pathParams, req.params as Record<string, unknown>, 'path');
  await gate();
  const b = sqlBuilder();
  const where = whereClauses(ep.filters, values, b, (await resolveKeys(services, ep.filters, values)).resolved);
  const scope = await scopeClause(services, ep.table, ep.scope, b);
  if (scope.sql) where.push(scope.sql);
  const order = ep.orderBy?.length ? ` ORDER BY ${orderSql(ep.orderBy)}` : '';
  const rows = await services.lake.query(`SELECT * FROM "${ep.table.name}"${where.length ? ` WHERE ${where.join(' AND ')}` : ''}${order} LIMIT 1`, b.params);
  if (!rows.length) throw new ApiError('not_found', ep.notFound(values as never));
  return {
    data: [ep.toRecord(rows[0])],
    page: { limit: 1, next_cursor: null, has_more: false },
    as_of: await asOfFor(services, ep.table, scope.partition),
    source: ep.source,
    query_echo: values,
    warnings: [],
  };
}

export interface CustomRun {
  result: EnvelopeInput | Record<string, unknown>;
  cost: number | null;
}

export async function runCustom(
  ep: CustomEndpoint,
  services: Services,
  req: Request,
  res: Response,
  account: Account | null,
  gate: Gate,
  balance: () => Promise<Balance>,
): Promise<CustomRun> {
  const query = validated({ ...(ep.params ?? {}) }, req.query as Record<string, unknown>, 'query');
  crossChecks(ep.validate?.(query as never));
  const path = validated({ ...(ep.pathParams ?? {}) }, req.params as Record<string, unknown>, 'path');
  let body: unknown;
  if (ep.body) {
    const r = ep.body.safeParse(req.body ?? {});
    if (!r.success) {
      const detail: ValidationDetail[] = r.error.issues.map((i) => ({
        loc: ['body', ...i.path.map((x) => (typeof x === 'number' ? x : String(x)))],
        msg: i.message,
        type: i.code === 'invalid_type' && (i as { input?: unknown }).input === undefined ? 'missing' : i.code,
        input: (i as { input?: unknown }).input,
      }));
      // A 400 has one shape everywhere, the error body naming the member (the handlers' own 400s use it too); a 422
      // keeps the contract's `detail` list.
      if (ep.bodyErrorStatus === 400) {
        const first = detail[0];
        const param = first.loc.slice(1).join('.');
        throw badRequest(`Invalid body member ${param || '(body)'}: ${first.msg}`, param || undefined);
      }
      throw new ValidationError(detail, ep.bodyErrorStatus ?? 422);
    }
    body = r.data;
  }
  await gate();
  let cost: number | null = null;
  const result = await ep.handler({
    query: query as never,
    path: path as never,
    body,
    account,
    services,
    req,
    res,
    setCost(n) {
      cost = n;
    },
    balance,
  });
  return { result, cost };
}
