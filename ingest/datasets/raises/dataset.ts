import { defineIngester } from '../../pipeline/contract.ts';
import type { LoadContext, RawInput } from '../../sources/common/context.ts';
import { readFiling, dataSetOrFilingInputs, kindOf, reportUnrecognised } from '../../sources/edgar/ownership/inputs.ts';
import { extractZipMembers } from '../../sources/common/zip.ts';
import { isFormDDataSetFolder, loadFormDDataSet } from './data-set.ts';
import { FormDXmlError, parseFormDXml } from '../../sources/edgar/ownership/form-d-xml.ts';
import { formDFiledDate, formDRow, primaryIssuer } from './rows.ts';
import { formDOfferingsTable } from '../../../schemas/tables/raises.ts';
import { writeFormDSample } from './sample.ts';
import { SOURCE } from '../../../schemas/sources.ts';

const BULK = {
  folder: 'form-d-data-sets',
  zipName: (y: number, q: number) => `${y}q${q}_d.zip`,
  marker: /^formdsubmission\.tsv$/i,
};

export default defineIngester({
  name: 'raises',
  description: 'Private placements: Form D / D/A notices from the quarterly Form D data sets and from Form D XML filings.',
  tables: [formDOfferingsTable],
  dependsOn: [],
  parserVersion: 1,
  source: SOURCE.sec_form_d,
  sourceUrls: ['https://www.sec.gov/data-research/sec-markets-data/form-d-data-sets', 'https://www.sec.gov/Archives/edgar/data/'],
  argsHelp:
    '--period 2024Q1 (quarterly Form D data set zip) | --from <folder or file>: an extracted data-set ' +
    'folder (FORMDSUBMISSION.tsv …), a *_d.zip, or Form D filings (primary_doc.xml, full-submission .txt, ' +
    '.nc)',
  inputs: (ctx, args) => dataSetOrFilingInputs(ctx, args, BULK, 'raises'),

  async load(ctx, inputs) {
    inputs = reportUnrecognised(ctx, inputs);
    const seen = new Set<string>();
    for (const input of inputs) {
      const kind = kindOf(input);
      if (kind !== 'data_set_zip' && kind !== 'data_set_dir') continue;
      const dir = kind === 'data_set_zip' ? `${input.path}.d` : input.path;
      if (kind === 'data_set_zip') await extractZipMembers(input.path, dir, (n) => /\.tsv$/i.test(n));
      if (!isFormDDataSetFolder(dir)) {
        ctx.badRow({ file: input.path, line: null, reason: 'no FORMDSUBMISSION.tsv: not a Form D data set' });
        continue;
      }
      await loadFormDDataSet(ctx, dir);
    }
    for (const r of await ctx.sql(`SELECT accession FROM staging_form_d_offerings`)) seen.add(String(r.accession));
    for (const input of inputs) if (kindOf(input) === 'filing') await loadFiling(ctx, input, seen);
  },

  sample: (dir, opts) => writeFormDSample(dir, opts),
});

async function loadFiling(ctx: LoadContext, input: RawInput, seen: Set<string>): Promise<void> {
  const read = await readFiling(ctx, input, (text) => parseFormDXml(text), FormDXmlError);
  if (!read) return;
  const { file, doc: d } = read;
  const filed = formDFiledDate(d);
  const issuerCik = primaryIssuer(d)?.cik;
  if (!d.accession || !filed || !issuerCik) {
    return ctx.badRow({ file, line: null, reason: `missing ${!d.accession ? 'accession' : !filed ? 'filed date' : 'issuer CIK'}` });
  }
  // The data set of the same run already holds this filing; staging it twice would duplicate its key.
  if (seen.has(d.accession)) return;
  seen.add(d.accession);
  await ctx.append(formDOfferingsTable, formDRow(d, { accession: d.accession, filedDate: filed, issuerCik }), { file });
}
