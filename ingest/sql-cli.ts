import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openSqlSession } from './lake/sql-session.ts';
import { formatRows, type OutputFormat } from './sql-format.ts';
import { repl } from './sql-repl.ts';
import { ALL_TABLES } from '../schemas/tables/index.ts';
import { dataDirs } from '../schemas/data-dirs.ts';
import { dropOutputOnceReaderGone } from './cli-stdout.ts';

/**
 * `npm run sql -- "<SQL>" [--format table|csv|json] [--out FILE]`: the lake as one view per table, read-only, so it
 * runs beside the server and an ingest. Without a query: the interactive prompt (ingest/sql-repl.ts). `--out` writes
 * the result with DuckDB's COPY (CSV, Parquet or JSON by the file's extension), never into the data folder.
 *
 * `npm run sql` runs this file bundled (ingest/cli-launch.cjs → dist/sql.cjs, docs/analyst-sql.md), so it imports
 * only what a query needs (no zod, no settings validation: `DATA_DIR` is the one setting it reads) and has no
 * top-level await (the bundle is CommonJS).
 */
dropOutputOnceReaderGone();
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { format: { type: 'string', default: 'table' }, tables: { type: 'boolean' }, out: { type: 'string' } },
});

async function main(): Promise<number> {
  const settings = dataDirs(process.env.DATA_DIR);
  const format = (['table', 'csv', 'json'].includes(values.format!) ? values.format : 'table') as OutputFormat;
  const session = await openSqlSession(settings.lakeDir, settings.dataDir, ALL_TABLES);
  try {
    if (values.tables) {
      for (const t of session.tables) console.log(`${t.name.padEnd(28)} ${t.description}`);
      return 0;
    }
    if (!positionals.length) return await repl(session, { format, historyFile: join(settings.dataDir, 'sql_history') });
    const sql = positionals.join(' ');
    if (values.out) {
      console.log(`${await session.copyTo(sql, values.out)} rows written to ${values.out}`);
      return 0;
    }
    for (const r of await session.run(sql)) console.log(formatRows(r.rows, format));
    return 0;
  } catch (err) {
    console.error(`sql error: ${(err as Error).message}`);
    return 1;
  } finally {
    session.close();
  }
}

void main().then((code) => {
  process.exitCode = code;
});
