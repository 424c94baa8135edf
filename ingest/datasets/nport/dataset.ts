import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { defineIngester } from '../../pipeline/contract.ts';
import type { LoadContext, RawInput } from '../../sources/common/context.ts';
import { quarterOf } from '../../sources/common/normalize.ts';
import { forEachDataSet, quarterlyDataSetInputs } from '../../sources/edgar/funds/inputs.ts';
import { filingIndexUrl } from '../../sources/edgar/funds/work.ts';
import { loadNportDataset, NPORT_MEMBERS } from './dataset-tsv.ts';
import { writeNportSample } from './sample.ts';
import { fundHoldings } from '../../../schemas/tables/nport.ts';
import { parseNportReport } from '../../sources/edgar/funds/nport-xml.ts';
import { SOURCE } from '../../../schemas/sources.ts';

const PAGE = '/data-research/sec-markets-data/form-n-port-data-sets';
const ACCESSION_IN_NAME = /(\d{10}-?\d{2}-?\d{6})/;

async function loadXmlReport(ctx: LoadContext, input: RawInput): Promise<void> {
  const file = basename(input.path);
  const accession = file.match(ACCESSION_IN_NAME)?.[1] ?? null;
  let n = 0;
  const c = await parseNportReport(
    await readFile(input.path, 'utf8'),
    async (h, c) => {
      if (!c.accession_number || !c.report_date) return;
      n++;
      await ctx.append(
        fundHoldings,
        {
          ...h,
          accession_number: c.accession_number,
          registrant_cik: c.registrant_cik,
          registrant_name: c.registrant_name,
          series_id: c.series_id,
          fund_name: c.fund_name,
          report_date: c.report_date,
          report_period_end: c.report_period_end,
          report_quarter: quarterOf(c.report_date),
          filing_date: c.filing_date,
          submission_type: c.submission_type,
          is_current: true,
          source: 'sec_nport_xml',
          source_url: filingIndexUrl(c.registrant_cik ?? '0', c.accession_number),
        },
        { file },
      );
    },
    { accession },
  );
  if (!c.accession_number) ctx.badRow({ file, line: null, reason: 'no accession number in the container or the file name' });
  else if (!c.report_date) ctx.badRow({ file, line: null, reason: 'genInfo/repPdDate missing' });
  else if (n === 0) ctx.log(`${file}: report without positions (${c.fund_name ?? c.series_id})`);
}

export default defineIngester({
  name: 'nport',
  description: 'Form N-PORT fund portfolio holdings: quarterly N-PORT data sets (bulk, DuckDB read_csv) and NPORT-P XML filings.',
  tables: [fundHoldings],
  dependsOn: [],
  parserVersion: 1,
  source: SOURCE.sec_form_nport,
  sourceUrls: [`https://www.sec.gov${PAGE}`],
  argsHelp: '--period 2025Q3 (data set of that filing quarter) | --from <zip | folder of TSVs | NPORT-P .xml/.txt files>',
  inputs: (ctx, args) => quarterlyDataSetInputs(ctx, args, PAGE, 'nport', '2025Q3'),
  async load(ctx, inputs) {
    await forEachDataSet(inputs, NPORT_MEMBERS, (members, label) => loadNportDataset(ctx, members, label));
    for (const x of inputs.filter((i) => /\.(xml|txt|nc)$/i.test(i.path))) await loadXmlReport(ctx, x);
  },
  sample: writeNportSample,
});
