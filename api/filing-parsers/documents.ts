import { parseCost } from '../../schemas/plans.ts';
import { DocumentRecord } from '../../schemas/records/filing-parsers.ts';
import { defineRoute } from '../core/endpoint.ts';
import { LIVE_UPSTREAM_STATUSES } from '../core/errors.ts';
import { accessionPath, cikParam, COST, envelope, loadManifest, SOURCE, TAG } from './filing-access.ts';

export default defineRoute({
  method: 'get',
  path: '/v1/filings/{accession}/documents',
  summary: 'Document manifest of a filing',
  description:
    'Every file of the filing with sequence, type, description, file name, size and direct URL, from the ' +
    'filing index page (or the full submission text when the index is missing). Cost 10-20 credits by size.',
  tag: TAG,
  source: SOURCE,
  pathParams: accessionPath,
  params: cikParam,
  record: DocumentRecord,
  cost: COST,
  otherStatuses: LIVE_UPSTREAM_STATUSES,
  async handler({ path, query, services, setCost }) {
    const m = await loadManifest(services, path.accession!, query.cik);
    setCost(parseCost(m.cached ? 0 : m.fetched_bytes));
    return envelope(m, m.documents, { form: m.form, manifest_source: m.source });
  },
});
