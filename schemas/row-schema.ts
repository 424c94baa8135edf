import { z } from 'zod';
import type { ColumnSpec, JsonValue, TableSpec } from './table.ts';

/*
 * The row validators, apart from the table definitions so that what only reads tables (`npm run sql`, whose start
 * is measured: docs/analyst-sql.md) does not load zod: ~0.15 s of CPU at every start on this machine.
 */

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

function zodFor(col: ColumnSpec): z.ZodType {
  let t: z.ZodType;
  switch (col.type) {
    case 'VARCHAR':
      t = z.string();
      break;
    // z.any() would let null through a non-null JSON column (and NOT NULL would then fail the whole staging load).
    case 'JSON':
      t = col.nullable === false ? z.custom<JsonValue>((v) => v !== null && v !== undefined, 'expected a JSON value') : z.any();
      break;
    case 'BIGINT':
      t = z.number().int().or(z.bigint());
      break;
    case 'INTEGER':
      t = z.number().int();
      break;
    case 'DOUBLE':
      t = z.number();
      break;
    case 'BOOLEAN':
      t = z.boolean();
      break;
    case 'DATE':
      t = z.string().regex(ISO_DATE, 'expected YYYY-MM-DD');
      break;
    case 'TIMESTAMP':
      t = z.string().regex(/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/, 'expected an ISO timestamp');
      break;
  }
  return col.nullable === false ? t : t.nullable().optional();
}

/**
 * The row validator of a table, generated from its column list (one source of truth). Strict: a key the table
 * does not have is an error, not silently dropped, so a misspelt column cannot turn into a null one.
 */
export function rowSchema(spec: TableSpec): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, col] of Object.entries(spec.columns)) shape[name] = zodFor(col);
  return z.strictObject(shape);
}
