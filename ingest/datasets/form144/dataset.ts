import { defineIngester } from '../../pipeline/contract.ts';
import { quarterOf } from '../../sources/common/normalize.ts';
import { readFiling, dataSetOrFilingInputs, reportUnrecognised } from '../../sources/edgar/ownership/inputs.ts';
import { filingIndexUrl } from '../../../schemas/tables/insider.ts';
import { Form144XmlError, parseForm144Xml, type Form144Line } from '../../sources/edgar/ownership/form144-xml.ts';
import { form144Table } from '../../../schemas/tables/form144.ts';
import { writeForm144Sample } from './sample.ts';
import { SOURCE } from '../../../schemas/sources.ts';

/** The table's columns of one securities line. */
function lineColumns(l: Form144Line) {
  return {
    class_of_securities: l.class_of_securities,
    broker_name: l.broker_name,
    broker_normalized_name: l.broker_normalized_name,
    broker_street1: l.broker_street1,
    broker_street2: l.broker_street2,
    broker_city: l.broker_city,
    broker_state_or_country: l.broker_state,
    broker_zip_code: l.broker_zip,
    units_to_be_sold: l.units_to_be_sold,
    aggregate_market_value: l.aggregate_market_value,
    units_outstanding: l.units_outstanding,
    approx_sale_date: l.approx_sale_date,
    exchange: l.exchange,
  };
}

export default defineIngester({
  name: 'form144',
  description: 'Form 144 notices of proposed sales (XML filings, electronic since 2023).',
  tables: [form144Table],
  dependsOn: [],
  parserVersion: 1,
  source: SOURCE.sec_form_144,
  sourceUrls: ['https://www.sec.gov/Archives/edgar/data/'],
  argsHelp: '--from <folder or file> of Form 144 filings (primary_doc.xml, full-submission .txt, .nc); the regulator publishes no bulk data set for Form 144',
  inputs: (ctx, args) => dataSetOrFilingInputs(ctx, args, null, 'form144'),

  async load(ctx, inputs) {
    inputs = reportUnrecognised(ctx, inputs);
    for (const input of inputs) {
      const read = await readFiling(ctx, input, (text) => parseForm144Xml(text), Form144XmlError);
      if (!read) continue;
      const { file, doc: n } = read;
      const filed = n.filed_date ?? n.notice_date;
      if (!n.accession || !filed || !n.issuer_cik) {
        ctx.badRow({ file, line: null, reason: `missing ${!n.accession ? 'accession' : !filed ? 'filed date' : 'issuer CIK'}` });
        continue;
      }
      const common = {
        accession: n.accession,
        submission_type: n.submission_type,
        is_amendment: n.is_amendment,
        filed_date: filed,
        filed_quarter: quarterOf(filed),
        filer_cik: n.filer_cik,
        issuer_cik: n.issuer_cik,
        issuer_name: n.issuer_name,
        sec_file_number: n.sec_file_number,
        person_name: n.person_name,
        relationships: n.relationships,
        notice_date: n.notice_date,
        plan_adoption_dates: n.plan_adoption_dates,
        securities_to_be_sold: n.securities_to_be_sold,
        sold_past_3_months: n.sold_past_3_months,
        nothing_to_report_past_3_months: n.nothing_to_report_past_3_months,
        remarks: n.remarks,
        signature: n.signature,
        source_url: input.url ?? filingIndexUrl(n.issuer_cik, n.accession),
      };
      let seq = 0;
      for (const line of n.lines) await ctx.append(form144Table, { ...common, ...lineColumns(line), row_seq: ++seq }, { file });
    }
  },

  sample: (dir, opts) => writeForm144Sample(dir, opts),
});
