import { findItemSections, itemFormOf, parseItemParam, validItemKeys } from '../../ingest/sources/edgar/index.ts';
import { parseCost } from '../../schemas/plans.ts';
import { ExtractRecord } from '../../schemas/records/filing-parsers.ts';
import { defineRoute } from '../core/endpoint.ts';
import { notFound, ValidationError, LIVE_UPSTREAM_STATUSES } from '../core/errors.ts';
import { p } from '../core/params.ts';
import { accessionPath, cikParam, COST, envelope, formOf, loadDerived, loadManifest, SOURCE, TAG, wrongForm } from './filing-access.ts';

export default defineRoute({
  method: 'get',
  path: '/v1/filings/{accession}/extract',
  summary: 'Text of one item of a 10-K, 10-Q or 8-K',
  description:
    'From the item heading to the next item heading, skipping the table of contents and page ' +
    'headers/footers. `item`: 1A, 7, 7A (10-K); II-1A or part2-1a for Part II items of a 10-Q (bare 1-4 ' +
    'mean Part I, bare 1A/5/6 Part II); 2.02, 5.02 (8-K). 404 when the item is not in the filing, 422 when ' +
    'it is not an item of the form.',
  tag: TAG,
  source: SOURCE,
  pathParams: accessionPath,
  params: { ...cikParam, item: p.str({ required: true, maxLength: 32, description: 'Item number, e.g. 1A, 7, II-1A, 5.02.', example: '1A' }) },
  record: ExtractRecord,
  cost: COST,
  otherStatuses: LIVE_UPSTREAM_STATUSES,
  async handler({ path, query, services, setCost }) {
    const m = await loadManifest(services, path.accession!, query.cik);
    const { form, primary } = await formOf(services, m);
    const itemForm = itemFormOf(form);
    if (!itemForm)
      throw wrongForm(m.accession, `Filing ${m.accession} is a ${form ?? 'filing of unknown form'}; items can be extracted from 10-K, 10-Q and 8-K filings`);
    const ref = parseItemParam(query.item!, itemForm);
    if (!ref) {
      throw new ValidationError([
        {
          loc: ['query', 'item'],
          msg: `'${query.item}' is not an item of Form ${itemForm}; valid items: ${validItemKeys(itemForm).join(', ')}`,
          type: 'value_error',
          input: query.item,
          ctx: { form: itemForm },
        },
      ]);
    }
    if (!primary) throw notFound(`Filing ${m.accession} has no primary document`);
    const {
      value: sections,
      fetchedBytes,
      textBytes,
    } = await loadDerived(services, m, primary, `items-${itemForm}`, (text) => findItemSections(text, itemForm));
    setCost(parseCost(fetchedBytes + textBytes));
    const section = sections.find((s) => s.key === ref.key);
    if (!section) throw notFound(`Item ${ref.key} (${ref.title}) was not found in ${primary.file_name ?? 'the primary document'} of filing ${m.accession}`);
    return envelope(
      m,
      [
        {
          accession: m.accession,
          form: form!,
          item: section.key,
          part: section.part,
          title: section.title,
          heading: section.heading,
          text: section.text,
          word_count: section.text.split(/\s+/).filter(Boolean).length,
          document: primary.file_name,
          source_url: primary.url,
        },
      ],
      { item: ref.key, form },
    );
  },
});
