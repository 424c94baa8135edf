import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { defineIngester } from '../../pipeline/contract.ts';
import type { LoadContext, RawInput } from '../../sources/common/context.ts';
import { forEachDataSet, quarterlyDataSetInputs } from '../../sources/edgar/funds/inputs.ts';
import { filingIndexUrl } from '../../sources/edgar/funds/work.ts';
import { loadNcenDataset, NCEN_MEMBERS } from './dataset-tsv.ts';
import { writeNcenSample } from './sample.ts';
import { fundProviders } from '../../../schemas/tables/ncen.ts';
import { parseNcenReport } from '../../sources/edgar/funds/ncen-xml.ts';
import { SOURCE } from '../../../schemas/sources.ts';

const ACCESSION_IN_NAME = /(\d{10}-?\d{2}-?\d{6})/;
const PAGE = '/data-research/sec-markets-data/form-n-cen-data-sets';

export default defineIngester({
  name: 'ncen',
  description:
    'Form N-CEN fund service providers (advisers, custodians, administrators, transfer agents, pricing ' +
    'services, underwriters, auditors) from the quarterly N-CEN data sets and N-CEN XML filings.',
  tables: [fundProviders],
  dependsOn: [],
  parserVersion: 1,
  source: SOURCE.sec_form_ncen,
  sourceUrls: [`https://www.sec.gov${PAGE}`, 'https://www.sec.gov/cgi-bin/browse-edgar?action=getcurrent&type=N-CEN'],
  argsHelp:
    '--period 2025Q1 (data set of that filing quarter) | --from <{YYYY}q{Q}_ncen.zip | folder of its TSVs ' +
    '| N-CEN full-submission .txt/.nc or primary_doc .xml files>',
  inputs: (ctx, args) => quarterlyDataSetInputs(ctx, args, PAGE, 'ncen', '2025Q1'),
  async load(ctx, inputs) {
    await forEachDataSet(inputs, NCEN_MEMBERS, (members, label) => loadNcenDataset(ctx, members, label));
    await loadXmlFilings(
      ctx,
      inputs.filter((i) => /\.(xml|txt|nc)$/i.test(i.path)),
    );
  },
  sample: writeNcenSample,
});

async function loadXmlFilings(ctx: LoadContext, inputs: RawInput[]): Promise<void> {
  for (const input of inputs) {
    const file = basename(input.path);
    const r = await parseNcenReport(await readFile(input.path, 'utf8'), { accession: file.match(ACCESSION_IN_NAME)?.[1] ?? null });
    if (!r.accession_number || !r.filer_cik || !r.report_period_end) {
      ctx.badRow({
        file,
        line: null,
        reason: `N-CEN without ${!r.accession_number ? 'accession number' : !r.filer_cik ? 'registrant CIK' : 'reportEndingPeriod'}`,
      });
      continue;
    }
    for (const p of r.providers) {
      await ctx.append(
        fundProviders,
        {
          ...p,
          accession_number: r.accession_number,
          filer_cik: r.filer_cik,
          registrant_name: r.registrant_name,
          report_period_end: r.report_period_end,
          report_year: r.report_period_end.slice(0, 4),
          filing_date: r.filing_date,
          source: 'sec_ncen_xml',
          source_url: filingIndexUrl(r.filer_cik, r.accession_number),
        },
        { file },
      );
    }
  }
}
