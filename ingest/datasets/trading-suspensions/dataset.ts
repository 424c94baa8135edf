import { defineIngester } from '../../pipeline/contract.ts';
import { listingInputs, readReleases, type ListingSource } from '../../sources/sec-web/listing-source.ts';
import { releaseText, yearOf } from '../../sources/sec-web/record-fields.ts';
import { familyOf } from '../../sources/sec-web/release-numbers.ts';
import { writeTradingSuspensionsSample } from './sample.ts';
import { tradingSuspensionsTable } from '../../../schemas/tables/trading-suspensions.ts';
import { SOURCE as LABEL } from '../../../schemas/sources.ts';

const SOURCE: ListingSource = { listingPath: '/enforcement-litigation/trading-suspensions', detailPages: true };

/** "(ticker: ABCD)", "ticker symbol ABCD", "(OTC: ABCD)" — how orders name the symbol; absent in many. */
const TICKER = /\b(?:ticker(?: symbol)?s?|symbol|OTC|OTCQB|OTCQX|OTC Pink|NASDAQ|NYSE)\s*[:\s]\s*"?([A-Z]{1,5}(?:\.[A-Z])?)\b/g;

export function tickersIn(text: string | null): string[] {
  if (!text) return [];
  return [...new Set([...text.matchAll(TICKER)].map((m) => m[1]))];
}

export default defineIngester({
  name: 'trading-suspensions',
  description: 'SEC trading suspension orders from the trading-suspensions listing and order pages.',
  tables: [tradingSuspensionsTable],
  dependsOn: [],
  parserVersion: 1,
  source: LABEL.sec_trading_suspensions,
  sourceUrls: ['https://www.sec.gov/enforcement-litigation/trading-suspensions'],
  argsHelp: '--date YYYY-MM-DD (that month) | --period YYYYQn | default: this and last month; --from <folder of listing pages and release pages>',
  inputs: (ctx, args) => listingInputs(ctx, args, SOURCE),
  async load(ctx, inputs) {
    const releases = await readReleases(ctx, inputs, (n) => familyOf(n) === '34');
    for (const r of releases) {
      await ctx.append(
        tradingSuspensionsTable,
        {
          release_number: r.releaseNumber,
          suspension_date: r.date,
          suspension_year: yearOf(r.date),
          company: r.title,
          companies: r.names,
          tickers: tickersIn(releaseText(r)),
          file_number: r.fileNumbers[0] ?? null,
          other_release_numbers: r.otherReleaseNumbers,
          summary: r.body ?? r.summary,
          documents: r.documents,
          detail_url: r.detailUrl,
          source_url: r.sourceUrl,
        },
        { file: r.sourceUrl ?? undefined },
      );
    }
  },
  sample: writeTradingSuspensionsSample,
});
