import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkEndpoint } from '../../api/core/compile.ts';
import { defineList, defineLookup, f, type Endpoint } from '../../api/core/endpoint.ts';
import { p } from '../../api/core/params.ts';
import type { TableSpec } from '../../schemas/table.ts';

/**
 * Filters, page orders and variants name columns of the endpoint's table. A wrong name is a compile error (the
 * `@ts-expect-error` lines below: `tsc --noEmit` fails if one stops being an error) and, for definitions the compiler
 * cannot see through, a start-up error naming the endpoint and the column.
 */

// Literal column keys, as the lake tables keep them: the definitions below are typed by these names.
const firms = {
  name: 'check_firms',
  description: 'test table',
  columns: {
    snapshot_date: { type: 'DATE', nullable: false },
    id: { type: 'VARCHAR', nullable: false },
    state: { type: 'VARCHAR' },
    aum: { type: 'BIGINT', nullable: false },
  },
  partitionBy: 'snapshot_date',
  sortBy: ['aum', 'id'],
  primaryKey: ['id'],
} as const satisfies TableSpec;

const byState = { ...firms, name: 'check_firms_by_state', columns: { ...firms.columns, state: { type: 'VARCHAR', nullable: false } } } as const;
const { state: _state, ...columnsWithoutState } = firms.columns;
const withoutState = { ...firms, name: 'check_firms_slim', columns: columnsWithoutState } as const;

const Firm = z.object({ id: z.string() });
const common = { summary: 'firms', tag: 'Test', source: 'svc', record: Firm, toRecord: (r: Record<string, unknown>) => ({ id: String(r.id) }) };

const good = defineList({
  ...common,
  path: '/v1/check/good',
  table: firms,
  params: { state: p.str(), aum_min: p.int(), q: p.str(), id: p.str() },
  filters: {
    state: f.eq('state'),
    aum_min: f.gte('aum'),
    q: f.contains('id', 'state'),
    id: f.sql(['id'], (v: string, b) => `"id" = ${b.param(v.toUpperCase())}`),
  },
  orderBy: [
    { column: 'aum', dir: 'desc' },
    { column: 'id', dir: 'asc' },
  ],
  variant: {
    when: (v) => v.state !== undefined,
    table: byState,
    orderBy: [
      { column: 'state', dir: 'asc' },
      { column: 'id', dir: 'asc' },
    ],
  },
});

describe('checkEndpoint', () => {
  it('accepts a definition whose filters, orders and variant name columns of their tables', () => {
    expect(() => checkEndpoint(good)).not.toThrow();
  });

  it('refuses a filter on a column the table lacks, naming the endpoint and the column', () => {
    const ep = defineList({
      ...common,
      path: '/v1/check/misspelt',
      table: firms,
      params: { state: p.str() },
      // @ts-expect-error: `stat` is not a column of check_firms
      filters: { state: f.eq('stat') },
      orderBy: [{ column: 'id', dir: 'asc' }],
    });
    expect(() => checkEndpoint(ep)).toThrow(/\/v1\/check\/misspelt: filter state reads column stat, which is not in table check_firms/);
  });

  it('refuses a free-form filter whose declared columns are not in the table', () => {
    const ep = defineLookup({
      ...common,
      path: '/v1/check/{id}',
      table: firms,
      pathParams: { id: p.str({ required: true }) },
      // @ts-expect-error: `firm_id` is not a column of check_firms
      filters: { id: f.sql(['firm_id'], (v: string, b) => `"firm_id" = ${b.param(v)}`) },
      notFound: (v) => `no firm ${v.id}`,
    });
    expect(() => checkEndpoint(ep)).toThrow(/\/v1\/check\/\{id\}: filter id reads column firm_id/);
  });

  it('refuses a page order on a column the table lacks', () => {
    const ep = defineList({
      ...common,
      path: '/v1/check/order',
      table: firms,
      params: {},
      filters: {},
      // @ts-expect-error: `crd` is not a column of check_firms
      orderBy: [{ column: 'crd', dir: 'asc' }],
    });
    expect(() => checkEndpoint(ep)).toThrow(/\/v1\/check\/order: order column crd is not in table check_firms/);
  });

  it('refuses a page order ending in a nullable column (rows equal up to a NULL cannot be told apart), accepts one before it', () => {
    const ep = defineList({ ...common, path: '/v1/check/nullable', table: firms, params: {}, filters: {}, orderBy: [{ column: 'state', dir: 'asc' }] });
    expect(() => checkEndpoint(ep)).toThrow(/\/v1\/check\/nullable: the last order column state must be declared nullable: false/);
    const before = defineList({
      ...common,
      path: '/v1/check/nullable-first',
      table: firms,
      params: {},
      filters: {},
      orderBy: [
        { column: 'state', dir: 'asc' },
        { column: 'id', dir: 'asc' },
      ],
    });
    expect(() => checkEndpoint(before)).not.toThrow();
  });

  it('refuses a list that filters or orders by a serving lookup column (copies hold it as NULL until the page is chosen)', () => {
    const looked = { ...firms, name: 'check_firms_lookup', servingLookup: { key: 'id', columns: ['state'] } } as const;
    const filtered = defineList({
      ...common,
      path: '/v1/check/lookup',
      table: looked,
      params: { state: p.str() },
      filters: { state: f.eq('state') },
      orderBy: [{ column: 'id', dir: 'asc' }],
    });
    expect(() => checkEndpoint(filtered)).toThrow(/\/v1\/check\/lookup: column state is a serving lookup column of check_firms_lookup/);
    const ordered = { ...byState, name: 'check_firms_lookup_order', servingLookup: { key: 'id', columns: ['state'] } } as const;
    const byLookup = defineList({
      ...common,
      path: '/v1/check/lookup-order',
      table: ordered,
      params: {},
      filters: {},
      orderBy: [
        { column: 'state', dir: 'asc' },
        { column: 'id', dir: 'asc' },
      ],
    });
    expect(() => checkEndpoint(byLookup)).toThrow(/column state is a serving lookup column/);
    // Read only on the rows a page returns: accepted.
    const shown = defineList({ ...common, path: '/v1/check/lookup-shown', table: looked, params: {}, filters: {}, orderBy: [{ column: 'id', dir: 'asc' }] });
    expect(() => checkEndpoint(shown)).not.toThrow();
  });

  it('refuses a variant table without a column the filters read', () => {
    const ep = defineList({ ...good, path: '/v1/check/variant', variant: { ...good.variant!, table: withoutState, orderBy: [{ column: 'id', dir: 'asc' }] } });
    expect(() => checkEndpoint(ep)).toThrow(/\/v1\/check\/variant \(variant check_firms_slim\): filter state reads column state/);
  });

  it('refuses a filter that does not say which columns it reads', () => {
    const raw = (v: unknown, b: { param(v: unknown): string }) => `"id" = ${b.param(v)}`;
    const ep = { ...good, path: '/v1/check/raw', filters: { id: raw } } as unknown as Endpoint;
    expect(() => checkEndpoint(ep)).toThrow(/\/v1\/check\/raw: filter id does not name the columns it reads/);
  });
});
