import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import datasetEnforcement from '../../ingest/datasets/enforcement/dataset.ts';
import datasetEntities from '../../ingest/datasets/entities/dataset.ts';
import datasetFilings from '../../ingest/datasets/filings/dataset.ts';
import datasetForm144 from '../../ingest/datasets/form144/dataset.ts';
import datasetFormCrs from '../../ingest/datasets/form-crs/dataset.ts';
import datasetInsider from '../../ingest/datasets/insider/dataset.ts';
import datasetLitigation from '../../ingest/datasets/litigation/dataset.ts';
import datasetOwnership from '../../ingest/datasets/ownership/dataset.ts';
import datasetPatents from '../../ingest/datasets/patents/dataset.ts';
import datasetRaises from '../../ingest/datasets/raises/dataset.ts';
import datasetSuspensions from '../../ingest/datasets/trading-suspensions/dataset.ts';
import datasetWhistleblower from '../../ingest/datasets/whistleblower/dataset.ts';
import { keysetCursor } from '../../api/core/cursor.ts';
import { ALL_TABLES } from '../../schemas/tables/index.ts';
import { addEarlierPartitions, quarterOf } from '../support/earlier-partitions.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { pageAll as walk } from '../support/page-all.ts';

/**
 * Lists ordered newest first by a date whose quarter (year, fiscal year, month) is the table's partition walk the partitions newest first
 * (docs/layouts.md): the partition column leads their order. The pages must be the rows, in the order, of the one
 * query ordered by the date alone (the partition is the date's quarter or year on every row), and a first page the
 * newest partition fills reads that partition alone.
 */
const yearOf = (date: string) => `year(${date})`;
/** U.S. federal fiscal year: October to September. */
const fiscalYearOf = (date: string) => `year(${date}) + CASE WHEN month(${date}) >= 10 THEN 1 ELSE 0 END`;
const monthOf = (date: string) => `strftime(${date}, '%Y-%m')`;
const lists: {
  path: string;
  table: string;
  partition: string;
  date: string;
  order: string;
  /** A row's identity, on a record of the list and on a row of the table alike. */
  id: (d: any) => string;
  /** The partition of a date, in SQL (as the ingest derives it). */
  of: (date: string) => string;
}[] = [
  {
    path: '/v1/filings',
    table: 'filings',
    partition: 'filed_quarter',
    date: 'filed_date',
    order: 'filed_date DESC, accession DESC, cik',
    id: (d) => `${d.accession}/${d.cik}`,
    of: quarterOf,
  },
  {
    path: '/v1/insider',
    table: 'insider_transactions',
    partition: 'filed_quarter',
    date: 'filed_date',
    order: 'filed_date DESC, accession DESC, row_seq',
    id: (d) => `${d.accession}/${d.row_seq}`,
    of: quarterOf,
  },
  {
    path: '/v1/uspto-patent-grants',
    table: 'uspto_patent_grants',
    partition: 'grant_year',
    date: 'grant_date',
    order: 'grant_date DESC, patent_number',
    id: (d) => d.patent_number,
    of: yearOf,
  },
  {
    path: '/v1/enforcement',
    table: 'enforcement_actions',
    partition: 'action_year',
    date: 'action_date',
    order: 'action_date DESC, action_id',
    id: (d) => d.id ?? d.action_id,
    of: yearOf,
  },
  {
    path: '/v1/litigation',
    table: 'sec_litigation_releases',
    partition: 'release_year',
    date: 'release_date',
    order: 'release_date DESC, release_number',
    id: (d) => d.release_number,
    of: yearOf,
  },
  {
    path: '/v1/trading-suspensions',
    table: 'trading_suspensions',
    partition: 'suspension_year',
    date: 'suspension_date',
    order: 'suspension_date DESC, release_number',
    id: (d) => d.release_number,
    of: yearOf,
  },
  {
    path: '/v1/whistleblower',
    table: 'whistleblower_orders',
    partition: 'fiscal_year',
    date: 'order_date',
    order: 'order_date DESC, award_order_no',
    id: (d) => d.award_order_no,
    of: fiscalYearOf,
  },
  {
    path: '/v1/raises',
    table: 'form_d_offerings',
    partition: 'filed_quarter',
    date: 'filed_date',
    order: 'filed_date DESC, accession DESC',
    id: (d) => d.accession,
    of: quarterOf,
  },
  {
    path: '/v1/insider/form144',
    table: 'form144_notices',
    partition: 'filed_quarter',
    date: 'filed_date',
    order: 'filed_date DESC, accession DESC, row_seq',
    id: (d) => `${d.accession}/${d.row_seq}`,
    of: quarterOf,
  },
  {
    path: '/v1/ownership',
    table: 'beneficial_ownership',
    partition: 'filed_quarter',
    date: 'filed_date',
    order: 'filed_date DESC, accession DESC, row_seq',
    id: (d) => `${d.accession}/${d.row_seq}`,
    of: quarterOf,
  },
  {
    path: '/v1/nt-late',
    table: 'nt_late',
    partition: 'filed_quarter',
    date: 'filing_date',
    order: 'filing_date DESC, accession DESC, filer_cik',
    id: (d) => `${d.accession}/${d.filer_cik}`,
    of: quarterOf,
  },
  {
    path: '/v1/form-crs',
    table: 'form_crs',
    partition: 'filed_month',
    date: 'filed_date',
    order: 'filed_date DESC, filing_key',
    id: (d) => d.filing_id ?? d.filing_key,
    of: monthOf,
  },
];

/**
 * The samples hold one partition of each table: the same rows are written again one and two years earlier (date and
 * partition moved together), as the writer lays a partition out, so the lists have older partitions to walk.
 */
async function addEarlierYears(lakeDir: string): Promise<void> {
  for (const l of lists) {
    const spec = ALL_TABLES.find((t) => t.name === l.table)!;
    await addEarlierPartitions(join(lakeDir, l.table), spec, l.date, [{ years: 1 }, { years: 2 }], l.of);
  }
}

describe('date-ordered lists walk their partitions newest first', () => {
  let app: TestApp;
  const sql: string[] = [];
  /** Each query's table-reading SQL and whether it asked for late materialization. */
  const late: [sql: string, on: boolean][] = [];
  beforeAll(async () => {
    app = await createTestApp({ env: { METERING: 'off', RATE_LIMIT_RPS: '100000' } });
    const datasets = [datasetEntities, datasetFilings, datasetInsider, datasetPatents, datasetEnforcement, datasetLitigation, datasetSuspensions];
    datasets.push(datasetWhistleblower, datasetRaises, datasetForm144, datasetOwnership, datasetFormCrs);
    for (const d of datasets) await app.ingestSample(d, { skipDiff: true });
    await addEarlierYears(app.settings.lakeDir);
    await app.services.lake.refresh();
    const lake = app.services.lake;
    const original = lake.query;
    lake.query = (text, params, opts) => {
      sql.push(text);
      late.push([text, opts?.lateMaterialization === true]);
      return original.call(lake, text, params, opts);
    };
  });
  afterAll(() => app.close());

  async function pageAll(path: string, qs: string, limit: number, id: (d: any) => string): Promise<string[]> {
    return (await walk(app, path, { qs, limit, maxPages: 1000 })).map(id);
  }

  it.each(lists)('$path: the partition is the date’s on every row, and the pages are the date order’s', async (l) => {
    const [{ off, parts }] = await app.services.lake.query(
      `SELECT count(*) FILTER (WHERE CAST(${l.partition} AS VARCHAR) <> CAST(${l.of(l.date)} AS VARCHAR))::INTEGER AS off, ` +
        `count(DISTINCT ${l.partition})::INTEGER AS parts FROM ${l.table}`,
    );
    expect(off).toBe(0);
    expect(parts).toBeGreaterThan(1);
    const rows = await app.services.lake.query(`SELECT * FROM ${l.table} ORDER BY ${l.order}`);
    const want = rows.map((r) => l.id(r));
    expect(want.length).toBeGreaterThan(20);
    for (const limit of [7, 100]) expect(await pageAll(l.path, '', limit, l.id)).toEqual(want);
  });

  it.each(lists)('$path: a first page the newest partition fills reads that partition alone (its head, when the reader keeps one)', async (l) => {
    const [{ newest, n }] = await app.services.lake.query(
      `SELECT max(${l.partition})::VARCHAR AS newest, ` +
        `count(*) FILTER (WHERE ${l.partition} = (SELECT max(${l.partition}) FROM ${l.table}))::INTEGER AS n FROM ${l.table}`,
    );
    expect(n).toBeGreaterThan(2);
    sql.length = 0;
    const r = await app.get(`${l.path}?limit=2`);
    expect(r.body.data).toHaveLength(2);
    const reads = sql.filter((s) => s.includes(l.table));
    expect(reads).toHaveLength(1);
    // The filing index, insider transactions and patent grants declare a head (TableSpec.head): its table is the read.
    const head = app.services.lake.head(l.table, String(newest));
    expect(head !== null).toBe(['filings', 'insider_transactions', 'uspto_patent_grants'].includes(l.table));
    expect(reads[0]).toContain(head ? head.sql : `${l.partition}=${newest}/`);
  });

  it('insider pages run with late materialization (their table asks for it), filing pages without; the setting follows each query', async () => {
    late.length = 0;
    for (const q of ['/v1/insider?limit=3', '/v1/filings?limit=3', '/v1/insider?limit=100', '/v1/uspto-patent-grants?limit=3']) {
      expect((await app.get(q)).status).toBe(200);
    }
    const asked = (table: string) => [...new Set(late.filter(([s]) => s.includes(`/${table}/`) || s.includes(`head_${table}_`)).map(([, on]) => on))];
    expect(asked('insider_transactions')).toEqual([true]);
    expect(asked('filings')).toEqual([false]);
    expect(asked('uspto_patent_grants')).toEqual([false]);
    // On the pooled connections the session setting is switched to what each query asks, whichever ran before (not
    // prepared: a prepared statement keeps the setting it was planned under, as a page's statement does).
    const setting = "SELECT current_setting('late_materialization_max_rows')::INTEGER AS v";
    for (const on of [true, true, false, true, false, false]) {
      const [{ v }] = await app.services.lake.query(setting, [], { lateMaterialization: on, cache: false });
      expect(v).toBe(on ? 101 : 0);
    }
  });

  it('the filing and grant date bounds keep the walk inside their quarters (years)', async () => {
    sql.length = 0;
    const f = await app.get('/v1/filings?filed_from=2024-01-01&filed_to=2024-06-30&limit=100');
    expect(f.status).toBe(200);
    for (const d of f.body.data) expect(d.filed_date >= '2024-01-01' && d.filed_date <= '2024-06-30').toBe(true);
    for (const s of sql.filter((x) => x.includes('filings'))) expect(s).not.toMatch(/filed_quarter=(?!2024Q[12])/);
    sql.length = 0;
    const p = await app.get('/v1/uspto-patent-grants?grant_year=2023&grant_date_from=2024-01-01');
    expect(p.status).toBe(200);
    expect(p.body.data).toEqual([]);
    expect(sql.filter((x) => x.includes('uspto_patent_grants'))).toEqual([]);
  });

  // Each list's date bounds, as the newest partition's span: [list, the bounds' query string for the partition value].
  const bounded: [path: string, qs: (partition: string) => string][] = [
    ['/v1/enforcement', (y) => `date_from=${y}-01-01&date_to=${y}-12-31`],
    ['/v1/litigation', (y) => `date_from=${y}-01-01&date_to=${y}-12-31`],
    ['/v1/trading-suspensions', (y) => `date_from=${y}-01-01&date_to=${y}-12-31`],
    ['/v1/whistleblower', (fy) => `fiscal_year=${fy}`],
    ['/v1/ownership', (q) => `filed_from=${quarterStart(q)}&filed_to=${quarterStart(q)}`],
    ['/v1/nt-late', (q) => `filing_date_from=${quarterStart(q)}&filing_date_to=${quarterStart(q)}`],
    ['/v1/form-crs', (m) => `filed_after=${m}-01&filed_before=${m}-28`],
  ];
  it.each(bounded)('%s: date bounds within the newest partition read that partition alone', async (path, qs) => {
    const l = lists.find((x) => x.path === path)!;
    const [{ newest }] = await app.services.lake.query(`SELECT max(${l.partition})::VARCHAR AS newest FROM ${l.table}`);
    sql.length = 0;
    const r = await app.get(`${path}?${qs(String(newest))}&limit=100`);
    expect(r.status).toBe(200);
    const reads = sql.filter((x) => x.includes(`/${l.table}/`));
    expect(reads.length).toBeGreaterThan(0);
    for (const x of reads) expect([...x.matchAll(new RegExp(`${l.partition}=([^/]+)/`, 'g'))].map((m) => m[1])).toEqual([String(newest)]);
  });
});

describe('a cursor of the order before the partition led it', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ env: { METERING: 'off', RATE_LIMIT_RPS: '100000' } });
    await app.ingestSample(datasetEnforcement, { skipDiff: true });
  });
  afterAll(() => app.close());

  it('is a 422 on `cursor`; the same position in the new shape is served', async () => {
    const secret = 'test-cursor-secret-0123456789';
    const scope = { endpoint: '/v1/enforcement', filters: { limit: 2 } };
    const [row] = await app.services.lake.query(
      'SELECT action_year, action_date::VARCHAR AS d, action_id FROM enforcement_actions ORDER BY 1 DESC, 2 DESC, 3 LIMIT 1',
    );
    const now = keysetCursor.issue(secret, scope, [row.action_year, row.d, row.action_id]);
    const before = keysetCursor.issue(secret, scope, [row.d, row.action_id]);
    expect((await app.get(`/v1/enforcement?limit=2&cursor=${encodeURIComponent(now)}`)).status).toBe(200);
    const res = await app.get(`/v1/enforcement?limit=2&cursor=${encodeURIComponent(before)}`);
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc).toEqual(['query', 'cursor']);
  });
});

/** The first day of quarter `2024Q3`. */
function quarterStart(q: string): string {
  return `${q.slice(0, 4)}-${String((Number(q.slice(5)) - 1) * 3 + 1).padStart(2, '0')}-01`;
}
