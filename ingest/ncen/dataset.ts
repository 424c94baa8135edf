import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { defineIngester } from '../core/dataset.ts';
import { localInputs } from '../core/runner.ts';
import { filingIndexUrl } from '../funds-common/work.ts';
import { writeNcenSample } from './sample.ts';
import { fundProviders } from './tables.ts';
import { parseNcenReport } from './xml-report.ts';

const ACCESSION_IN_NAME = /(\d{10}-?\d{2}-?\d{6})/;

export default defineIngester({
  name: 'ncen',
  description: 'Form N-CEN fund service providers (advisers, custodians, administrators, transfer agents, pricing services, underwriters, auditors) from N-CEN XML filings.',
  tables: [fundProviders],
  parserVersion: 1,
  source: 'sec_form_ncen',
  sourceUrls: ['https://www.sec.gov/data-research/sec-markets-data/form-n-cen-data-sets', 'https://www.sec.gov/cgi-bin/browse-edgar?action=getcurrent&type=N-CEN'],
  argsHelp: '--from <N-CEN full-submission .txt/.nc or primary_doc .xml files>',
  async inputs(_ctx, args) {
    if (!args.from) throw new Error('ncen: give --from <folder or file of N-CEN filings> (the N-CEN data set zip is not supported yet)');
    return localInputs(args.from, (n) => /\.(xml|txt|nc)$/i.test(n));
  },
  async load(ctx, inputs) {
    for (const input of inputs) {
      const file = basename(input.path);
      const r = await parseNcenReport(await readFile(input.path, 'utf8'), { accession: file.match(ACCESSION_IN_NAME)?.[1] ?? null });
      if (!r.accession_number || !r.filer_cik || !r.report_period_end) {
        ctx.badRow({ file, line: null, reason: `N-CEN without ${!r.accession_number ? 'accession number' : !r.filer_cik ? 'registrant CIK' : 'reportEndingPeriod'}` });
        continue;
      }
      for (const p of r.providers) {
        await ctx.append('fund_providers', {
          ...p, accession_number: r.accession_number, filer_cik: r.filer_cik, registrant_name: r.registrant_name,
          report_period_end: r.report_period_end, report_year: r.report_period_end.slice(0, 4), filing_date: r.filing_date,
          source: 'sec_ncen_xml', source_url: filingIndexUrl(r.filer_cik, r.accession_number),
        }, { file });
      }
    }
  },
  sample: writeNcenSample,
});
