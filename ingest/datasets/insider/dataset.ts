import { defineIngester } from '../../pipeline/contract.ts';
import type { LoadContext, RawInput } from '../../sources/common/context.ts';
import { readFiling, dataSetOrFilingInputs, kindOf, reportUnrecognised } from '../../sources/edgar/ownership/inputs.ts';
import { extractZipMembers } from '../../sources/common/zip.ts';
import { isInsiderDataSetFolder, loadInsiderDataSet } from './data-set.ts';
import { OwnershipXmlError, parseOwnershipXml } from '../../sources/edgar/ownership/form4-xml.ts';
import { fallbackFiledDate, ownershipLakeRows } from './rows.ts';
import { insiderHoldingsTable, insiderTransactionsTable } from '../../../schemas/tables/insider.ts';
import { writeInsiderSample } from './sample.ts';
import { SOURCE } from '../../../schemas/sources.ts';

const BULK = {
  folder: 'insider-transactions-data-sets',
  zipName: (y: number, q: number) => `${y}q${q}_form345.zip`,
  marker: /^submission\.tsv$/i,
};

export default defineIngester({
  name: 'insider',
  description: 'Insider transactions and holdings (Forms 3/4/5) from the quarterly Insider Transactions data sets and from ownership XML filings.',
  tables: [insiderTransactionsTable, insiderHoldingsTable],
  // Its events carry the issuer's ticker and name from the entity directory.
  dependsOn: ['entities'],
  parserVersion: 1,
  source: SOURCE.sec_insider_transactions,
  sourceUrls: ['https://www.sec.gov/data-research/sec-markets-data/insider-transactions-data-sets', 'https://www.sec.gov/Archives/edgar/data/'],
  argsHelp:
    '--period 2024Q3 (quarterly data set zip) | --from <folder or file>: an extracted data-set folder ' +
    '(SUBMISSION.tsv …), a *_form345.zip, or Form 3/4/5 filings (.xml, full-submission .txt, .nc)',

  inputs: (ctx, args) => dataSetOrFilingInputs(ctx, args, BULK, 'insider'),

  async load(ctx, inputs) {
    inputs = reportUnrecognised(ctx, inputs);
    const seen = new Set<string>();
    for (const input of inputs) {
      const kind = kindOf(input);
      if (kind === 'data_set_zip') {
        const dir = `${input.path}.d`;
        await extractZipMembers(input.path, dir, (n) => /\.tsv$/i.test(n));
        await loadDataSetDir(ctx, dir, input.url, seen);
      } else if (kind === 'data_set_dir') {
        await loadDataSetDir(ctx, input.path, input.url, seen);
      }
    }
    for (const input of inputs) {
      if (kindOf(input) !== 'filing') continue;
      await loadFiling(ctx, input, seen);
    }
  },

  sample: (dir, opts) => writeInsiderSample(dir, opts),
});

async function loadDataSetDir(ctx: LoadContext, dir: string, url: string | null, seen: Set<string>): Promise<void> {
  if (!isInsiderDataSetFolder(dir)) {
    ctx.badRow({ file: dir, line: null, reason: 'no SUBMISSION.tsv: not an Insider Transactions data set' });
    return;
  }
  await loadInsiderDataSet(ctx, dir, url);
  for (const r of await ctx.sql(`SELECT DISTINCT accession FROM staging_insider_transactions UNION SELECT DISTINCT accession FROM staging_insider_holdings`)) {
    seen.add(String(r.accession));
  }
}

async function loadFiling(ctx: LoadContext, input: RawInput, seen: Set<string>): Promise<void> {
  const read = await readFiling(ctx, input, (text) => parseOwnershipXml(text, { url: input.url ?? undefined }), OwnershipXmlError);
  if (!read) return;
  const { file, doc } = read;
  const filedDate = fallbackFiledDate(doc);
  if (!doc.accession || !filedDate || !doc.issuer.cik) {
    ctx.badRow({ file, line: null, reason: `missing ${!doc.accession ? 'accession' : !filedDate ? 'filed date' : 'issuer CIK'}` });
    return;
  }
  // The data set already restates this filing in the same run; staging both would duplicate its keys.
  if (seen.has(doc.accession)) return;
  seen.add(doc.accession);
  const { transactions, holdings } = ownershipLakeRows(doc, { accession: doc.accession, filedDate, issuerCik: doc.issuer.cik });
  for (const r of transactions) await ctx.append(insiderTransactionsTable, r, { file });
  for (const r of holdings) await ctx.append(insiderHoldingsTable, r, { file });
}
