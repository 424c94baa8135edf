import type { BadRow } from '../../ingest/lake/staging.ts';
import type { DatasetIngester } from '../../ingest/pipeline/contract.ts';
import type { IngestArgs, LoadContext, RawInput } from '../../ingest/sources/common/context.ts';
import { loadSettings } from '../../schemas/settings.ts';
import { rowSchema } from '../../schemas/row-schema.ts';

/**
 * Runs an ingester's `load` against an in-memory sink: rows are validated with the same zod schema the lake
 * writer uses, so a parser test fails on exactly what the real run would reject.
 */
export interface Captured {
  rows: Record<string, Record<string, unknown>[]>;
  bad: BadRow[];
  invalid: { table: string; line?: number; issues: string }[];
}

export async function runLoad(ing: DatasetIngester, inputs: RawInput[], args: IngestArgs = {}): Promise<Captured> {
  const out: Captured = { rows: {}, bad: [], invalid: [] };
  const schemas = Object.fromEntries(ing.tables.map((t) => [t.name, rowSchema(t)]));
  const ctx: LoadContext = {
    http: null as never,
    settings: loadSettings({}),
    progress: { rows() {}, bytes() {}, note() {}, phase() {} },
    log() {},
    parserVersion: ing.parserVersion,
    async append(table, row, where) {
      const schema = schemas[table.name];
      if (!schema) throw new Error(`unknown table ${table.name}`);
      const r = schema.safeParse(row);
      if (!r.success) {
        out.invalid.push({ table: table.name, line: where?.line, issues: r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') });
        return;
      }
      (out.rows[table.name] ??= []).push(row);
    },
    badRow(b) {
      out.bad.push(b);
    },
    async sql() {
      throw new Error('sql() not available in the parser harness');
    },
  };
  await ing.load(ctx, inputs, args);
  return out;
}
