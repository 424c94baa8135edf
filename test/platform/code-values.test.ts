import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineIngester } from '../../ingest/pipeline/contract.ts';
import { openDuck, queryRows } from '../../ingest/lake/duck.ts';
import { defineTable } from '../../schemas/table.ts';
import { localInputs } from '../../ingest/sources/common/local-inputs.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { firmsTable, writeToyCsv } from './toy-dataset.ts';

/**
 * `ctx.codeValues`: a loader that stages lines with SQL declares the values a `sortAsCodes` column holds, and the column
 * is staged as an ENUM of them (N-PORT: eight columns, from its per-filing table), which the sorted write sorts and
 * writes as the same strings. A staged value missing from the declaration fails the run loudly; rows that passed
 * through no declaration (staged with `append`, or carried over from the lake by a merge) add their values first.
 */
const codedFirms = defineTable({ ...firmsTable, name: 'toy_coded_firms', writeMode: 'merge', sortBy: ['state', 'id'], sortAsCodes: ['state'] });

function codedIngester(opts: { date: string; states: string[]; declared: string[]; appendOne?: boolean; declareFirst?: boolean; seen?: unknown[] }) {
  return defineIngester({
    name: codedFirms.name,
    description: 'toy, staged with SQL',
    tables: [codedFirms],
    dependsOn: [],
    parserVersion: 1,
    source: 'toy_source',
    sourceUrls: ['https://example.invalid/firms'],
    argsHelp: '--from <dir>',
    inputs: (_ctx, args) => localInputs(args.from!, (n) => n.endsWith('.csv')),
    async load(ctx) {
      const rows = opts.states.map((s, i) => `('${s}-${i}', '${s}')`).join(', ');
      const declare = () => ctx.codeValues?.(codedFirms, 'state', `SELECT * FROM (VALUES ${opts.declared.map((s) => `('${s}')`).join(', ')}) t(v)`);
      if (opts.declareFirst) await declare();
      await ctx.sql(
        `INSERT INTO staging_toy_coded_firms BY NAME SELECT DATE '${opts.date}' AS snapshot_date, id, 'Firm ' || id AS name, state, ` +
          `10 AS aum, 1 AS parser_version FROM (VALUES ${rows}) t(id, state)`,
      );
      if (!opts.declareFirst) await declare();
      opts.seen?.push(...(await ctx.sql(`SELECT data_type FROM duckdb_columns() WHERE table_name = 'staging_toy_coded_firms' AND column_name = 'state'`)));
      if (opts.appendOne)
        await ctx.append(codedFirms, { snapshot_date: opts.date, id: 'js-1', name: 'JS', state: 'WY', aum: 1, active: null, source_url: null });
    },
  });
}

describe('sort codes from the values a loader declares (ctx.codeValues)', () => {
  let app: TestApp;
  const from = () => ({ from: join(app.dataDir, 'in') });
  const written = async (date: string) => {
    const { instance, conn } = await openDuck();
    try {
      const file = join(app.dataDir, 'lake', codedFirms.name, `snapshot_date=${date}`, 'data.parquet');
      return (await queryRows(conn, `SELECT id, state FROM read_parquet('${file}')`)).map((r) => `${r.id}:${r.state}`);
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
  };

  beforeAll(async () => {
    app = await createTestApp({ extraTables: [codedFirms] });
    // The inputs step wants a file; the loader stages its own rows.
    await writeToyCsv(join(app.dataDir, 'in'), '2026-01-01', 1);
  });
  afterAll(() => app.close());

  it('a staged value the declaration lacks fails the run, declared before the rows or after them; nothing is written', async () => {
    for (const declareFirst of [true, false]) {
      const run = app.ingest(codedIngester({ date: '2026-01-01', states: ['NY', 'CA', 'TX'], declared: ['CA', 'NY'], declareFirst }), from());
      await expect(run).rejects.toThrow(/Could not convert string 'TX'/);
    }
    await expect(written('2026-01-01')).rejects.toThrow(/No files found|does not exist/);
  });

  it('the column is staged as codes and written as its text, sorted by it; values declared and never staged do no harm', async () => {
    const seen: unknown[] = [];
    const ingester = codedIngester({
      date: '2026-01-02',
      states: ['NY', 'CA', 'TX', 'CA'],
      declared: ['AK', 'CA', 'NY', 'TX', 'ZZ'],
      declareFirst: true,
      seen,
    });
    const summary = await app.ingest(ingester, from());
    expect(summary.rowsWritten).toBe(4);
    expect(seen).toEqual([{ data_type: "ENUM('AK', 'CA', 'NY', 'TX', 'ZZ')" }]);
    expect(await written('2026-01-02')).toEqual(['CA-1:CA', 'CA-3:CA', 'NY-0:NY', 'TX-2:TX']);
    const { instance, conn } = await openDuck();
    try {
      const file = join(app.dataDir, 'lake', codedFirms.name, 'snapshot_date=2026-01-02', 'data.parquet');
      const [col] = await queryRows(conn, `SELECT type, converted_type FROM parquet_schema('${file}') WHERE name = 'state'`);
      expect(col).toEqual({ type: 'BYTE_ARRAY', converted_type: 'UTF8' });
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
  });

  it('a row staged through append adds its values to the codes', async () => {
    const summary = await app.ingest(codedIngester({ date: '2026-01-03', states: ['NY', 'CA'], declared: ['CA', 'NY'], appendOne: true }), from());
    expect(summary.rowsWritten).toBe(3);
    expect(await written('2026-01-03')).toEqual(['CA-1:CA', 'NY-0:NY', 'js-1:WY']);
  });

  it('so do the rows a merge carries over from the lake', async () => {
    // The lake holds js-1 (WY) from the run before; this run declares only its own states.
    const summary = await app.ingest(codedIngester({ date: '2026-01-03', states: ['OR'], declared: ['OR'] }), from());
    expect(summary.rowsWritten).toBe(4);
    expect(await written('2026-01-03')).toEqual(['CA-1:CA', 'NY-0:NY', 'OR-0:OR', 'js-1:WY']);
  });

  it('a column that is not one of the table’s sortAsCodes is refused', async () => {
    const bad = defineIngester({
      ...codedIngester({ date: '2026-01-04', states: ['NY'], declared: ['NY'] }),
      async load(ctx) {
        await ctx.codeValues?.(codedFirms, 'name', `SELECT 'x' AS v`);
      },
    });
    await expect(app.ingest(bad, from())).rejects.toThrow(/toy_coded_firms\.name is not one of the table's sortAsCodes columns/);
  });
});
