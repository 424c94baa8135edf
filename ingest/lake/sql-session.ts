import { resolve, sep } from 'node:path';
import { StatementType, type DuckDBConnection } from '@duckdb/node-api';
import { openDuck, queryRows, resultRows, sqlString } from './duck.ts';
import { viewSql } from './layout.ts';
import type { TableSpec } from '../../schemas/table.ts';

/**
 * The analyst's SQL session over the lake (`npm run sql`): an in-memory DuckDB whose views are created on first
 * mention. Creating all ~35 views binds every Parquet footer of the lake (370 ms on the 124-file demo lake, seconds
 * on a full one) before the first answer; a statement names two or three tables, so only those are bound.
 *
 * Read-only by construction: statements that write files or reach outside the process (COPY, EXPORT, ATTACH,
 * INSTALL/LOAD) are refused by statement type before they run, so nothing here can put a file into the lake
 * folders the views list. Results go to files only through `copyTo`, which refuses any path inside the data folder.
 */

const REFUSED: Partial<Record<StatementType, string>> = {
  [StatementType.COPY]: 'COPY',
  [StatementType.COPY_DATABASE]: 'COPY FROM DATABASE',
  [StatementType.EXPORT]: 'EXPORT DATABASE',
  [StatementType.ATTACH]: 'ATTACH',
  [StatementType.DETACH]: 'DETACH',
  [StatementType.LOAD]: 'LOAD',
  [StatementType.EXTENSION]: 'INSTALL',
  [StatementType.UPDATE_EXTENSIONS]: 'UPDATE EXTENSIONS',
};

class RefusedStatement extends Error {}

export interface StatementResult {
  sql: string;
  rows: Record<string, unknown>[];
}

export interface SqlSession {
  tables: readonly TableSpec[];
  /** Runs one or more `;`-separated statements; returns each statement's rows. Throws `RefusedStatement` first. */
  run(sql: string): Promise<StatementResult[]>;
  /** Writes one SELECT's result to `file` (format from the extension: .csv, .parquet, .json/.ndjson). */
  copyTo(sql: string, file: string): Promise<number>;
  close(): void;
}

const wordRe = (name: string) => new RegExp(`(^|[^A-Za-z0-9_])${name}([^A-Za-z0-9_]|$)`, 'i');

export async function openSqlSession(lakeDir: string, dataDir: string, tables: readonly TableSpec[]): Promise<SqlSession> {
  const { instance, conn } = await openDuck(':memory:', { threads: '2' });
  await conn.run('SET GLOBAL parquet_metadata_cache = true');
  const created = new Set<string>();
  const patterns = tables.map((t) => ({ spec: t, re: wordRe(t.name) }));

  async function viewsFor(sql: string): Promise<void> {
    for (const { spec, re } of patterns) {
      if (created.has(spec.name) || !re.test(sql)) continue;
      await conn.run(viewSql(lakeDir, spec));
      created.add(spec.name);
    }
  }

  async function statements(c: DuckDBConnection, sql: string) {
    const extracted = await c.extractStatements(sql);
    const prepared = [];
    for (let i = 0; i < extracted.count; i++) {
      const p = await extracted.prepare(i);
      const refused = REFUSED[p.statementType];
      if (refused) {
        throw new RefusedStatement(`${refused} is refused: this session is read-only (write a result with --out FILE, or \`.out FILE\` at the prompt)`);
      }
      prepared.push(p);
    }
    return prepared;
  }

  return {
    tables,
    async run(sql) {
      await viewsFor(sql);
      const out: StatementResult[] = [];
      const texts = splitStatements(sql);
      const prepared = await statements(conn, sql);
      for (const [i, p] of prepared.entries()) {
        out.push({ sql: texts[i] ?? '', rows: resultRows(await p.run()) });
      }
      return out;
    },
    async copyTo(sql, file) {
      const target = resolve(file);
      const data = resolve(dataDir);
      if (target === data || target.startsWith(data + sep)) throw new RefusedStatement(`--out ${file}: refused inside the data folder ${data}`);
      await viewsFor(sql);
      const [p, ...more] = await statements(conn, sql);
      if (!p || more.length || p.statementType !== StatementType.SELECT) throw new RefusedStatement('--out takes exactly one SELECT');
      const format = /\.parquet$/i.test(target) ? 'parquet' : /\.(nd)?json$/i.test(target) ? 'json' : 'csv';
      const body = sql.trim().replace(/;\s*$/, '');
      const rows = await queryRows(conn, `COPY (${body}) TO ${sqlString(target)} (FORMAT ${format}${format === 'csv' ? ', HEADER' : ''})`);
      return Number(rows[0]?.Count ?? rows[0]?.count ?? 0);
    },
    close() {
      conn.closeSync();
      instance.closeSync();
    },
  };
}

/** The statement texts of a `;`-separated script (quotes respected), for echoing which statement answered. */
function splitStatements(sql: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote: string | null = null;
  for (const ch of sql) {
    if (quote) {
      if (ch === quote) quote = null;
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === ';') {
      if (cur.trim()) out.push(cur.trim());
      cur = '';
      continue;
    }
    cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}
