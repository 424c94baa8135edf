import { defineIngester } from '../../pipeline/contract.ts';
import { jsonDocuments, listLocal } from '../../sources/edgar/bulk/local-files.ts';
import { TsvStager } from '../../sources/edgar/bulk/tsv-stage.ts';
import { companyFacts } from '../../sources/edgar/xbrl/companyfacts.ts';
import { financialFactsTable } from '../../../schemas/tables/financials.ts';
import { writeFinancialsSample } from './sample.ts';
import { SOURCE } from '../../../schemas/sources.ts';

const isFactsFile = (n: string) => /^(companyfacts_)?CIK\d{10}.*\.json$/i.test(n) || /companyfacts.*\.json$/i.test(n);

export default defineIngester({
  name: 'financials',
  description: 'XBRL financial facts (every non-dimensional fact of every filing) from the company facts data.',
  tables: [financialFactsTable],
  dependsOn: [],
  parserVersion: 1,
  source: SOURCE.sec_xbrl_companyfacts,
  sourceUrls: ['https://www.sec.gov/Archives/edgar/daily-index/xbrl/companyfacts.zip', 'https://data.sec.gov/api/xbrl/companyfacts/CIK##########.json'],
  argsHelp: '[--from PATH] companyfacts.zip, or a folder/file of company facts JSON (CIK##########.json). Default: download the nightly companyfacts.zip.',

  async inputs(ctx, args) {
    if (args.from) return listLocal(args.from, (n) => isFactsFile(n) || /\.zip$/i.test(n));
    const url = `${ctx.settings.SEC_BASE_URL}/Archives/edgar/daily-index/xbrl/companyfacts.zip`;
    return [{ path: await ctx.http.download(url, { refresh: true }), url }];
  },

  async load(ctx, inputs) {
    const stage = new TsvStager(ctx, financialFactsTable);
    try {
      // One company document at a time (a large filer is 5-15 MB); rows stream out to the staging file.
      for await (const d of jsonDocuments(inputs, (n) => /\.json$/i.test(n))) {
        if ('error' in d) {
          ctx.badRow({ file: d.file, line: null, reason: d.error });
          continue;
        }
        const doc = d.doc as Record<string, unknown>;
        if (!doc || typeof doc !== 'object' || !('facts' in doc)) continue; // submissions or other JSON in the folder
        for (const r of companyFacts(doc)) {
          if ('error' in r) ctx.badRow({ file: d.file, line: null, reason: r.error });
          else await stage.write(r.row);
        }
      }
    } finally {
      await stage.close();
    }
  },

  sample: writeFinancialsSample,
});
