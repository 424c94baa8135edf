import { defineIngester } from '../../pipeline/contract.ts';
import { listingInputs, readReleases, type ListingSource, LITIGATION_SOURCE } from '../../sources/sec-web/listing-source.ts';
import { releaseText, sanctionColumns, yearOf } from '../../sources/sec-web/record-fields.ts';
import { familyOf } from '../../sources/sec-web/release-numbers.ts';
import { writeEnforcementSample } from './sample.ts';
import { enforcementTable } from '../../../schemas/tables/enforcement.ts';
import { SOURCE } from '../../../schemas/sources.ts';

const AP_SOURCE: ListingSource = {
  listingPath: '/enforcement-litigation/administrative-proceedings',
  rssPath: '/enforcement-litigation/administrative-proceedings/rss',
  detailPages: true,
};

/** Only the SEC's lists are published in a documented format; `agency` leaves room for others. */
const AGENCY = 'SEC';

function kindOf(release: string): string {
  const family = familyOf(release);
  if (family === 'LR') return 'litigation_release';
  if (family === 'AAER') return 'aaer';
  return 'administrative_proceeding';
}

export default defineIngester({
  name: 'enforcement',
  description: 'SEC administrative proceedings and litigation releases as enforcement actions, with penalties/disgorgement parsed from the release text.',
  tables: [enforcementTable],
  dependsOn: [],
  parserVersion: 1,
  source: SOURCE.sec_enforcement,
  sourceUrls: ['https://www.sec.gov/enforcement-litigation/administrative-proceedings', 'https://www.sec.gov/enforcement-litigation/litigation-releases'],
  argsHelp: '--date YYYY-MM-DD (that month) | --period YYYYQn | default: this and last month; --from <folder of listing pages, release pages, feeds>',
  async inputs(ctx, args) {
    if (args.from) return listingInputs(ctx, args, AP_SOURCE);
    return [...(await listingInputs(ctx, args, AP_SOURCE)), ...(await listingInputs(ctx, args, LITIGATION_SOURCE))];
  },
  async load(ctx, inputs) {
    // Trading suspensions are 34- releases too, but they come from their own list and dataset.
    const releases = await readReleases(ctx, inputs, (n) => familyOf(n) !== null);
    for (const r of releases) {
      const kind = kindOf(r.releaseNumber);
      await ctx.append(
        enforcementTable,
        {
          action_id: `${AGENCY}:${r.releaseNumber}`,
          agency: AGENCY,
          action_kind: kind,
          release_number: r.releaseNumber,
          other_release_numbers: r.otherReleaseNumbers,
          case_number: r.fileNumbers[0] ?? r.civilActionNumber,
          action_date: r.date,
          action_year: yearOf(r.date),
          title: r.title,
          respondents: r.names,
          summary: r.body ?? r.summary,
          ...sanctionColumns(releaseText(r)),
          documents: r.documents,
          detail_url: r.detailUrl,
          source_url: r.sourceUrl,
        },
        { file: r.sourceUrl ?? undefined },
      );
    }
  },
  sample: writeEnforcementSample,
});
