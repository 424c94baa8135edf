import { defineIngester } from '../../pipeline/contract.ts';
import { quarterOf } from '../../sources/common/normalize.ts';
import { readFiling, dataSetOrFilingInputs, reportUnrecognised } from '../../sources/edgar/ownership/inputs.ts';
import { filingIndexUrl } from '../../../schemas/tables/insider.ts';
import { parseSchedule13, Schedule13Error } from '../../sources/edgar/ownership/schedule13-xml.ts';
import type { ReportingPerson } from '../../sources/edgar/ownership/schedule13-filing.ts';
import { beneficialOwnershipTable } from '../../../schemas/tables/ownership.ts';
import { writeSchedule13Sample } from './sample.ts';
import { SOURCE } from '../../../schemas/sources.ts';

export default defineIngester({
  name: 'ownership',
  description: 'Beneficial ownership reports: Schedule 13D/13G structured XML (since 2024-12-18) and legacy SC 13D/G filings (best-effort).',
  tables: [beneficialOwnershipTable],
  dependsOn: [],
  parserVersion: 1,
  source: SOURCE.sec_schedule_13dg,
  sourceUrls: ['https://www.sec.gov/Archives/edgar/data/'],
  argsHelp: '--from <folder or file> of Schedule 13D/G filings (primary_doc.xml, full-submission .txt, .nc); the regulator publishes no bulk data set',
  inputs: (ctx, args) => dataSetOrFilingInputs(ctx, args, null, 'ownership'),

  async load(ctx, inputs) {
    inputs = reportUnrecognised(ctx, inputs);
    for (const input of inputs) {
      const read = await readFiling(ctx, input, (text) => parseSchedule13(text), Schedule13Error);
      if (!read) continue;
      const { file, doc: d } = read;
      const filed = d.filed_date ?? d.signature_date;
      if (!d.schedule) {
        ctx.badRow({ file, line: null, reason: 'not a Schedule 13D/G' });
        continue;
      }
      if (!d.accession || !filed) {
        ctx.badRow({ file, line: null, reason: `missing ${d.accession ? 'filed date' : 'accession'}` });
        continue;
      }
      const filing = {
        accession: d.accession,
        form_type: d.form_type,
        form_class: `${d.schedule}${d.is_amendment ? '/A' : ''}`,
        schedule: d.schedule,
        is_amendment: d.is_amendment,
        amendment_no: d.amendment_no,
        previous_accession: d.previous_accession,
        structured: d.structured,
        filed_date: filed,
        filed_quarter: quarterOf(filed),
        filer_cik: d.filer_cik,
        filer_name: d.filer_name,
        subject_cik: d.subject_cik,
        issuer_name: d.issuer_name,
        cusip: d.cusip,
        securities_class_title: d.securities_class_title,
        event_date: d.event_date,
        rule_designations: d.rule_designations,
        group_members: d.group_members,
        source_url: input.url ?? filingIndexUrl(d.subject_cik ?? d.filer_cik, d.accession),
      };
      // A cover page the legacy reader could not split still lists the filing (with its filer as the person).
      const persons: Partial<ReportingPerson>[] = d.persons.length ? d.persons : [{ cik: d.filer_cik, name: d.filer_name }];
      let seq = 0;
      for (const p of persons) {
        const { cik, name, ...rest } = p;
        await ctx.append(beneficialOwnershipTable, { ...filing, ...rest, person_cik: cik, person_name: name, row_seq: ++seq }, { file });
      }
    }
  },

  sample: (dir, opts) => writeSchedule13Sample(dir, opts),
});
