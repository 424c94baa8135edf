import type { BadRow } from '../../../lake/staging.ts';
import type { LoadContext } from '../../common/context.ts';
import { sqlString } from '../../../lake/duck.ts';

/**
 * The regulator's bulk TSV data sets (Insider Transactions, Form D) read by DuckDB: tab-separated, header row,
 * no quoting. Everything is read as text and typed in SQL, so one odd value never drops a whole column.
 */

/**
 * Reads `path` into table `name` with every column VARCHAR plus `ds_row` (1-based line order of the file).
 * Columns in `expected` that the file lacks (older quarters, a missing member) are added as NULL so the SQL
 * over it stays the same. Lines DuckDB rejects (wrong column count…) are reported as bad rows.
 * Returns the column names the table ends up with.
 */
export async function readTsvTable(
  ctx: Pick<LoadContext, 'sql'>,
  name: string,
  path: string | null,
  expected: string[],
  badRow: (b: BadRow) => void,
): Promise<string[]> {
  if (path) {
    // Insertion order is what gives ds_row its meaning (the runner turns it off for speed).
    await ctx.sql(`SET preserve_insertion_order = true`);
    try {
      await ctx.sql(`CREATE OR REPLACE TEMP TABLE ${name} AS
        SELECT row_number() OVER () AS ds_row, * FROM read_csv(${sqlString(path)}, delim = '\t', header = true, quote = '', escape = '',
          all_varchar = true, null_padding = true, store_rejects = true, rejects_table = '${name}_rej', rejects_scan = '${name}_scan')`);
    } finally {
      await ctx.sql(`SET preserve_insertion_order = false`);
    }
    const rejects = await ctx.sql(`SELECT line, error_message FROM ${name}_rej ORDER BY line LIMIT 1000`);
    const file = path.split('/').pop()!;
    for (const r of rejects) badRow({ file, line: Number(r.line), reason: String(r.error_message).slice(0, 200) });
  } else {
    await ctx.sql(`CREATE OR REPLACE TEMP TABLE ${name} (ds_row BIGINT, ${expected.map((c) => `"${c}" VARCHAR`).join(', ')})`);
  }
  const cols = (await ctx.sql(`SELECT column_name FROM duckdb_columns() WHERE table_name = ${sqlString(name)}`)).map((r) => String(r.column_name));
  for (const c of expected) {
    if (!cols.includes(c)) {
      await ctx.sql(`ALTER TABLE ${name} ADD COLUMN "${c}" VARCHAR`);
      cols.push(c);
    }
  }
  return cols;
}

/** `DD-MON-YYYY` (any letter case) → DATE, null when unparsable. */
export function sqlDdMonYyyy(expr: string): string {
  return `CAST(try_strptime(trim(${expr}), '%d-%b-%Y') AS DATE)`;
}

/** Numeric text (commas allowed) → DOUBLE, null when empty or unparsable. */
export function sqlNum(expr: string): string {
  return `TRY_CAST(nullif(replace(trim(${expr}), ',', ''), '') AS DOUBLE)`;
}

/** 1/0, true/false, yes/no, Y/N → BOOLEAN. */
export function sqlBool(expr: string): string {
  return (
    `CASE lower(trim(${expr})) WHEN '1' THEN true WHEN 'true' THEN true WHEN 'yes' THEN true WHEN 'y' THEN true ` +
    `WHEN '0' THEN false WHEN 'false' THEN false WHEN 'no' THEN false WHEN 'n' THEN false END`
  );
}
