import { defineIngester } from '../../pipeline/contract.ts';
import { actionTypeOf } from '../../sources/sec-web/action-type.ts';
import { LITIGATION_SOURCE, listingInputs, readReleases } from '../../sources/sec-web/listing-source.ts';
import { releaseText, sanctionColumns, yearOf } from '../../sources/sec-web/record-fields.ts';
import { familyOf } from '../../sources/sec-web/release-numbers.ts';
import { litigationTable } from '../../../schemas/tables/litigation.ts';
import { writeLitigationSample } from './sample.ts';
import { SOURCE } from '../../../schemas/sources.ts';

export default defineIngester({
  name: 'litigation',
  description: 'SEC litigation releases (LR-NNNNN): listing pages + RSS feed + release pages; penalties and disgorgement parsed from the text.',
  tables: [litigationTable],
  dependsOn: [],
  parserVersion: 1,
  source: SOURCE.sec_litigation_releases,
  sourceUrls: ['https://www.sec.gov/enforcement-litigation/litigation-releases', 'https://www.sec.gov/enforcement-litigation/litigation-releases/rss'],
  argsHelp:
    '--date YYYY-MM-DD (that month) | --period YYYYQn (that quarter) | default: this and last month; ' +
    '--from <folder of listing .html, release pages lr-N.html, feed .xml>',
  inputs: (ctx, args) => listingInputs(ctx, args, LITIGATION_SOURCE),
  async load(ctx, inputs) {
    const releases = await readReleases(ctx, inputs, (n) => familyOf(n) === 'LR');
    for (const r of releases) {
      const text = releaseText(r);
      await ctx.append(
        litigationTable,
        {
          release_number: r.releaseNumber,
          release_date: r.date,
          release_year: yearOf(r.date),
          title: r.title,
          defendants: r.names,
          more_defendants: r.moreNames,
          action_type: actionTypeOf(r.body ?? r.summary, ...r.documents.map((d) => d.title)),
          summary: r.body ?? r.summary,
          court_case_number: r.civilActionNumber,
          other_release_numbers: r.otherReleaseNumbers,
          ...sanctionColumns(text),
          documents: r.documents,
          detail_url: r.detailUrl,
          source_url: r.sourceUrl,
        },
        { file: r.sourceUrl ?? undefined },
      );
    }
  },
  sample: writeLitigationSample,
});
