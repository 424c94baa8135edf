import { createReadStream } from 'node:fs';
import { writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse';
import { z } from 'zod';
import { defineIngester } from '../../ingest/pipeline/contract.ts';
import { localInputs } from '../../ingest/sources/common/local-inputs.ts';
import { defineTable } from '../../schemas/table.ts';
import { toBool, toInt } from '../../ingest/sources/common/normalize.ts';
import { defineList, defineLookup, f } from '../../api/core/endpoint.ts';
import { p, rangeIssue } from '../../api/core/params.ts';

/** A small dataset used only by the framework tests: CSV snapshots of "firms" keyed by id. */
export const firmsTable = defineTable({
  name: 'toy_firms',
  description: 'Framework test table',
  columns: {
    snapshot_date: { type: 'DATE', nullable: false },
    id: { type: 'VARCHAR', nullable: false },
    name: { type: 'VARCHAR', nullable: false },
    state: { type: 'VARCHAR' },
    aum: { type: 'BIGINT', nullable: false },
    active: { type: 'BOOLEAN' },
    source_url: { type: 'VARCHAR' },
  },
  partitionBy: 'snapshot_date',
  sortBy: ['aum', 'id'],
  primaryKey: ['id'],
});

/** `table`: the firms table or a variant of it (same columns, another name or layout), registered as an extra table. */
export function toyIngester(parserVersion = 1, table: typeof firmsTable = firmsTable) {
  return defineIngester({
    name: table.name,
    description: 'toy',
    tables: [table],
    dependsOn: [],
    parserVersion,
    source: 'toy_source',
    sourceUrls: ['https://example.invalid/firms'],
    argsHelp: '--from <dir> --date YYYY-MM-DD',
    inputs: (_ctx, args) => localInputs(args.from!, (n) => n.endsWith('.csv')),
    async load(ctx, inputs) {
      for (const input of inputs) {
        const date = input.path.match(/(\d{4}-\d{2}-\d{2})/)![1];
        let line = 1;
        for await (const rec of createReadStream(input.path).pipe(parse({ columns: true, relax_column_count: true }))) {
          line++;
          const aum = toInt(rec.aum);
          if (aum == null) {
            ctx.badRow({ file: input.path, line, reason: `aum not a number: '${rec.aum}'` });
            continue;
          }
          await ctx.append(
            table,
            {
              snapshot_date: date,
              id: rec.id,
              name: `${rec.name}${parserVersion > 1 ? ' v2' : ''}`,
              state: rec.state || null,
              aum,
              active: toBool(rec.active),
              source_url: `https://example.invalid/firms/${rec.id}`,
            },
            { file: input.path, line },
          );
        }
      }
    },
  });
}

export async function writeToyCsv(dir: string, date: string, n: number, opts: { badLines?: number[]; noState?: (i: number) => boolean } = {}): Promise<string> {
  await mkdir(dir, { recursive: true });
  const lines = ['id,name,state,aum,active'];
  for (let i = 1; i <= n; i++) {
    const bad = opts.badLines?.includes(i + 1);
    const state = opts.noState?.(i) ? '' : ['NY', 'CA', 'TX'][i % 3];
    lines.push(`F${String(i).padStart(5, '0')},Firm ${i},${state},${bad ? 'lots' : ((i * 7919) % 1000) * 1000},${i % 2 ? 'Y' : 'N'}`);
  }
  const file = join(dir, `firms-${date}.csv`);
  await writeFile(file, `${lines.join('\n')}\n`);
  return file;
}

const Firm = z.object({
  id: z.string(),
  name: z.string(),
  state: z.string().nullable(),
  aum: z.number().int(),
  active: z.boolean().nullable(),
  source: z.string(),
  source_url: z.string().nullable(),
});
const toRecord = (r: Record<string, unknown>) => ({
  id: String(r.id),
  name: String(r.name),
  state: (r.state as string) ?? null,
  aum: Number(r.aum),
  active: (r.active as boolean) ?? null,
  source: 'toy_source',
  source_url: (r.source_url as string) ?? null,
});

export const toyEndpoints = [
  defineList({
    path: '/v1/toy-firms',
    summary: 'Toy firms',
    tag: 'Test',
    source: 'toy_source',
    table: firmsTable,
    scope: 'latest_partition',
    params: {
      aum_min: p.int({ ge: 0 }),
      aum_max: p.int({ ge: 0 }),
      state: p.str({ pattern: /^[A-Z]{2}$/, upper: true }),
      active: p.bool(),
      q: p.str(),
    },
    filters: { aum_min: f.gte('aum'), aum_max: f.lte('aum'), state: f.eq('state'), active: f.flag('active'), q: f.contains('name') },
    validate: (v) => [rangeIssue(v, 'aum_min', 'aum_max')],
    orderBy: [
      { column: 'aum', dir: 'desc' },
      { column: 'id', dir: 'asc' },
    ],
    record: Firm,
    toRecord,
  }),
  // Every snapshot, newest first: the page order starts with the partition column (api/core/page-query.ts).
  defineList({
    path: '/v1/toy-firms-history',
    summary: 'Toy firms, every snapshot',
    tag: 'Test',
    source: 'toy_source',
    table: firmsTable,
    params: { aum_min: p.int({ ge: 0 }), state: p.str({ pattern: /^[A-Z]{2}$/, upper: true }) },
    filters: { aum_min: f.gte('aum'), state: f.eq('state') },
    orderBy: [
      { column: 'snapshot_date', dir: 'desc' },
      { column: 'aum', dir: 'desc' },
      { column: 'id', dir: 'asc' },
    ],
    record: Firm,
    toRecord,
  }),
  defineLookup({
    path: '/v1/toy-firms/{id}',
    summary: 'One toy firm',
    tag: 'Test',
    source: 'toy_source',
    table: firmsTable,
    scope: 'latest_partition',
    pathParams: { id: p.str({ required: true }) },
    filters: { id: f.eq('id') },
    record: Firm,
    toRecord,
    notFound: (v) => `No firm with id ${v.id}`,
  }),
];
