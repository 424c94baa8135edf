import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { defineIngester } from '../../pipeline/contract.ts';
import type { LoadContext } from '../../sources/common/context.ts';
import { quarterBounds } from '../../sources/common/normalize.ts';
import { listLocal, sqlPath } from '../../sources/edgar/bulk/local-files.ts';
import { extractZipMembers } from '../../sources/common/zip.ts';
import { financialStatementsTable } from '../../../schemas/tables/financial-statements.ts';
import { writeFinancialStatementsSample } from './sample.ts';
import { SOURCE } from '../../../schemas/sources.ts';

const MEMBERS = ['sub.txt', 'num.txt', 'tag.txt'];

/** `2024q3.zip`, `2009q3_sample/` → `2024Q3`. */
export function quarterFromName(p: string): string | null {
  const m = p.match(/(\d{4})q([1-4])/i);
  return m ? `${m[1]}Q${m[2]}` : null;
}

/** The three members as files DuckDB can read: a folder is used as is, a zip is streamed out to a temp folder. */
async function materialize(path: string): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  if (!path.toLowerCase().endsWith('.zip')) return { dir: dirname(path), cleanup: async () => {} };
  const dir = await mkdtemp(join(tmpdir(), 'fsds-'));
  await extractZipMembers(path, dir, (n) => MEMBERS.includes(n.toLowerCase()), { as: (n) => n.toLowerCase() });
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

function reader(file: string, encoding: string): string {
  // No quoting in these files (text may hold quote characters); everything as text, typed below in SQL.
  return `read_csv(${sqlPath(file)}, delim = '\t', header = true, quote = '', escape = '', all_varchar = true, encoding = '${encoding}')`;
}

const DATE8 = (col: string) => `try_strptime(${col}, '%Y%m%d')::DATE`;

async function loadQuarter(ctx: LoadContext, dir: string, quarter: string, encoding: string): Promise<number> {
  const num = join(dir, 'num.txt');
  const sub = join(dir, 'sub.txt');
  const tag = join(dir, 'tag.txt');
  // Layouts differ (2024+ adds `segments`, moves `coreg`): columns are taken by header name.
  const numCols = new Set((await ctx.sql(`DESCRIBE SELECT * FROM ${reader(num, encoding)}`)).map((r) => String(r.column_name)));
  const segments = numCols.has('segments') ? `coalesce(n.segments, '')` : `''`;
  const tagJoin = existsSync(tag)
    ? `LEFT JOIN ${reader(tag, encoding)} t ON t.tag = n.tag AND t.version = n.version`
    : `LEFT JOIN (SELECT NULL::VARCHAR AS tag, NULL::VARCHAR AS version, NULL::VARCHAR AS custom, NULL::VARCHAR AS tlabel,
         NULL::VARCHAR AS datatype, NULL::VARCHAR AS iord, NULL::VARCHAR AS crdr) t ON false`;
  // num.txt is parsed once into the run's work database (which spills to disk), then checked and inserted from there.
  await ctx.sql(`CREATE OR REPLACE TABLE fsds_num AS SELECT * FROM ${reader(num, encoding)}`);
  await ctx.sql(`CREATE OR REPLACE TABLE fsds_sub AS SELECT * FROM ${reader(sub, encoding)}`);
  const from = `FROM fsds_num n LEFT JOIN fsds_sub s ON s.adsh = n.adsh ${tagJoin}`;

  // Rows that cannot be placed are reported (first 1,000 with reasons), never silently dropped.
  const bad = await ctx.sql(
    `SELECT n.adsh, n.tag, CASE WHEN s.adsh IS NULL THEN 'adsh not in sub.txt'
                                WHEN ${DATE8('n.ddate')} IS NULL THEN 'ddate is not YYYYMMDD'
                                WHEN try_cast(n.qtrs AS INTEGER) IS NULL THEN 'qtrs is not an integer'
                                WHEN n.uom IS NULL THEN 'uom missing'
                                ELSE 'value is not a number' END AS reason
       ${from}
      WHERE s.adsh IS NULL OR ${DATE8('n.ddate')} IS NULL OR try_cast(n.qtrs AS INTEGER) IS NULL OR n.uom IS NULL
         OR (n.value IS NOT NULL AND try_cast(n.value AS DOUBLE) IS NULL)
      LIMIT 1000`,
  );
  for (const b of bad) ctx.badRow({ file: num, line: null, reason: `${b.adsh} ${b.tag}: ${b.reason}` });

  const inserted = await ctx.sql(
    `INSERT INTO "staging_${financialStatementsTable.name}"
       (adsh, cik, company_name, sic, form, fiscal_year, fiscal_period, period, filed, accepted, prevrpt, tag, version, is_custom,
        tag_label, datatype, iord, crdr, ddate, qtrs, uom, segments, coreg, value, footnote, dataset_quarter, parser_version)
     SELECT n.adsh, lpad(s.cik, 10, '0'), s.name, nullif(s.sic, ''), s.form, try_cast(s.fy AS INTEGER), nullif(s.fp, ''),
            ${DATE8('s.period')}, ${DATE8('s.filed')}, try_cast(s.accepted AS TIMESTAMP), s.prevrpt = '1',
            n.tag, n.version, t.custom = '1', t.tlabel, t.datatype, t.iord, t.crdr,
            ${DATE8('n.ddate')}, try_cast(n.qtrs AS INTEGER), n.uom, ${segments}, coalesce(n.coreg, ''),
            try_cast(n.value AS DOUBLE), nullif(n.footnote, ''), $1, ${Number(ctx.parserVersion)}
       ${from}
      WHERE s.adsh IS NOT NULL AND ${DATE8('n.ddate')} IS NOT NULL AND try_cast(n.qtrs AS INTEGER) IS NOT NULL AND n.uom IS NOT NULL
        AND (n.value IS NULL OR try_cast(n.value AS DOUBLE) IS NOT NULL)`,
    [quarter],
  );
  await ctx.sql('DROP TABLE fsds_num');
  await ctx.sql('DROP TABLE fsds_sub');
  return Number((inserted[0] as Record<string, unknown> | undefined)?.Count ?? 0);
}

export default defineIngester({
  name: 'financial-statements',
  description: 'Financial Statement Data Sets (sub/num/tag), one quarter per run, loaded with DuckDB read_csv.',
  tables: [financialStatementsTable],
  dependsOn: [],
  parserVersion: 1,
  source: SOURCE.sec_fsds,
  sourceUrls: [
    'https://www.sec.gov/dera/data/financial-statement-data-sets.html',
    'https://www.sec.gov/files/dera/data/financial-statement-data-sets/{YYYY}q{Q}.zip',
  ],
  argsHelp:
    '--period 2024Q3 (downloads 2024q3.zip) | --from PATH (the quarter zip, or a folder holding sub.txt, num.txt, tag.txt; quarter from the name or --period)',

  async inputs(ctx, args) {
    if (args.from) {
      const files = listLocal(args.from, (n) => /\.zip$/i.test(n) || n.toLowerCase() === 'num.txt');
      return files.map((f) => ({
        ...f,
        meta: { quarter: (args.period && quarterBounds(args.period) ? args.period.toUpperCase() : null) ?? quarterFromName(f.path) },
      }));
    }
    const b = args.period ? quarterBounds(args.period) : null;
    if (!b) throw new Error('financial-statements needs --period YYYYQn (e.g. 2024Q3) or --from PATH');
    const url = `${ctx.settings.SEC_BASE_URL}/files/dera/data/financial-statement-data-sets/${b.year}q${b.quarter}.zip`;
    return [{ path: await ctx.http.download(url), url, meta: { quarter: `${b.year}Q${b.quarter}` } }];
  },

  async load(ctx, inputs) {
    for (const input of inputs) {
      const quarter = (input.meta?.quarter as string | null) ?? null;
      if (!quarter) throw new Error(`${input.path}: cannot tell the data set quarter from the name; pass --period YYYYQn`);
      const { dir, cleanup } = await materialize(input.path);
      try {
        let n: number;
        try {
          n = await loadQuarter(ctx, dir, quarter, 'utf-8');
        } catch (e) {
          // A few published files carry invalid UTF-8 bytes; Latin-1 reads every byte.
          if (!/unicode|utf-?8|encoding/i.test(String((e as Error).message))) throw e;
          ctx.log(`${input.path}: invalid UTF-8, re-reading as Latin-1`);
          n = await loadQuarter(ctx, dir, quarter, 'latin-1');
        }
        ctx.progress.rows(n);
      } finally {
        await cleanup();
      }
    }
  },

  sample: writeFinancialStatementsSample,
});
