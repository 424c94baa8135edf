import { createReadStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse';
import { defineIngester } from '../../ingest/pipeline/contract.ts';
import { localInputs } from '../../ingest/sources/common/local-inputs.ts';
import { defineTable } from '../../schemas/table.ts';

/**
 * A dataset with two tables holding the same rows in two orders (as 13F holdings and their manager-sorted copy):
 * the crash-safety tests check both always show the same run.
 */
const columns = {
  snapshot_date: { type: 'DATE', nullable: false },
  id: { type: 'VARCHAR', nullable: false },
  name: { type: 'VARCHAR', nullable: false },
} as const;
export const pairsById = defineTable({
  name: 'toy_pairs',
  description: 'crash test',
  columns,
  partitionBy: 'snapshot_date',
  sortBy: ['id'],
  primaryKey: ['id'],
});
export const pairsByName = defineTable({
  name: 'toy_pairs_by_name',
  description: 'crash test, sorted copy',
  columns,
  partitionBy: 'snapshot_date',
  sortBy: ['name', 'id'],
  primaryKey: ['id'],
});

export const twoTableIngester = defineIngester({
  name: 'toy_pairs',
  description: 'toy, two tables',
  tables: [pairsById, pairsByName],
  dependsOn: [],
  parserVersion: 1,
  source: 'toy_source',
  sourceUrls: ['https://example.invalid/pairs'],
  argsHelp: '--from <dir>',
  inputs: (_ctx, args) => localInputs(args.from!, (n) => n.endsWith('.csv')),
  async load(ctx, inputs) {
    for (const input of inputs) {
      let line = 1;
      for await (const rec of createReadStream(input.path).pipe(parse({ columns: true }))) {
        line++;
        const row = { snapshot_date: '2026-05-01', id: rec.id, name: rec.name };
        await ctx.append(pairsById, row, { file: input.path, line });
        await ctx.append(pairsByName, row, { file: input.path, line });
      }
    }
  },
});

/** `pairs-2026-05-01.csv` with `n` rows named `<label> <i>`. */
export async function writePairsCsv(dir: string, label: string, n = 10): Promise<void> {
  await mkdir(dir, { recursive: true });
  const rows = Array.from({ length: n }, (_, i) => `P${i},${label} ${i}`);
  await writeFile(join(dir, 'pairs-2026-05-01.csv'), `id,name\n${rows.join('\n')}\n`);
}
