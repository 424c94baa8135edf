import { parseExhibit21 } from '../../ingest/sources/edgar/index.ts';
import { parseCost } from '../../schemas/plans.ts';
import { SubsidiariesRecord } from '../../schemas/records/filing-parsers.ts';
import { defineRoute } from '../core/endpoint.ts';
import { notFound, LIVE_UPSTREAM_STATUSES } from '../core/errors.ts';
import { accessionPath, cikParam, COST, envelope, loadDerived, loadManifest, SOURCE, TAG } from './filing-access.ts';

export default defineRoute({
  method: 'get',
  path: '/v1/filings/{accession}/subsidiaries',
  summary: 'Subsidiaries from Exhibit 21',
  description:
    "Rows of subsidiary name, jurisdiction and ownership percent (where given) from the filing's Exhibit " +
    '21, plus the raw exhibit text. Best-effort: HTML tables, "Name (Jurisdiction)" lines, plain-text ' +
    'columns and indented hierarchies.',
  tag: TAG,
  source: SOURCE,
  pathParams: accessionPath,
  params: cikParam,
  record: SubsidiariesRecord,
  cost: COST,
  otherStatuses: LIVE_UPSTREAM_STATUSES,
  async handler({ path, query, services, setCost }) {
    const m = await loadManifest(services, path.accession!, query.cik);
    const doc = m.documents.find((d) => d.type && /^EX-21/i.test(d.type)) ?? m.documents.find((d) => !d.type && /ex-?21/i.test(d.file_name ?? ''));
    if (!doc) throw notFound(`Filing ${m.accession} (${m.form ?? 'unknown form'}) has no Exhibit 21`);
    const { value: ex, fetchedBytes, textBytes } = await loadDerived(services, m, doc, 'ex21', parseExhibit21);
    setCost(parseCost(fetchedBytes + textBytes));
    return envelope(
      m,
      [
        {
          accession: m.accession,
          exhibit: doc.type ?? 'EX-21',
          subsidiary_count: ex.rows.length,
          subsidiaries: ex.rows,
          raw_text: ex.text,
          source_url: doc.url,
        },
      ],
      {},
    );
  },
});
