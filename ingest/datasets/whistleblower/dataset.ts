import { defineIngester } from '../../pipeline/contract.ts';
import { federalFiscalYear } from '../../sources/sec-web/fiscal-year.ts';
import { listingInputs, readReleases, type ListingSource } from '../../sources/sec-web/listing-source.ts';
import { amountFor } from '../../sources/sec-web/money.ts';
import { releaseText } from '../../sources/sec-web/record-fields.ts';
import { familyOf } from '../../sources/sec-web/release-numbers.ts';
import { writeWhistleblowerSample } from './sample.ts';
import { whistleblowerTable } from '../../../schemas/tables/whistleblower.ts';
import { SOURCE as LABEL } from '../../../schemas/sources.ts';

/** Listing URL unverified (docs/formats/13-sec-enforcement.md "Unverified"); override with --from. */
const SOURCE: ListingSource = { listingPath: '/whistleblower/final-orders-whistleblower-award-determinations', detailPages: false };

export function decisionOf(text: string | null): string | null {
  if (!text) return null;
  if (/\bden(y|ies|ied|ial)\b/i.test(text)) return 'denial';
  if (/\baward(s|ed|ing)?\b/i.test(text)) return 'award';
  return null;
}

export default defineIngester({
  name: 'whistleblower',
  description: 'SEC whistleblower award final orders; award amounts parsed from the public summary, fiscal year = U.S. federal FY.',
  tables: [whistleblowerTable],
  dependsOn: [],
  parserVersion: 1,
  source: LABEL.sec_whistleblower,
  sourceUrls: ['https://www.sec.gov/whistleblower/final-orders-whistleblower-award-determinations'],
  argsHelp: '--date YYYY-MM-DD (that month) | --period YYYYQn | default: this and last month; --from <folder of listing pages>',
  inputs: (ctx, args) => listingInputs(ctx, args, SOURCE),
  async load(ctx, inputs) {
    const orders = await readReleases(ctx, inputs, (n) => familyOf(n) === '34');
    for (const o of orders) {
      const text = releaseText(o);
      // A summary without "award" next to the figure still states one amount: take it, the order is about it.
      const award = amountFor(text, 'award');
      await ctx.append(
        whistleblowerTable,
        {
          award_order_no: o.releaseNumber,
          order_date: o.date,
          fiscal_year: federalFiscalYear(o.date),
          title: o.title,
          decision: decisionOf([o.title, o.summary].filter(Boolean).join(' ')),
          award_amount_usd: award.usd,
          award_amount_text: award.text,
          public_summary: o.summary ?? o.body,
          other_release_numbers: o.otherReleaseNumbers,
          documents: o.documents,
          detail_url: o.detailUrl,
          source_url: o.sourceUrl,
        },
        { file: o.sourceUrl ?? undefined },
      );
    }
  },
  sample: writeWhistleblowerSample,
});
