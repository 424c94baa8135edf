import { defineIngester } from '../../pipeline/contract.ts';
import { inputParts, localInputs } from '../../sources/iapd/inputs.ts';
import { fetchMetadata, IAPD_METADATA_PATH, metadataFiles } from '../../sources/iapd/metadata.ts';
import { parseCrsData } from '../../sources/iapd/crs-data.ts';
import { writeFormCrsSample } from './sample.ts';
import { formCrsTable } from '../../../schemas/tables/form-crs.ts';
import { SOURCE } from '../../../schemas/sources.ts';

const CRS_PAGE = 'https://adviserinfo.sec.gov/';

export default defineIngester({
  name: 'form-crs',
  description: 'Form CRS relationship-summary filings (IAPD Form CRS data file).',
  tables: [formCrsTable],
  dependsOn: [],
  parserVersion: 1,
  source: SOURCE.iapd_form_crs,
  sourceUrls: [`https://reports.adviserinfo.sec.gov${IAPD_METADATA_PATH}`],
  argsHelp: '--from <Form CRS .csv | .zip | folder> (default: the newest advFirmCRS file in the IAPD metadata)',

  async inputs(ctx, args) {
    if (args.from) return localInputs(args.from, /\.(csv|zip)$/i);
    const base = ctx.settings.IAPD_BASE_URL;
    const files = metadataFiles(await fetchMetadata(ctx), 'advFirmCRS').filter((f) => /\.(csv|zip)$/i.test(f.fileName));
    if (!files.length) throw new Error(`no advFirmCRS data file in ${base}${IAPD_METADATA_PATH}`);
    // Names carry no reliable date; the metadata lists the newest last (as the other keys do).
    const f = files.at(-1)!;
    const url = `${base}/reports/foia/advFirmCRS/${f.year ?? ''}${f.year ? '/' : ''}${f.fileName}`;
    ctx.log(`downloading ${url}`);
    return [{ path: await ctx.http.download(url), url }];
  },

  async load(ctx, inputs) {
    for (const input of inputs) {
      for await (const part of inputParts(input.path, /\.csv$/i)) {
        for await (const { line, row } of parseCrsData(await part.open(), (l, reason) => ctx.badRow({ file: part.name, line: l, reason }))) {
          const url = row.document_url ?? (row.firm_crd ? `https://adviserinfo.sec.gov/firm/summary/${row.firm_crd}` : (input.url ?? CRS_PAGE));
          await ctx.append(formCrsTable, { ...row, source_file: part.name, source_line: line, source_url: url }, { file: part.name, line });
        }
      }
    }
  },

  sample: writeFormCrsSample,
});
