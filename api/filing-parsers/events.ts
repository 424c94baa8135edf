import { classify8kItems, itemFormOf } from '../../ingest/sources/edgar/index.ts';
import { parseCost } from '../../schemas/plans.ts';
import { EventItemRecord } from '../../schemas/records/filing-parsers.ts';
import { defineRoute } from '../core/endpoint.ts';
import { notFound, LIVE_UPSTREAM_STATUSES } from '../core/errors.ts';
import { accessionPath, cikParam, COST, envelope, formOf, loadDerived, loadManifest, SOURCE, TAG, wrongForm } from './filing-access.ts';

export default defineRoute({
  method: 'get',
  path: '/v1/filings/{accession}/events',
  summary: 'Items reported in an 8-K',
  description:
    'Each item the 8-K reports, with its canonical title and a short excerpt, from the item headings of ' +
    'the primary document and the items declared in the filing header.',
  tag: TAG,
  source: SOURCE,
  pathParams: accessionPath,
  params: cikParam,
  record: EventItemRecord,
  cost: COST,
  otherStatuses: LIVE_UPSTREAM_STATUSES,
  async handler({ path, query, services, setCost }) {
    const m = await loadManifest(services, path.accession!, query.cik);
    const { form, primary } = await formOf(services, m);
    if (itemFormOf(form) !== '8-K') throw wrongForm(m.accession, `Filing ${m.accession} is a ${form ?? 'filing of unknown form'}, not an 8-K`);
    if (!primary) throw notFound(`Filing ${m.accession} has no primary document`);
    const {
      value: items,
      fetchedBytes,
      textBytes,
    } = await loadDerived(services, m, primary, `events-${m.items.join('_')}`, (text) => classify8kItems(text, m.items));
    setCost(parseCost(fetchedBytes + textBytes));
    return envelope(
      m,
      items.map((i) => ({ item: i.item, title: i.title, excerpt: i.excerpt, detected_from: i.source, accession: m.accession, source_url: primary.url })),
      { form },
    );
  },
});
