import { basename } from 'node:path';
import { defineIngester } from '../../pipeline/contract.ts';
import { quarterBounds } from '../../sources/common/normalize.ts';
import { localInputs } from '../../sources/iapd/inputs.ts';
import { readXlsx } from '../../sources/common/xlsx.ts';
import { writePrivateFundStatsSample } from './sample.ts';
import { sheetCells } from '../../sources/iapd/fund-stats-sheets.ts';
import { privateFundStatsTable } from '../../../schemas/tables/private-fund-stats.ts';
import { SOURCE } from '../../../schemas/sources.ts';

export const STATS_PAGE_PATH = '/divisions/investment/private-funds-statistics';

/** `private-funds-statistics-2025-q2.xlsx`, `pfs_Q2_2025.xlsx` → 2025-06-30. */
export function quarterEndOf(name: string): string | null {
  const b = basename(name);
  let m = b.match(/(\d{4})[-_ ]?q([1-4])/i);
  if (m) return quarterBounds(`${m[1]}Q${m[2]}`)?.end ?? null;
  m = b.match(/q([1-4])[-_ ]?(\d{4})/i);
  if (m) return quarterBounds(`${m[2]}Q${m[1]}`)?.end ?? null;
  return null;
}

export default defineIngester({
  name: 'private-fund-stats',
  description: 'SEC Private Funds Statistics tables (quarterly workbook), long format.',
  tables: [privateFundStatsTable],
  dependsOn: [],
  parserVersion: 1,
  source: SOURCE.sec_private_fund_stats,
  sourceUrls: [`https://www.sec.gov${STATS_PAGE_PATH}`],
  argsHelp: '--period 2025Q2 (when the file name carries no quarter) | --from <workbook .xlsx | folder>',

  async inputs(ctx, args) {
    if (args.from) return localInputs(args.from, /\.xlsx$/i);
    // The page links one workbook per quarter; the newest (or the requested quarter) is taken.
    const page = `${ctx.settings.SEC_BASE_URL}${STATS_PAGE_PATH}`;
    const html = (await ctx.http.get(page, { cache: 'raw', refresh: true })).body.toString('utf8');
    const links = [...html.matchAll(/href\s*=\s*["']([^"']+\.xlsx)["']/gi)]
      .map((m) => new URL(m[1], page).toString())
      .map((url) => ({ url, end: quarterEndOf(url) }))
      .filter((l): l is { url: string; end: string } => !!l.end);
    const wantEnd = args.period ? quarterBounds(args.period)?.end : undefined;
    const pick = links
      .filter((l) => !wantEnd || l.end === wantEnd)
      .sort((a, b) => a.end.localeCompare(b.end))
      .at(-1);
    if (!pick) throw new Error(`no statistics workbook${args.period ? ` for ${args.period}` : ''} linked from ${page}`);
    return [{ path: await ctx.http.download(pick.url), url: pick.url, meta: { quarterEnd: pick.end } }];
  },

  async load(ctx, inputs, args) {
    for (const input of inputs) {
      const file = basename(input.path);
      const quarterEnd = (input.meta?.quarterEnd as string | undefined) ?? quarterEndOf(file) ?? (args.period ? quarterBounds(args.period)?.end : null);
      if (!quarterEnd) throw new Error(`${file}: cannot tell the quarter from the file name; pass --period YYYYQn`);
      for (const sheet of await readXlsx(input.path)) {
        const cells = sheetCells(sheet, (row, reason) => ctx.badRow({ file: `${file}!${sheet.name}`, line: row, reason }));
        for (const c of cells) {
          await ctx.append(
            privateFundStatsTable,
            {
              quarter_end_date: quarterEnd,
              tab_name: c.tab,
              table_title: c.title,
              row_key: c.rowKey,
              metric_key: c.metricKey,
              value: c.value,
              value_raw: c.raw,
              row_order: c.rowOrder,
              col_order: c.colOrder,
              source_file: `${file}!${sheet.name}`,
              source_line: c.sheetRow,
              source_url: input.url ?? `https://www.sec.gov${STATS_PAGE_PATH}`,
            },
            { file: `${file}!${sheet.name}`, line: c.sheetRow },
          );
        }
      }
    }
  },

  sample: writePrivateFundStatsSample,
});
